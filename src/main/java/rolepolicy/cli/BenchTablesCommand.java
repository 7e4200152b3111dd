package rolepolicy.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import rolepolicy.bench.TablesBench;

/**
 * Times score-tables on UDA-Bench with the deterministic judge, the ground truth as the result:
 * the first run (cold), the median of the next ones, and in the same JVM the floor: loading the
 * ground truth and running every query without scoring or writing ({@link TablesBench}).
 */
@Command(
    name = "bench-tables",
    mixinStandardHelpOptions = true,
    description = "Benchmark score-tables on all UDA-Bench datasets: time per run and per query, next to the ground truth's own run time.")
public final class BenchTablesCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(names = "--uda", paramLabel = "DIR", defaultValue = "../shared/uda-bench/Query", description = "UDA-Bench Query folder (default: ${DEFAULT-VALUE}).")
  Path root;

  @Option(names = "--runs", paramLabel = "N", defaultValue = "5", description = "Timed runs after the first (default: ${DEFAULT-VALUE}).")
  @Range(min = 1)
  int runs;

  @Override
  public Integer call() throws IOException {
    return new TablesBench(root, runs).run(spec.commandLine().getOut());
  }
}

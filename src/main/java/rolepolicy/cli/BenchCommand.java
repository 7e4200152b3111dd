package rolepolicy.cli;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import rolepolicy.bench.GenerateBench;

/**
 * Times {@code generate} the ways a user meets it: cold runs of the packaged jar and through
 * Maven, the rule build, the steady-state rate in one JVM next to the I/O floor measured in the same
 * run, and a scale run in a child JVM with a heap limit. Method: docs/benchmark.md; the measurement: {@link GenerateBench}.
 */
@Command(
    name = "bench",
    mixinStandardHelpOptions = true,
    description = {
      "Benchmark generate on Spider splits: cold end to end (packaged jar, Maven), rule build,",
      "steady-state questions/s against the I/O floor (read the input, write output of the same size",
      "with Jackson, no rules), peak memory, and a scale run with a heap limit. Needs target/rolepolicy.jar",
      "(mvn -B -q package -DskipTests). Takes a few minutes; medians with min-max over the runs."
    })
public final class BenchCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(names = "--spider", required = true, paramLabel = "DIR", description = "Spider folder with tables.json, train_spider.json and dev.json.")
  Path spider;

  @Option(names = "--splits", split = ",", paramLabel = "LIST", defaultValue = "train,dev", description = "Splits to time, of train and dev (default: ${DEFAULT-VALUE}).")
  List<String> splits;

  @Mixin PolicyOptions policy;

  @Option(names = "--jar", paramLabel = "FILE", defaultValue = "target/rolepolicy.jar", description = "The packaged jar (default: ${DEFAULT-VALUE}).")
  Path jar;

  @Option(names = "--runs", paramLabel = "N", defaultValue = "5", description = "Cold jar runs, and timed steady-state passes (default: ${DEFAULT-VALUE}).")
  @Range(min = 1)
  int runs;

  @Option(names = "--c1-runs", paramLabel = "N", defaultValue = "5", description = "Cold jar runs with -XX:TieredStopAtLevel=1, to show what the JIT costs; 0 skips them (default: ${DEFAULT-VALUE}).")
  @Range(min = 0)
  int c1Runs;

  @Option(names = "--launcher-runs", paramLabel = "N", defaultValue = "5", description = "Cold runs through bin/rolepolicy (the jar with C1 only, the serial collector and the class-data archive); 0 skips them (default: ${DEFAULT-VALUE}).")
  @Range(min = 0)
  int launcherRuns;

  @Option(names = "--maven-runs", paramLabel = "N", defaultValue = "3", description = "Cold runs through mvn compile exec:java; 0 skips them (default: ${DEFAULT-VALUE}).")
  @Range(min = 0)
  int mavenRuns;

  @Option(names = "--warmup", paramLabel = "N", defaultValue = "4", description = "Untimed passes before the steady-state ones (default: ${DEFAULT-VALUE}).")
  @Range(min = 1)
  int warmup;

  @Option(names = "--scale", paramLabel = "N", defaultValue = "100000", description = "Questions of the largest scale run (the splits repeated); 0 skips it (default: ${DEFAULT-VALUE}).")
  @Range(min = 0)
  int scale;

  @Option(names = "--scale-heap", paramLabel = "SIZE", defaultValue = "1g", description = "Heap limit (-Xmx) of the scale runs (default: ${DEFAULT-VALUE}).")
  String scaleHeap;

  @Option(names = "--threads", paramLabel = "N", description = "Worker threads of the steady-state passes (default: generate's default, the number of cores).")
  @Range(min = 1)
  Integer threads;

  @Option(names = "--baseline-jar", paramLabel = "FILE", description = "An earlier build's jar, in its build folder (its lib folder beside it): its cold runs are interleaved with this jar's (java -jar, and with C1 only), and the ratios printed.")
  Path baselineJar;

  @Option(names = "--work", paramLabel = "DIR", description = "Folder for inputs and outputs (default: a new temporary folder, removed at the end).")
  Path work;

  @Override
  public Integer call() throws Exception {
    for (String split : splits) {
      if (!split.equals("train") && !split.equals("dev")) {
        throw new ParameterException(spec.commandLine(), "bench times train and dev only, not '" + split + "'");
      }
    }
    if (policy.grants != null || policy.grantsFrom != null || policy.grantRole != null) {
      throw new ParameterException(spec.commandLine(), "bench times generate's own inputs; it takes no --grants, --grants-from"
          + " or --grant-role (bench-decide times the grants profile)");
    }
    return new GenerateBench(new GenerateBench.Plan(spider, splits, policy.ruleSet(), policy.overridesFile(),
        policy.readOverrides(), policy.overridesSource(), jar, runs, c1Runs, launcherRuns, mavenRuns, warmup, scale,
        scaleHeap, threads != null ? threads : GenerateCommand.defaultThreads(), baselineJar, work,
        MeasuredRun.class.getName())).run(spec.commandLine().getOut()) ? 0 : Main.BAD_INPUT;
  }
}

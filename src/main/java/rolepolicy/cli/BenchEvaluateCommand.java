package rolepolicy.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import rolepolicy.bench.EvaluateBench;

/** Times evaluate's cold runs next to a plain baseline measured in the same rounds: {@link EvaluateBench}. */
@Command(
    name = "bench-evaluate",
    mixinStandardHelpOptions = true,
    description = {
      "Benchmark evaluate: whole cold processes through bin/rolepolicy, with the cache empty and warm,",
      "interleaved with the baseline python3 bin/exec-floor.py (gold and predicted SQL executed and compared)",
      "and the launcher's JVM start (and, with --spider-script, Spider's evaluation.py); medians and ratios.",
      "Needs target/rolepolicy.jar."
    })
public final class BenchEvaluateCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Mixin DatasetOption data;

  @Mixin TablesOption schemaFile;

  @Option(names = "--db", paramLabel = "DIR", defaultValue = "../shared/spider/database", description = "Spider's database folder (default: ${DEFAULT-VALUE}); questions of databases without a SQLite file are left out.")
  Path databases;

  @Mixin RulesOption ruleFiles;

  @Option(names = "--pred", paramLabel = "FILE", description = "Predictions, one line per record of --dataset (default: its original SQL, every 5th REFUSE, every 7th a negative example).")
  Path predictions;

  @Option(names = "--runs", paramLabel = "N", defaultValue = "5", description = "Rounds, each one run of every kind (default: ${DEFAULT-VALUE}).")
  @Range(min = 1)
  int runs;

  @Option(names = "--launcher", paramLabel = "FILE", defaultValue = "bin/rolepolicy", description = "The launcher timed (default: ${DEFAULT-VALUE}).")
  Path launcher;

  @Option(names = "--before", paramLabel = "DIR", description = "The folder of an earlier build (its bin/rolepolicy and target/): its evaluate runs too, in each round.")
  Path before;

  @Option(names = "--spider-script", paramLabel = "DIR", description = {
      "Folder with Spider's evaluation.py and process_sql.py (not part of this project; needs NLTK): the script",
      "runs too, in each round, through bin/spider-script.py, on the questions it can score."})
  Path spiderScript;

  @Option(names = "--work", paramLabel = "DIR", description = "Folder for inputs, caches and outputs (default: a temporary folder, removed).")
  Path work;

  @Override
  public Integer call() throws Exception {
    return new EvaluateBench(new EvaluateBench.Plan(data.dataset, schemaFile.tables, databases, ruleFiles.ruleSet(), predictions, launcher,
        Path.of("bin", "exec-floor.py"), before, runs, work, spiderScript, Path.of("bin", "spider-script.py"))).run(spec.commandLine().getOut());
  }
}

package rolepolicy.cli;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import rolepolicy.bench.Phases;
import rolepolicy.engine.RuleBase;
import rolepolicy.evaluate.Evaluation;
import rolepolicy.evaluate.Evaluator;
import rolepolicy.evaluate.GoldRecord;
import rolepolicy.evaluate.PredictionReader;
import rolepolicy.generate.AtomicOutput;
import rolepolicy.spider.InputException;
import rolepolicy.spider.SchemaReader;

/** Scores a model's predictions against a generated split (SPEC §9). */
@Command(
    name = "evaluate",
    mixinStandardHelpOptions = true,
    description = "Score predictions (SQL text or REFUSE) against a generated split.")
public final class EvaluateCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(names = "--dataset", required = true, paramLabel = "FILE", description = "A generated split, e.g. data/dev.json.")
  Path dataset;

  @Option(
      names = "--pred",
      required = true,
      paramLabel = "FILE",
      description = "Predictions: one per line in dataset order (SQL or REFUSE), or JSON Lines {\"id\", \"prediction\"}.")
  Path predictions;

  @Option(
      names = "--tables",
      paramLabel = "FILE",
      defaultValue = "data/spider/tables.json",
      description = "Spider schema file of the split's databases (default: ${DEFAULT-VALUE}).")
  Path tables;

  @Option(names = "--db", paramLabel = "DIR", description = "Spider database folder (DIR/<db_id>/<db_id>.sqlite): enables execution match.")
  Path databases;

  @Option(names = "--out", paramLabel = "DIR", defaultValue = "results", description = "Output folder (default: ${DEFAULT-VALUE}).")
  Path out;

  @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "30", description = "Time limit per query (default: ${DEFAULT-VALUE}).")
  double timeout;

  @Option(names = "--rules", paramLabel = "DIR", defaultValue = "rules", description = "Rule files (default: ${DEFAULT-VALUE}).")
  Path rules;

  @Override
  public Integer call() {
    if (databases != null && !Files.isDirectory(databases)) {
      throw new InputException(databases + ": database folder not found");
    }
    if (!(timeout > 0)) {
      throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--timeout must be positive");
    }
    Phases.mark("JVM start, picocli");
    List<GoldRecord> records = Evaluator.readDataset(dataset);
    List<String> predicted = PredictionReader.read(predictions, records);
    Phases.mark("dataset and predictions read");
    var schemas = SchemaReader.read(tables);
    Phases.mark("tables.json read");
    var base = RuleBase.load(rules);
    Phases.mark("rules built");
    Evaluation.Settings settings = new Evaluation.Settings(dataset.toString(), schemas, databases, timeout, base);
    Evaluation.Outcome outcome = Evaluation.score(settings, records, predicted, predictions.toString());
    try (AtomicOutput output = new AtomicOutput()) {
      Evaluation.stage(output, out, outcome);
      output.commit();
    }
    Phases.mark("metrics.json, per_question.jsonl written");
    PrintWriter w = spec.commandLine().getOut();
    MetricsTable.print(w, outcome.metrics());
    w.println("wrote " + out.resolve(Evaluation.METRICS) + " and " + out.resolve(Evaluation.PER_QUESTION));
    Phases.mark("table printed");
    Phases.printSums();
    return 0;
  }
}

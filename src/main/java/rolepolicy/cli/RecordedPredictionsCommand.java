package rolepolicy.cli;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import rolepolicy.io.Plural;
import rolepolicy.io.AtomicOutput;
import rolepolicy.io.DatasetWriter;
import rolepolicy.interact.RecordedPredictions;

/** One round of a recorded run as predictions for evaluate, over the dataset's logged questions. */
@Command(
    name = "recorded-predictions",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = "Write one round of a recorded run (../shared/sphinteract/logs) as evaluate's predictions,"
        + " with the dataset records of the logged questions.")
public final class RecordedPredictionsCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(names = "--log", required = true, paramLabel = "LOG", description = "A recorded run, e.g. ../shared/sphinteract/logs/gpt35_baseline_4round.json.")
  Path log;

  @Option(names = "--question-list", required = true, paramLabel = "FILE",
      description = "The log's question list, e.g. ../shared/sphinteract/kaggledbqa_208_test_order.json.")
  Path questions;

  @Option(names = "--dataset", required = true, paramLabel = "FILE", description = "A generated split, e.g. data/kaggledbqa/test.json.")
  Path dataset;

  @Option(names = "--round", paramLabel = "N", defaultValue = "0", description = "The round whose SQL is taken (default: ${DEFAULT-VALUE}).")
  @Range(min = 0)
  int round;

  @Option(names = "--out", required = true, paramLabel = "DIR", description = "Writes DIR/predictions.jsonl and DIR/dataset.json.")
  Path out;

  @Mixin ForceOption force;

  @Override
  public Integer call() {
    RecordedPredictions p = RecordedPredictions.of(log, questions, dataset, round);
    try (AtomicOutput output = new AtomicOutput()) {
      DatasetWriter.write(output.stage(out.resolve("dataset.json")), p.records());
      try (BufferedWriter lines = Files.newBufferedWriter(output.stage(out.resolve("predictions.jsonl")))) {
        for (RecordedPredictions.Prediction prediction : p.predictions()) {
          lines.write(DatasetWriter.JSON.writeValueAsString(prediction));
          lines.newLine();
        }
      }
      output.commit();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    PrintWriter w = spec.commandLine().getOut();
    w.printf("%d of the %d logged questions are in %s (round %d's SQL)%n", p.predictions().size(), p.logged(), dataset, round);
    w.printf("  not in it: %s; not logged: %s of its own%n", Plural.of(p.notInDataset().size(), "logged question"),
        Plural.of(p.notLogged().size(), "question"));
    if (!p.noSql().isEmpty()) {
      w.printf("  no SQL in round %d for %s (empty predictions): %s%n", round, Plural.of(p.noSql().size(), "question"), p.noSql());
    }
    w.println("wrote " + out.resolve("predictions.jsonl") + " and " + out.resolve("dataset.json"));
    return 0;
  }
}

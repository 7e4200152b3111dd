package rolepolicy.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import rolepolicy.evaluate.ReferencePredictions;
import rolepolicy.io.AtomicOutput;
import rolepolicy.io.DatasetWriter;
import rolepolicy.io.InputException;
import rolepolicy.io.JsonFiles;

/** A generated split's own SQL (original, gold, negative) or REFUSE, as evaluate's predictions. */
@Command(
    name = "predictions",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = "Write a generated split's original SQL, gold labels, negatives or REFUSE as evaluate's predictions.")
public final class PredictionsCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Mixin DatasetOption data;

  @Option(names = "--from", paramLabel = "SOURCE", defaultValue = "original",
      description = "original, gold, negative or refuse (default: ${DEFAULT-VALUE}).")
  String from;

  @Option(names = "--out", required = true, paramLabel = "DIR", description = "Writes DIR/predictions.jsonl.")
  Path out;

  @Mixin ForceOption force;

  @Override
  public Integer call() {
    ReferencePredictions.Source source;
    try {
      source = ReferencePredictions.Source.of(from);
    } catch (InputException e) {
      throw new ParameterException(spec.commandLine(), "--from must be original, gold, negative or refuse, not '" + from + "'");
    }
    JsonNode records = JsonFiles.readArray(data.dataset, "dataset records");
    List<ReferencePredictions.Prediction> predictions = ReferencePredictions.of(records, source, data.dataset.toString());
    Path file = out.resolve("predictions.jsonl");
    try (AtomicOutput output = new AtomicOutput(out)) {
      try (BufferedWriter lines = Files.newBufferedWriter(output.stage(file))) {
        for (ReferencePredictions.Prediction p : predictions) {
          lines.write(DatasetWriter.JSON.writeValueAsString(p));
          lines.newLine();
        }
      }
      output.commit();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    spec.commandLine().getOut().printf(Locale.ROOT, "%d predictions (%s) of %s written to %s%n", predictions.size(),
        from, data.dataset, file);
    return 0;
  }
}

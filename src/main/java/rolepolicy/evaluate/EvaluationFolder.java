package rolepolicy.evaluate;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import rolepolicy.io.DatasetWriter;
import rolepolicy.io.InputException;

/**
 * An {@code evaluate --out} folder read back: {@code metrics.json} and {@code per_question.jsonl}.
 * The model's metrics are recomputed from the per-question results by {@link Metrics#of} and must
 * equal those in {@code metrics.json}, so that a stale or edited file is refused.
 *
 * @param dataset the dataset file named in {@code metrics.json}
 * @param executed whether execution match was computed ({@code --db})
 * @param exactMatch whether the results carry Spider's exact match
 * @param results the model's per-question results, in file order
 */
public record EvaluationFolder(Path folder, String dataset, boolean executed, boolean exactMatch, List<QuestionResult> results) {
  public static final String METRICS = "metrics.json";
  public static final String PER_QUESTION = "per_question.jsonl";

  private static final ObjectReader RESULT =
      new ObjectMapper().readerFor(QuestionResult.class).without(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

  /** The model's metrics over a subset (or a resample) of this folder's results. */
  public Metrics metrics(List<QuestionResult> subset) {
    return Metrics.of(subset, executed, exactMatch);
  }

  public static EvaluationFolder read(Path folder) {
    Path metricsFile = folder.resolve(METRICS);
    Path lines = folder.resolve(PER_QUESTION);
    for (Path file : List.of(metricsFile, lines)) {
      if (!Files.isRegularFile(file)) {
        throw new InputException(folder + ": no " + file.getFileName() + " (expected the output folder of evaluate or run)");
      }
    }
    JsonNode metrics;
    List<QuestionResult> results = new ArrayList<>();
    try {
      metrics = new ObjectMapper().readTree(metricsFile.toFile());
      List<String> text = Files.readAllLines(lines);
      for (int i = 0; i < text.size(); i++) {
        if (text.get(i).isBlank()) {
          continue;
        }
        try {
          results.add(RESULT.readValue(text.get(i)));
        } catch (IOException e) {
          throw new InputException(lines + ": line " + (i + 1) + ": not a per-question result: " + e.getMessage(), e);
        }
      }
    } catch (IOException e) {
      throw new InputException(metricsFile + ": " + e.getMessage(), e);
    }
    JsonNode model = metrics.at("/predictors/" + Evaluator.MODEL);
    if (model.isMissingNode()) {
      throw new InputException(metricsFile + ": no predictors." + Evaluator.MODEL + " figures");
    }
    EvaluationFolder read = new EvaluationFolder(folder, metrics.path("dataset").asText(null),
        model.at("/execution/computed").asBoolean(false), model.has("exact_match"), List.copyOf(results));
    JsonNode recomputed = DatasetWriter.JSON.valueToTree(read.metrics(read.results()));
    if (!recomputed.equals(model)) {
      throw new InputException(folder + ": the figures recomputed from " + PER_QUESTION + " differ from " + METRICS
          + "'s model figures; the two files are not from the same run");
    }
    return read;
  }
}

package rolepolicy.evaluate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import rolepolicy.bench.Phases;
import rolepolicy.spider.InputException;
import rolepolicy.spider.SchemaReader;

/**
 * Evaluates predictors against a generated split: the model's predictions and two references
 * computed on the fly — always-REFUSE, and Spider's original SQL (a policy-blind perfect model).
 */
public final class Evaluator {
  /** The reference predictors, by name. */
  public static final String MODEL = "model";
  public static final String ALWAYS_REFUSE = "always_refuse";
  public static final String ORIGINAL_SQL = "original_sql";

  private final QuestionScorer scorer;
  private final boolean executed;

  public Evaluator(QuestionScorer scorer, boolean executed) {
    this.scorer = scorer;
    this.executed = executed;
  }

  /** The records of a generated split, in file order. */
  public static List<GoldRecord> readDataset(Path file) {
    JsonNode root;
    try {
      root = new ObjectMapper().readTree(file.toFile());
    } catch (IOException e) {
      throw new InputException(SchemaReader.describe(file, e), e);
    }
    if (root == null || !root.isArray()) {
      throw new InputException(file + ": expected a JSON array of dataset records");
    }
    List<GoldRecord> records = new ArrayList<>();
    Map<String, Integer> seen = new HashMap<>();
    for (int i = 0; i < root.size(); i++) {
      GoldRecord record = GoldRecord.of(root.get(i), file + ": record #" + (i + 1));
      Integer first = seen.putIfAbsent(record.id(), i + 1);
      if (first != null) {
        throw new InputException(file + ": record #" + (i + 1) + " repeats the id '" + record.id()
            + "' of record #" + first + "; predictions are matched to records by id");
      }
      records.add(record);
    }
    return records;
  }

  /** One predictor's per-question results. */
  public List<QuestionResult> score(List<GoldRecord> dataset, List<String> predictions) {
    List<QuestionResult> results = new ArrayList<>(dataset.size());
    for (int i = 0; i < dataset.size(); i++) {
      results.add(scorer.score(dataset.get(i), predictions.get(i)));
    }
    return results;
  }

  /** Metrics of the model and of the two reference predictors, in that order. */
  public Map<String, Metrics> compare(List<GoldRecord> dataset, List<QuestionResult> model) {
    Map<String, Metrics> metrics = new LinkedHashMap<>();
    boolean em = scorer.exactMatch();
    Phases.mark("model scored");
    metrics.put(MODEL, Metrics.of(model, executed, em));
    metrics.put(ALWAYS_REFUSE,
        Metrics.of(score(dataset, Collections.nCopies(dataset.size(), QuestionScorer.REFUSE)), executed, em));
    Phases.mark("always_refuse scored");
    metrics.put(ORIGINAL_SQL,
        Metrics.of(score(dataset, dataset.stream().map(GoldRecord::originalSql).toList()), executed, em));
    Phases.mark("original_sql scored");
    return metrics;
  }
}

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
import rolepolicy.io.Phases;
import rolepolicy.io.InputException;

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
  /** One scorer per thread; the first is {@link #scorer}. */
  private final List<QuestionScorer> scorers;
  private final boolean executed;

  public Evaluator(QuestionScorer scorer, boolean executed) {
    this(List.of(scorer), executed);
  }

  /**
   * An evaluator that scores with {@code scorers.size()} threads, each with its own scorer (a scorer
   * is not thread-safe); the results are those of one thread, in dataset order.
   */
  Evaluator(List<QuestionScorer> scorers, boolean executed) {
    this.scorer = scorers.get(0);
    this.scorers = List.copyOf(scorers);
    this.executed = executed;
  }

  /** The records of a generated split, in file order. */
  public static List<GoldRecord> readDataset(Path file) {
    JsonNode root;
    try {
      root = new ObjectMapper().readTree(file.toFile());
    } catch (IOException e) {
      throw new InputException(InputException.describe(file, e), e);
    }
    if (root == null || root.isMissingNode()) {
      throw new InputException(file + ": the file is empty, not JSON; expected a JSON array of dataset records");
    }
    if (!root.isArray()) {
      throw new InputException(file + ": expected a JSON array of dataset records");
    }
    if (root.isEmpty()) {
      throw new InputException(file + ": no records (an empty list); a generated split holds one record per question");
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
    if (scorers.size() == 1 || dataset.size() < 2 * BATCH) {
      List<QuestionResult> results = new ArrayList<>(dataset.size());
      for (int i = 0; i < dataset.size(); i++) {
        results.add(scorer.score(dataset.get(i), predictions.get(i)));
      }
      return results;
    }
    return scoreInParallel(dataset, predictions);
  }

  /** Questions a thread takes at a time. */
  private static final int BATCH = 8;

  private List<QuestionResult> scoreInParallel(List<GoldRecord> dataset, List<String> predictions) {
    QuestionResult[] results = new QuestionResult[dataset.size()];
    RuntimeException[] failures = new RuntimeException[dataset.size()];
    java.util.concurrent.atomic.AtomicInteger next = new java.util.concurrent.atomic.AtomicInteger();
    java.util.concurrent.atomic.AtomicInteger firstFailure = new java.util.concurrent.atomic.AtomicInteger(Integer.MAX_VALUE);
    List<Thread> threads = new ArrayList<>();
    for (QuestionScorer own : scorers) {
      Thread thread = new Thread(() -> {
        for (int start; (start = next.getAndAdd(BATCH)) < dataset.size() && start < firstFailure.get(); ) {
          for (int i = start; i < Math.min(start + BATCH, dataset.size()); i++) {
            try {
              results[i] = own.score(dataset.get(i), predictions.get(i));
            } catch (RuntimeException e) {
              failures[i] = e;
              firstFailure.accumulateAndGet(i, Math::min);
              break;
            }
          }
        }
      }, "evaluate-" + threads.size());
      thread.setDaemon(true);
      threads.add(thread);
      thread.start();
    }
    for (Thread thread : threads) {
      try {
        thread.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while scoring", e);
      }
    }
    // the failure a serial run would meet first: every question before it was scored
    for (int i = 0; i < results.length; i++) {
      if (failures[i] != null) {
        throw failures[i];
      }
      if (results[i] == null) {
        results[i] = scorer.score(dataset.get(i), predictions.get(i));
      }
    }
    return java.util.Arrays.asList(results);
  }

  /** Metrics of the model and of the two reference predictors, in that order. */
  public Map<String, Metrics> compare(List<GoldRecord> dataset, List<QuestionResult> model) {
    return compare(dataset, model, null);
  }

  /**
   * {@link #compare(List, List)}, with the reference predictors' figures taken from {@code cache}
   * (null: none) when it has them for this split, else computed and kept there.
   */
  Map<String, Metrics> compare(List<GoldRecord> dataset, List<QuestionResult> model, EvaluationCache cache) {
    Map<String, Metrics> metrics = new LinkedHashMap<>();
    boolean em = scorer.exactMatch();
    Phases.mark("model scored");
    metrics.put(MODEL, Metrics.of(model, executed, em));
    Map<String, Metrics> references = cache == null ? null : cache.references();
    if (references != null && references.keySet().equals(java.util.Set.of(ALWAYS_REFUSE, ORIGINAL_SQL))) {
      metrics.put(ALWAYS_REFUSE, references.get(ALWAYS_REFUSE));
      metrics.put(ORIGINAL_SQL, references.get(ORIGINAL_SQL));
      Phases.mark("reference predictors read from the cache");
      return metrics;
    }
    metrics.put(ALWAYS_REFUSE,
        Metrics.of(score(dataset, Collections.nCopies(dataset.size(), QuestionScorer.REFUSE)), executed, em));
    Phases.mark("always_refuse scored");
    metrics.put(ORIGINAL_SQL,
        Metrics.of(score(dataset, dataset.stream().map(GoldRecord::originalSql).toList()), executed, em));
    Phases.mark("original_sql scored");
    if (cache != null) {
      Map<String, Metrics> kept = new LinkedHashMap<>(metrics);
      kept.remove(MODEL);
      cache.keepReferences(kept);
    }
    return metrics;
  }
}

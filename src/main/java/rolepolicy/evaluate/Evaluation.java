package rolepolicy.evaluate;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.kie.api.KieBase;
import rolepolicy.db.SqliteRunner;
import rolepolicy.engine.QuestionEngine;
import rolepolicy.io.AtomicOutput;
import rolepolicy.io.DatasetWriter;
import rolepolicy.io.InputException;
import rolepolicy.spider.Schema;

/**
 * The evaluation pipeline of {@code evaluate} and {@code run}: predictions scored against a split,
 * {@code metrics.json} and {@code per_question.jsonl} staged (the table printed: {@code cli.MetricsTable}).
 */
public final class Evaluation {
  public static final String METRICS = "metrics.json";
  public static final String PER_QUESTION = "per_question.jsonl";

  /**
   * {@code metrics.json}: the figures of the model and the two reference predictors; {@code answers},
   * a model run's outcome counts (answered, refused, no SQL, truncated, failed), only in a run's.
   */
  @JsonPropertyOrder({"dataset", "predictions", "execution", "not_computed", "answers", "predictors"})
  public record MetricsFile(
      String dataset,
      String predictions,
      String execution,
      @JsonProperty("not_computed") List<String> notComputed,
      @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
      Map<String, Integer> answers,
      Map<String, Metrics> predictors) {

    public MetricsFile(String dataset, String predictions, String execution, List<String> notComputed,
        Map<String, Metrics> predictors) {
      this(dataset, predictions, execution, notComputed, null, predictors);
    }

    /** This file with a run's outcome counts. */
    public MetricsFile withAnswers(Map<String, Integer> counts) {
      return new MetricsFile(dataset, predictions, execution, notComputed, counts, predictors);
    }
  }

  /** What was evaluated and with what: {@code databases} null leaves execution out. */
  public record Inputs(String dataset, Map<String, Schema> schemas, Path databases, double timeoutSeconds, KieBase rules) {}

  /** The figures and each question's result of the model. */
  public record Outcome(MetricsFile metrics, List<QuestionResult> model) {}

  private Evaluation() {}

  /** Scores {@code predictions} (aligned with {@code records}), named {@code predictionsName} in the metrics. */
  public static Outcome score(Inputs settings, List<GoldRecord> records, List<String> predictions, String predictionsName) {
    return score(settings, records, predictions, predictionsName, 1, null);
  }

  /**
   * {@link #score(Inputs, List, List, String)} with {@code threads} threads, each with its own
   * read-only connections, and the gold results and reference predictors kept in {@code cache}
   * (null: none); the same figures and bytes whatever the threads and the cache.
   */
  public static Outcome score(Inputs settings, List<GoldRecord> records, List<String> predictions, String predictionsName,
      int threads, EvaluationCache cache) {
    return score(settings, records, predictions, predictionsName, threads, cache, null);
  }

  /**
   * {@link #score(Inputs, List, List, String, int, EvaluationCache)} with the model's exact-match
   * verdicts taken from {@code ahead} (null: none) where it has them.
   */
  public static Outcome score(Inputs settings, List<GoldRecord> records, List<String> predictions, String predictionsName,
      int threads, EvaluationCache cache, ExactMatchesAhead ahead) {
    if (settings.databases() != null && !Files.isDirectory(settings.databases())) {
      throw new InputException(settings.databases() + ": database folder not found");
    }
    boolean executed = settings.databases() != null;
    Map<String, Metrics> metrics;
    List<QuestionResult> model;
    List<SqliteRunner> runners = new java.util.ArrayList<>();
    try {
      QuestionEngine engine = new QuestionEngine(settings.rules());
      List<QuestionScorer> scorers = new java.util.ArrayList<>();
      for (int t = 0; t < Math.max(1, threads); t++) {
        SqliteRunner runner = executed ? new SqliteRunner(settings.databases(), settings.timeoutSeconds()) : null;
        if (runner != null) {
          runners.add(runner);
        }
        scorers.add(new QuestionScorer(engine, settings.schemas(), runner, true).withCache(cache).withAhead(ahead));
      }
      Evaluator evaluator = new Evaluator(scorers, executed);
      model = evaluator.score(records, predictions);
      scorers.forEach(s -> s.withAhead(null));
      metrics = evaluator.compare(records, model, cache);
    } finally {
      if (ahead != null) {
        ahead.stop();
      }
      runners.forEach(SqliteRunner::close);
    }
    if (cache != null) {
      cache.save();
    }
    List<String> notComputed = executed ? List.of()
        : List.of("execution match and the reliability score RS(c): they need --db");
    return new Outcome(new MetricsFile(settings.dataset(), predictionsName,
        executed ? "timeout " + settings.timeoutSeconds() + " s per query" : "not run", notComputed, metrics), model);
  }

  /** Stages {@code DIR/metrics.json} and {@code DIR/per_question.jsonl} in {@code output}. */
  public static void stage(AtomicOutput output, Path folder, Outcome outcome) {
    try {
      DatasetWriter.write(output.stage(folder.resolve(METRICS)), outcome.metrics());
      try (BufferedWriter lines = Files.newBufferedWriter(output.stage(folder.resolve(PER_QUESTION)))) {
        for (QuestionResult result : outcome.model()) {
          lines.write(DatasetWriter.JSON.writeValueAsString(result));
          lines.newLine();
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}

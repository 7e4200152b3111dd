package rolepolicy.evaluate;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import org.kie.api.KieBase;
import rolepolicy.db.SqliteRunner;
import rolepolicy.engine.QuestionEngine;
import rolepolicy.generate.AtomicOutput;
import rolepolicy.generate.DatasetWriter;
import rolepolicy.model.Policy;
import rolepolicy.model.Role;
import rolepolicy.spider.InputException;
import rolepolicy.spider.Schema;

/**
 * The evaluation pipeline of {@code evaluate} and {@code run}: predictions scored against a split,
 * {@code metrics.json} and {@code per_question.jsonl} staged, the table printed.
 */
public final class Evaluation {
  public static final String METRICS = "metrics.json";
  public static final String PER_QUESTION = "per_question.jsonl";

  /** {@code metrics.json}: the figures of the model and the two reference predictors. */
  @JsonPropertyOrder({"dataset", "predictions", "execution", "not_computed", "predictors"})
  public record MetricsFile(
      String dataset,
      String predictions,
      String execution,
      @JsonProperty("not_computed") List<String> notComputed,
      Map<String, Metrics> predictors) {}

  /** What was evaluated and with what: {@code databases} null leaves execution out. */
  public record Settings(String dataset, Map<String, Schema> schemas, Path databases, double timeoutSeconds, KieBase rules) {}

  /** The figures and each question's result of the model. */
  public record Outcome(MetricsFile metrics, List<QuestionResult> model) {}

  private Evaluation() {}

  /** Scores {@code predictions} (aligned with {@code records}), named {@code predictionsName} in the metrics. */
  public static Outcome score(Settings settings, List<GoldRecord> records, List<String> predictions, String predictionsName) {
    if (settings.databases() != null && !Files.isDirectory(settings.databases())) {
      throw new InputException(settings.databases() + ": database folder not found");
    }
    boolean executed = settings.databases() != null;
    Map<String, Metrics> metrics;
    List<QuestionResult> model;
    try (SqliteRunner runner = executed ? new SqliteRunner(settings.databases(), settings.timeoutSeconds()) : null) {
      Evaluator evaluator = new Evaluator(
          new QuestionScorer(new QuestionEngine(settings.rules()), settings.schemas(), runner, true), executed);
      model = evaluator.score(records, predictions);
      metrics = evaluator.compare(records, model);
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

  /** The figures as a table, one column per predictor, then what was not computed. */
  public static void print(PrintWriter w, MetricsFile file) {
    Map<String, Metrics> metrics = file.predictors();
    List<String[]> rows = new ArrayList<>();
    rows.add(header(metrics));
    row(rows, metrics, "questions", m -> String.valueOf(m.questions()));
    row(rows, metrics, "REFUSE precision", m -> pct(m.refuse().precision()));
    row(rows, metrics, "REFUSE recall", m -> pct(m.refuse().recall()));
    row(rows, metrics, "REFUSE F1", m -> pct(m.refuse().f1()));
    row(rows, metrics, "decision accuracy", m -> pct(m.refuse().accuracy()));
    row(rows, metrics, "answered (SQL)", m -> String.valueOf(m.compliance().answered()));
    row(rows, metrics, "  compliant", m -> pct(m.compliance().compliantRate()));
    row(rows, metrics, "  not analysable", m -> String.valueOf(m.compliance().unanalysable()));
    for (Role role : Role.values()) {
      row(rows, metrics, "  violating in " + role, m -> pct(m.compliance().violatingByRole().get(role)));
    }
    for (Policy policy : Policy.values()) {
      row(rows, metrics, "  violating " + policy + " columns", m -> pct(m.compliance().violatingByPolicy().get(policy)));
    }
    row(rows, metrics, "execution match", m -> pct(m.execution().matchRate()));
    row(rows, metrics, "  compared / errors / timeouts", m -> m.execution().compared() + " / "
        + m.execution().errors() + " / " + m.execution().timeouts());
    row(rows, metrics, "  no database / gold fails", m -> m.execution().noDatabase() + " / " + m.execution().goldErrors());
    // EM rows, kept as narrow as the rows above so that those print as they did
    row(rows, metrics, "exact set match (EM)", m -> pct(m.exactMatch().matchRate()));
    row(rows, metrics, "  scored questions", m -> String.valueOf(m.exactMatch().scored()));
    row(rows, metrics, "  unparsed / gold unparsed",
        m -> m.exactMatch().unparsed() + " / " + m.exactMatch().goldUnparsed());
    Metrics first = metrics.values().iterator().next();
    for (Hardness level : Hardness.values()) {
      String name = level.label();
      row(rows, metrics, "  EM " + name + " (" + first.exactMatch().byHardness().get(name).scored() + ")",
          m -> pct(m.exactMatch().byHardness().get(name).emRate()));
    }
    for (Hardness level : Hardness.values()) {
      row(rows, metrics, "  EX " + level.label(), m -> pct(m.exactMatch().byHardness().get(level.label()).exRate()));
    }
    row(rows, metrics, "column precision", m -> pct(m.columns().precision()));
    row(rows, metrics, "column recall", m -> pct(m.columns().recall()));
    row(rows, metrics, "column F1", m -> pct(m.columns().f1()));
    row(rows, metrics, "  executed predictions scored", m -> String.valueOf(m.columns().scored()));
    row(rows, metrics, "RS(0)", m -> num(m.reliability().rs0()));
    row(rows, metrics, "RS(10)", m -> num(m.reliability().rs10()));
    row(rows, metrics, "RS(N)", m -> num(m.reliability().rsN()));
    row(rows, metrics, "  undecided questions", m -> String.valueOf(m.reliability().undecided()));
    int[] widths = new int[rows.get(0).length];
    rows.forEach(r -> { for (int i = 0; i < r.length; i++) widths[i] = Math.max(widths[i], r[i].length()); });
    for (String[] r : rows) {
      StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%-" + widths[0] + "s", r[0]));
      for (int i = 1; i < r.length; i++) {
        line.append("  ").append(String.format(Locale.ROOT, "%" + widths[i] + "s", r[i]));
      }
      w.println(line.toString().stripTrailing());
    }
    file.notComputed().forEach(n -> w.println("not computed: " + n));
  }

  private static String[] header(Map<String, Metrics> metrics) {
    List<String> h = new ArrayList<>(List.of(""));
    h.addAll(metrics.keySet());
    return h.toArray(String[]::new);
  }

  private static void row(List<String[]> rows, Map<String, Metrics> metrics, String name, Function<Metrics, String> value) {
    List<String> r = new ArrayList<>(List.of(name));
    metrics.values().forEach(m -> r.add(value.apply(m)));
    rows.add(r.toArray(String[]::new));
  }

  private static String pct(Double rate) {
    return rate == null ? "-" : String.format(Locale.ROOT, "%.1f%%", 100 * rate);
  }

  private static String num(Double value) {
    return value == null ? "-" : String.format(Locale.ROOT, "%.3f", value);
  }
}

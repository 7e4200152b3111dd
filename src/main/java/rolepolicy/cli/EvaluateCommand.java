package rolepolicy.cli;

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
import java.util.concurrent.Callable;
import java.util.function.Function;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import rolepolicy.engine.QuestionEngine;
import rolepolicy.engine.RuleBase;
import rolepolicy.evaluate.Evaluator;
import rolepolicy.evaluate.GoldRecord;
import rolepolicy.evaluate.Hardness;
import rolepolicy.db.SqliteRunner;
import rolepolicy.evaluate.Metrics;
import rolepolicy.evaluate.PredictionReader;
import rolepolicy.evaluate.QuestionResult;
import rolepolicy.evaluate.QuestionScorer;
import rolepolicy.generate.AtomicOutput;
import rolepolicy.generate.DatasetWriter;
import rolepolicy.model.Policy;
import rolepolicy.model.Role;
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

  /** {@code metrics.json}: the figures of the model and the two reference predictors. */
  @JsonPropertyOrder({"dataset", "predictions", "execution", "not_computed", "predictors"})
  record MetricsFile(
      String dataset,
      String predictions,
      String execution,
      @JsonProperty("not_computed") List<String> notComputed,
      Map<String, Metrics> predictors) {}

  @Override
  public Integer call() {
    if (databases != null && !Files.isDirectory(databases)) {
      throw new InputException(databases + ": database folder not found");
    }
    if (!(timeout > 0)) {
      throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--timeout must be positive");
    }
    List<GoldRecord> records = Evaluator.readDataset(dataset);
    List<String> predicted = PredictionReader.read(predictions, records);
    var schemas = SchemaReader.read(tables);
    boolean executed = databases != null;
    Map<String, Metrics> metrics;
    List<QuestionResult> model;
    try (SqliteRunner runner = executed ? new SqliteRunner(databases, timeout) : null) {
      Evaluator evaluator =
          new Evaluator(new QuestionScorer(new QuestionEngine(RuleBase.load(rules)), schemas, runner, true), executed);
      model = evaluator.score(records, predicted);
      metrics = evaluator.compare(records, model);
    }
    List<String> notComputed = executed ? List.of()
        : List.of("execution match and the reliability score RS(c): they need --db");
    write(new MetricsFile(dataset.toString(), predictions.toString(),
        executed ? "timeout " + timeout + " s per query" : "not run", notComputed, metrics), model);
    print(spec.commandLine().getOut(), metrics, notComputed);
    return 0;
  }

  private void write(MetricsFile metrics, List<QuestionResult> model) {
    try (AtomicOutput output = new AtomicOutput()) {
      DatasetWriter.write(output.stage(out.resolve("metrics.json")), metrics);
      try (BufferedWriter lines = Files.newBufferedWriter(output.stage(out.resolve("per_question.jsonl")))) {
        for (QuestionResult result : model) {
          lines.write(DatasetWriter.JSON.writeValueAsString(result));
          lines.newLine();
        }
      }
      output.commit();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private void print(PrintWriter w, Map<String, Metrics> metrics, List<String> notComputed) {
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
    row(rows, metrics, "  EM, Spider's script", m -> pct(m.exactMatch().script().matchRate()));
    row(rows, metrics, "  differing / gold fails",
        m -> m.exactMatch().script().differ().size() + " / " + m.exactMatch().script().goldUnparsed());
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
    notComputed.forEach(n -> w.println("not computed: " + n));
    w.println("wrote " + out.resolve("metrics.json") + " and " + out.resolve("per_question.jsonl"));
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

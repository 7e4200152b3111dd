package rolepolicy.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import rolepolicy.evaluate.Evaluation.MetricsFile;
import rolepolicy.exactmatch.Hardness;
import rolepolicy.evaluate.Metrics;
import rolepolicy.model.Policy;
import rolepolicy.model.Role;

/** The metrics table that evaluate and run print. */
final class MetricsTable {
  private MetricsTable() {}

  /** The figures as a table, one column per predictor, then what was not computed. */
  static void print(PrintWriter w, MetricsFile file) {
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
      if (metrics.values().stream().allMatch(m -> m.compliance().violatingByRole().get(role) == null)) {
        continue; // a clause no profile here judged
      }
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

package rolepolicy.compare;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import rolepolicy.io.Plural;
import rolepolicy.compare.Comparison.Pair;
import rolepolicy.compare.Comparison.RunInfo;

/** The comparison as the terminal prints it: the metrics with intervals, then the paired tests. */
public final class CompareTable {
  private CompareTable() {}

  public static void print(PrintWriter w, Comparison c) {
    w.printf(Locale.ROOT, "%s over %s paired by id; 95 %% percentile bootstrap, %d resamples, seed %d%n",
        Plural.of(c.runs().size(), "run"), Plural.of(c.questions(), "question"), c.resamples(), c.seed());
    for (RunInfo r : c.runs()) {
      w.printf(Locale.ROOT, "  %s: %s%s%n", r.name(), r.folder(), r.model() == null ? "" : " (model " + r.model() + ")");
    }
    if (c.leftOut().questions() > 0) {
      w.printf(Locale.ROOT, "left out: %s some run has no final answer to (%s)%n", Plural.of(c.leftOut().questions(), "question"),
          String.join(", ", c.leftOut().byRun().entrySet().stream().map(e -> e.getKey() + " " + e.getValue().size()).toList()));
    }
    if (c.runs().stream().anyMatch(r -> r.requests() != null)) {
      List<String[]> runs = new ArrayList<>();
      runs.add(RunCells.HEADER);
      c.runs().forEach(r -> runs.add(RunCells.of(r)));
      align(w, runs);
    }
    c.differingSettings().forEach((setting, values) -> w.printf(Locale.ROOT, "settings differ: %s: %s%n", setting,
        String.join(", ", values.entrySet().stream().map(e -> e.getKey() + " " + RunCells.value(e.getValue())).toList())));
    List<String[]> rows = new ArrayList<>();
    List<String> header = new ArrayList<>(List.of(""));
    header.addAll(c.metrics().keySet());
    rows.add(header.toArray(String[]::new));
    for (Measure m : Measure.MAIN) {
      List<String> row = new ArrayList<>(List.of(m.label()));
      c.metrics().values().forEach(intervals -> row.add(Cells.interval(m, intervals.get(m.key()))));
      rows.add(row.toArray(String[]::new));
    }
    align(w, rows);
    if (c.pairs().isEmpty()) {
      return;
    }
    w.println();
    List<String[]> tests = new ArrayList<>();
    tests.add(new String[] {"a", "b", "EX only a / only b", "decision only a / only b", "compliant a - b", "p", "Holm",
        "REFUSE F1 a - b", "p", "Holm", "differ"});
    for (Pair p : c.pairs()) {
      tests.add(new String[] {p.a(), p.b(), Cells.mcnemar(p.execution(), p.holm().execution()),
          Cells.mcnemar(p.decision(), p.holm().decision()), Cells.difference(p.compliance()), Cells.p(p.compliance().p()),
          Cells.p(p.holm().compliance()), Cells.difference(p.refuseF1()), Cells.p(p.refuseF1().p()),
          Cells.p(p.holm().refuseF1()), String.valueOf(p.differing().size())});
    }
    align(w, tests);
  }

  /** Columns padded to their widest cell: the first two left-aligned, the rest right-aligned. */
  private static void align(PrintWriter w, List<String[]> rows) {
    int[] widths = new int[rows.get(0).length];
    rows.forEach(r -> { for (int i = 0; i < r.length; i++) widths[i] = Math.max(widths[i], r[i].length()); });
    for (String[] r : rows) {
      StringBuilder line = new StringBuilder();
      for (int i = 0; i < r.length; i++) {
        boolean left = i == 0 || i == 1 && rows.get(0)[1].equals("b");
        line.append(i == 0 ? "" : "  ").append(String.format(Locale.ROOT, "%" + (left ? "-" : "") + widths[i] + "s", r[i]));
      }
      w.println(line.toString().stripTrailing());
    }
  }
}

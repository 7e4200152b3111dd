package rolepolicy.compare;

import rolepolicy.html.Html;
import static rolepolicy.html.Html.esc;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import rolepolicy.compare.Bootstrap.Interval;
import rolepolicy.compare.Comparison.Answer;
import rolepolicy.compare.Comparison.Database;
import rolepolicy.compare.Comparison.Differing;
import rolepolicy.compare.Comparison.Pair;
import rolepolicy.compare.Comparison.RunInfo;
import rolepolicy.html.Charts;

/**
 * The comparison as one self-contained page, in the QA report's style: tables with intervals,
 * charts as PNG data URIs, no script, nothing fetched, no date: the same comparison gives the
 * same bytes.
 */
public final class CompareHtml {
  private static final String EXTRA = "td.q{max-width:320px}td.sql{font-family:monospace;font-size:12px;white-space:pre-wrap;max-width:420px}\n";

  /** The measures drawn as charts. */
  private static final List<String> CHARTED =
      List.of("refuse_f1", "decision_accuracy", "compliance", "execution_match", "exact_match", "column_f1", "rs_0");

  private final StringBuilder html = new StringBuilder(1 << 20);
  private final Comparison c;

  private CompareHtml(Comparison c) {
    this.c = c;
  }

  public static String render(Comparison c) {
    CompareHtml page = new CompareHtml(c);
    page.page();
    return page.html.toString();
  }

  private void page() {
    html.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
        .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
        .append("<title>Comparison of runs</title>\n<style>\n").append(Html.STYLE).append(EXTRA)
        .append("</style>\n</head>\n<body>\n<main>\n");
    html.append("<h1>Comparison of runs</h1>\n<p class=\"sub\">").append(c.runs().size()).append(" runs over the same ")
        .append(c.questions()).append(" questions, paired by id. Intervals: ").append(esc(c.method())).append("; ")
        .append(c.resamples()).append(" resamples, seed ").append(c.seed())
        .append(". Every number is also in <code>compare.json</code>.</p>\n");
    html.append("<p class=\"nav\"><a href=\"#runs\">Runs</a><a href=\"#metrics\">Metrics</a><a href=\"#charts\">Charts</a>")
        .append("<a href=\"#tests\">Paired tests</a><a href=\"#hardness\">By hardness</a><a href=\"#violations\">Violations</a>")
        .append("<a href=\"#databases\">By database</a><a href=\"#differing\">Differing questions</a></p>\n");
    runs();
    table("metrics", "Metrics with 95 % intervals", Measure.MAIN, c.metrics(), null);
    charts();
    tests();
    table("hardness", "By Spider hardness: EM over the scored questions, EX over the compared answers",
        Measure.HARDNESS, c.hardness(), c.hardnessQuestions());
    table("violations", "Violations: share of the answered SQL violating in each role and on each policy",
        Measure.VIOLATIONS, c.violations(), null);
    databases();
    differing();
    html.append("</main>\n</body>\n</html>\n");
  }

  private void runs() {
    html.append("<h2 id=\"runs\">Runs</h2>\n<table>\n<tr><th>run</th><th>model</th><th>folder</th><th>dataset</th>")
        .append("<th>execution</th><th>exact match</th></tr>\n");
    for (RunInfo r : c.runs()) {
      html.append("<tr><td>").append(esc(r.name())).append("</td><td>").append(r.model() == null ? "-" : esc(r.model()))
          .append("</td><td><code>").append(esc(r.folder())).append("</code></td><td><code>").append(esc(r.dataset()))
          .append("</code></td><td>").append(r.executed() ? "run" : "not run").append("</td><td>")
          .append(r.exactMatch() ? "computed" : "not computed").append("</td></tr>\n");
    }
    html.append("</table>\n");
    if (c.leftOut().questions() > 0) {
      html.append("<p>Left out: ").append(c.leftOut().questions()).append(" questions some run has no final answer to (")
          .append(esc(String.join(", ", c.leftOut().byRun().entrySet().stream()
              .map(e -> e.getKey() + " " + e.getValue().size()).toList()))).append(").</p>\n");
    }
    if (c.runs().stream().anyMatch(r -> r.requests() != null)) {
      html.append("<table>\n<tr>");
      for (String h : RunCells.HEADER) {
        html.append("<th>").append(esc(h)).append("</th>");
      }
      html.append("</tr>\n");
      for (RunInfo r : c.runs()) {
        html.append("<tr>");
        for (String cell : RunCells.of(r)) {
          html.append("<td>").append(esc(cell)).append("</td>");
        }
        html.append("</tr>\n");
      }
      html.append("</table>\n");
    }
    if (!c.differingSettings().isEmpty()) {
      html.append("<p>Settings that differ:</p>\n<ul>\n");
      c.differingSettings().forEach((setting, values) -> html.append("<li><code>").append(esc(setting)).append("</code>: ")
          .append(esc(String.join(", ", values.entrySet().stream().map(e -> e.getKey() + " " + RunCells.value(e.getValue()))
              .toList()))).append("</li>\n"));
      html.append("</ul>\n");
    }
  }

  /** Rows of measures, a column per run; {@code counts} gives a row's question count by its level. */
  private void table(String id, String title, List<Measure> measures, Map<String, Map<String, Interval>> byRun,
      Map<String, Integer> counts) {
    html.append("<h2 id=\"").append(id).append("\">").append(esc(title)).append("</h2>\n<table>\n<tr><th>measure</th>");
    byRun.keySet().forEach(run -> html.append("<th>").append(esc(run)).append("</th>"));
    html.append("</tr>\n");
    for (Measure m : measures) {
      String label = m.label();
      if (counts != null) {
        label += " (" + counts.get(m.key().substring(3)) + ")";
      }
      html.append("<tr><td>").append(esc(label)).append("</td>");
      byRun.values().forEach(intervals -> html.append("<td class=\"n\">").append(esc(Cells.interval(m, intervals.get(m.key()))))
          .append("</td>"));
      html.append("</tr>\n");
    }
    html.append("</table>\n");
  }

  private void charts() {
    html.append("<h2 id=\"charts\">Charts</h2>\n<p class=\"sub\">Bars: the estimate; whiskers: the 95 % percentile")
        .append(" bootstrap interval.</p>\n<div class=\"charts\">\n");
    List<String> names = List.copyOf(c.metrics().keySet());
    for (String key : CHARTED) {
      Measure m = Measure.byKey(key);
      List<Interval> intervals = names.stream().map(n -> c.metrics().get(n).get(key)).toList();
      if (intervals.stream().allMatch(i -> i.estimate() == null)) {
        continue;
      }
      Charts.Image image = Charts.withIntervals(m.label(), "run", m.percent() ? "%" : "score", names,
          intervals.stream().map(Interval::estimate).toList(), intervals.stream().map(Interval::low).toList(),
          intervals.stream().map(Interval::high).toList(), m.percent() ? 100 : 1, m.percent() ? 0.0 : null,
          m.percent() ? 100.0 : null);
      html.append("<img src=\"").append(image.dataUri()).append("\" width=\"").append(image.width()).append("\" height=\"")
          .append(image.height()).append("\" alt=\"").append(esc(image.alt())).append("\">\n");
    }
    html.append("</div>\n");
  }

  private void tests() {
    html.append("<h2 id=\"tests\">Paired tests</h2>\n<p class=\"sub\">McNemar: questions where only a / only b")
        .append(" succeeds, and the exact two-sided p-value. Differences a − b in percentage points with their 95 %")
        .append(" paired bootstrap interval and p-value. Holm: the p-value adjusted by Holm's method over all pairs,")
        .append(" test by test; read this one when several pairs are compared.</p>\n<table>\n<tr><th>a</th><th>b</th>")
        .append("<th>execution match<br>McNemar</th><th>decision<br>McNemar</th><th>compliant<br>a − b</th><th>p</th>")
        .append("<th>Holm</th><th>REFUSE F1<br>a − b</th><th>p</th><th>Holm</th><th>outcomes<br>differ</th></tr>\n");
    for (Pair p : c.pairs()) {
      html.append("<tr><td>").append(esc(p.a())).append("</td><td>").append(esc(p.b())).append("</td>")
          .append(cell(Cells.mcnemar(p.execution(), p.holm().execution())))
          .append(cell(Cells.mcnemar(p.decision(), p.holm().decision())))
          .append(cell(Cells.difference(p.compliance()))).append(cell(Cells.p(p.compliance().p())))
          .append(cell(Cells.p(p.holm().compliance())))
          .append(cell(Cells.difference(p.refuseF1()))).append(cell(Cells.p(p.refuseF1().p())))
          .append(cell(Cells.p(p.holm().refuseF1())))
          .append("<td class=\"n\"><a href=\"#").append(anchor(p)).append("\">").append(p.differing().size())
          .append("</a></td></tr>\n");
    }
    html.append("</table>\n");
  }

  private void databases() {
    html.append("<h2 id=\"databases\">By database</h2>\n<p class=\"sub\">Each database's questions resampled on their")
        .append(" own (same seed). A dash: no value (no execution without the database's SQLite file, no gold SQL).</p>\n");
    for (Measure m : Measure.BY_DATABASE) {
      html.append("<h3>").append(esc(m.label())).append("</h3>\n<table>\n<tr><th>database</th><th>questions</th>");
      c.metrics().keySet().forEach(run -> html.append("<th>").append(esc(run)).append("</th>"));
      html.append("</tr>\n");
      for (Database d : c.databases()) {
        html.append("<tr><td>").append(esc(d.dbId())).append("</td><td class=\"n\">").append(d.questions()).append("</td>");
        d.runs().values().forEach(intervals -> html.append(cell(Cells.interval(m, intervals.get(m.key())))));
        html.append("</tr>\n");
      }
      html.append("</table>\n");
    }
  }

  private void differing() {
    html.append("<h2 id=\"differing\">Questions whose outcomes differ</h2>\n");
    for (Pair p : c.pairs()) {
      html.append("<details id=\"").append(anchor(p)).append("\"><summary>").append(esc(p.a())).append(" and ")
          .append(esc(p.b())).append(": ").append(p.differing().size()).append(" questions</summary>\n<table>\n")
          .append("<tr><th>id</th><th>question</th><th>").append(esc(p.a())).append("</th><th>outcome</th><th>")
          .append(esc(p.b())).append("</th><th>outcome</th></tr>\n");
      for (Differing d : p.differing()) {
        html.append("<tr><td>").append(esc(d.id())).append("<br><span class=\"sub\">").append(esc(d.dbId()))
            .append("</span></td><td class=\"q\">").append(esc(d.question())).append("</td>");
        answer(d.a());
        answer(d.b());
        html.append("</tr>\n");
      }
      html.append("</table>\n</details>\n");
    }
  }

  private void answer(Answer a) {
    html.append("<td class=\"sql\">").append(esc(a.answer())).append("</td><td>").append(esc(a.outcome()))
        .append(a.execution() == null ? "" : "<br><span class=\"sub\">" + esc(a.execution()) + "</span>").append("</td>");
  }

  private static String anchor(Pair p) {
    return "differ-" + (p.a() + "-" + p.b()).toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-");
  }

  private static String cell(String text) {
    return "<td class=\"n\">" + esc(text) + "</td>";
  }
}

package rolepolicy.report;

import static rolepolicy.html.Html.esc;

import rolepolicy.html.Html;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import rolepolicy.report.QaFigures.Check;
import rolepolicy.report.QaFigures.ColumnCount;
import rolepolicy.report.QaFigures.DatabaseFigures;
import rolepolicy.report.QaFigures.Driver;
import rolepolicy.report.QaFigures.Failure;
import rolepolicy.report.QaFigures.NegativeFigures;
import rolepolicy.report.QaFigures.PolicyFigures;
import rolepolicy.report.QaFigures.RefusalFigures;
import rolepolicy.report.QaFigures.RewriteFigures;
import rolepolicy.report.QaFigures.SplitFigures;
import rolepolicy.report.QaFigures.StructureFigures;

/**
 * The QA report as one self-contained HTML page: styles inline, charts as PNG data URIs, no
 * script and nothing fetched, so it reads the same offline. No date or time is written: the same
 * figures give the same bytes.
 */
public final class HtmlReport {
  private final StringBuilder html = new StringBuilder(1 << 20);

  private HtmlReport() {}

  public static String render(QaFigures figures) {
    HtmlReport r = new HtmlReport();
    r.page(figures);
    return r.html.toString();
  }

  private void page(QaFigures f) {
    html.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
        .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
        .append("<title>QA report: role-sensitive column policy dataset</title>\n<style>\n")
        .append(Html.STYLE)
        .append("</style>\n</head>\n<body>\n<main>\n");
    html.append("<h1>QA report: role-sensitive column policy dataset</h1>\n<p class=\"sub\">Splits ");
    html.append(String.join(", ", f.splits().stream().map(s -> esc(s.split()) + " (" + Html.number(s.questions()) + " questions)").toList()));
    html.append("; policies of ")
        .append(Html.number(f.policies().databases()))
        .append(" databases. Figures of SPEC §10; every number is also in <code>qa.json</code>.</p>\n");
    html.append("<p class=\"nav\"><a href=\"#glance\">At a glance</a><a href=\"#findings\">Out of range</a><a href=\"#policies\">Policies</a>");
    for (SplitFigures s : f.splits()) {
      html.append("<a href=\"#split-").append(esc(s.split())).append("\">").append(esc(s.split())).append("</a>");
    }
    html.append("</p>\n");
    glance(f);
    findings(f.outOfRange());
    policies(f.policies());
    for (SplitFigures s : f.splits()) {
      split(s);
    }
    html.append("</main>\n</body>\n</html>\n");
  }

  // ---- at a glance --------------------------------------------------------------------------

  private void glance(QaFigures f) {
    html.append("<h2 id=\"glance\">At a glance</h2>\n");
    html.append("<table>\n<tr><th>split</th><th>questions</th><th>Q1 original SQL violates<br>(expected 10–30 %)</th>")
        .append("<th>Q2 REFUSE<br>(expected 5–15 %)</th><th>Q3 REFUSE rate over databases<br>mean ± sd, outliers</th>")
        .append("<th>Q4 negatives<br>one edit</th><th>Q5 violations<br>(occurrences)</th></tr>\n");
    for (SplitFigures s : f.splits()) {
      html.append("<tr><td><a href=\"#split-").append(esc(s.split())).append("\">").append(esc(s.split())).append("</a></td>")
          .append(num(s.questions()))
          .append("<td>").append(shareWithBadge(s.q1())).append("</td>")
          .append("<td>").append(shareWithBadge(s.q2())).append("</td>")
          .append("<td>").append(Html.pct(s.q3().meanPercent())).append(" ± ").append(Html.pct(s.q3().sdPercent()))
          .append(", ").append(s.q3().outliers().size()).append(" outlier").append(s.q3().outliers().size() == 1 ? "" : "s").append("</td>")
          .append("<td>").append(Html.number(s.q4().oneEdit().count())).append(" of ").append(Html.number(s.q4().oneEdit().total()))
          .append(' ').append(badge(s.q4().oneEdit().inRange())).append("</td>")
          .append(num(s.q5().occurrences()))
          .append("</tr>\n");
    }
    html.append("</table>\n<div class=\"charts\">\n");
    image(QaCharts.shareBySplit("Q1: original SQL violates", f.splits(), true));
    image(QaCharts.shareBySplit("Q2: REFUSE gold labels", f.splits(), false));
    html.append("</div>\n<p class=\"sub\">Dashed lines: the expected range (SPEC §10). Green: inside it; red: outside.</p>\n");
  }

  private static String shareWithBadge(Check c) {
    return "<b>" + Html.pct(c.value()) + "</b> (" + Html.number(c.count()) + ") " + badge(c.inRange());
  }

  /** "matches" / "differs" for an exact expected value, else "in range" / "out of range". */
  private static String badge(Check c) {
    if (c.low() == c.high() && c.total() == 0) {
      return c.inRange() ? "<span class=\"badge in\">matches</span>" : "<span class=\"badge out\">differs</span>";
    }
    return badge(c.inRange());
  }

  private static String badge(boolean in) {
    return in ? "<span class=\"badge in\">in range</span>" : "<span class=\"badge out\">out of range</span>";
  }

  // ---- findings -----------------------------------------------------------------------------

  private void findings(List<Check> out) {
    html.append("<h2 id=\"findings\">Figures outside their expected range</h2>\n");
    if (out.isEmpty()) {
      html.append("<div class=\"ok\">Every figure with an expected value or range is inside it.</div>\n");
      return;
    }
    html.append("<p class=\"sub\">Reported and explained from the data, never tuned (SPEC §10).</p>\n");
    if (out.stream().anyMatch(c -> c.drivers() != null && c.drivers().stream().anyMatch(d -> d.label().equals(SplitQa.R1_CAUSE)))) {
      html.append("<p>").append(esc(SplitQa.R1_CAUSE_MEANING)).append("</p>\n");
    }
    for (Check c : out) {
      html.append("<div class=\"finding\"><div class=\"head\">").append(esc(c.id())).append(": ").append(esc(c.label()))
          .append(" = ").append(value(c)).append(", expected ").append(esc(c.expected())).append(' ').append(badge(c))
          .append("</div>\n");
      if (c.explanation() != null) {
        html.append("<p>").append(esc(c.explanation())).append("</p>\n");
      }
      if (c.drivers() != null && !c.drivers().isEmpty()) {
        drivers(c);
      }
      html.append("</div>\n");
    }
  }

  private void drivers(Check c) {
    int max = c.drivers().stream().mapToInt(Driver::count).max().orElse(1);
    html.append("<table>\n<tr><th>group of the ").append(Html.number(c.count()))
        .append(" counted</th><th>questions</th><th>share</th><th>figure without them</th><th>rules</th></tr>\n");
    for (Driver d : c.drivers()) {
      html.append("<tr><td>").append(esc(d.label())).append("</td>")
          .append(shaded(d.count(), max, Html.number(d.count())))
          .append(num(Html.pct(d.shareOfCount())))
          .append("<td class=\"n\">").append(Html.pct(d.figureWithout()))
          .append(d.figureWithout() >= c.low() && d.figureWithout() <= c.high() ? " " + badge(true) : "").append("</td>")
          .append("<td>").append(esc(String.join("; ", d.rules()))).append("</td></tr>\n");
    }
    html.append("</table>\n");
  }

  // ---- policies -----------------------------------------------------------------------------

  private void policies(PolicyFigures p) {
    html.append("<h2 id=\"policies\">Policy distribution over the schema files</h2>\n");
    html.append("<p>From <code>").append(esc(p.source())).append("</code>: ").append(Html.number(p.databases()))
        .append(" databases, ").append(Html.number(p.tables())).append(" tables, ").append(Html.number(p.columns()))
        .append(" columns. ")
        .append(p.notCompared() == null ? "SPEC §3 quotes its figures for the 4,503 columns of Spider's <code>tables.json</code>." : esc(p.notCompared()))
        .append("</p>\n");
    html.append("<div class=\"row\">\n");
    image(QaCharts.policyDistribution(p));
    html.append("<div>\n<table>\n<tr><th>figure</th>").append(p.notCompared() == null ? "<th>SPEC §3</th>" : "").append("<th>automatic</th>")
        .append(p.notCompared() == null ? "<th></th>" : "").append("<th>final (after overrides)</th></tr>\n");
    Map<String, Check> byId = new java.util.HashMap<>();
    p.checks().forEach(c -> byId.put(c.id(), c));
    Check columns = byId.get("policy.columns");
    html.append("<tr><td>columns</td>").append(expected(columns)).append(num(Html.number(p.columns())))
        .append(badgeCell(columns)).append(num(Html.number(p.columns()))).append("</tr>\n");
    for (String policy : PolicyQa.POLICIES) {
      policyRow(byId.get("policy.auto." + policy.toLowerCase(Locale.ROOT)), policy, Counts.percent(p.auto().columns().get(policy), p.columns()),
          p.auto().columns().get(policy), p.finalPolicies().percent().get(policy), p.finalPolicies().columns().get(policy));
    }
    policyRow(byId.get("policy.auto.tables_hidden"), "tables with a Hidden column", Counts.percent(p.auto().tablesWithHidden(), p.tables()),
        p.auto().tablesWithHidden(), Counts.percent(p.finalPolicies().tablesWithHidden(), p.tables()), p.finalPolicies().tablesWithHidden());
    policyRow(byId.get("policy.auto.tables_aggonly"), "tables with an AggOnly column", Counts.percent(p.auto().tablesWithAggOnly(), p.tables()),
        p.auto().tablesWithAggOnly(), Counts.percent(p.finalPolicies().tablesWithAggOnly(), p.tables()), p.finalPolicies().tablesWithAggOnly());
    policyRow(byId.get("policy.auto.databases_either"), "databases with a Hidden or AggOnly column",
        Counts.percent(p.auto().databasesWithHiddenOrAggOnly(), p.databases()), p.auto().databasesWithHiddenOrAggOnly(),
        Counts.percent(p.finalPolicies().databasesWithHiddenOrAggOnly(), p.databases()), p.finalPolicies().databasesWithHiddenOrAggOnly());
    html.append("</table>\n");
    if (p.overrides().isEmpty()) {
      html.append("<p>No override changes a policy: final = automatic.</p>\n");
    } else {
      html.append("<p>Overrides that change a policy:</p>\n");
      countTable("change", "columns", p.overrides());
    }
    html.append("</div>\n</div>\n<details><summary>Columns per naming rule (automatic policy)</summary>\n");
    countTable("rule of rules/policy.drl", "columns", p.autoByRule());
    html.append("</details>\n");
  }

  /** A row of the policy table; {@code c} is null when the distribution is not compared with SPEC §3. */
  private void policyRow(Check c, String label, double autoPercent, int autoCount, double finalPercent, int finalCount) {
    html.append("<tr><td>").append(esc(label)).append("</td>").append(expected(c))
        .append(num(Html.pct(autoPercent) + " (" + Html.number(autoCount) + ")"))
        .append(badgeCell(c))
        .append(num(Html.pct(finalPercent) + " (" + Html.number(finalCount) + ")")).append("</tr>\n");
  }

  /** The SPEC §3 cell; none when the distribution is not compared. */
  private static String expected(Check c) {
    return c == null ? "" : num(c.expected());
  }

  private static String badgeCell(Check c) {
    return c == null ? "" : "<td>" + badge(c) + "</td>";
  }

  // ---- one split ----------------------------------------------------------------------------

  private void split(SplitFigures s) {
    String name = esc(s.split());
    html.append("<h2 id=\"split-").append(name).append("\">Split ").append(name).append("</h2>\n");
    html.append("<p class=\"sub\">").append(esc(s.file())).append(": ").append(Html.number(s.questions()))
        .append(" questions in ").append(s.databases().size()).append(" databases.</p>\n");

    html.append("<h3>Q1, Q2: violating originals and REFUSE labels</h3>\n<div class=\"cards\">\n");
    card(s.q1(), "Q1: original SQL violates");
    card(s.q2(), "Q2: gold label is REFUSE");
    html.append("<div class=\"card info\"><div class=\"what\">violations (occurrences)</div><div class=\"big\">")
        .append(Html.number(s.q5().occurrences())).append("</div><div class=\"what\">in ")
        .append(Html.number(s.q5().questions())).append(" questions</div></div>\n");
    html.append("<div class=\"card info\"><div class=\"what\">answered after a rewrite</div><div class=\"big\">")
        .append(Html.number(s.rewrites().answered().values().stream().mapToInt(Integer::intValue).sum()))
        .append("</div><div class=\"what\">of ").append(Html.number(s.rewrites().questions())).append(" rewritten</div></div>\n");
    html.append("</div>\n");
    for (Check c : List.of(s.q1(), s.q2())) {
      if (!c.inRange() && c.explanation() != null) {
        html.append("<p><b>Why ").append(c.id().substring(c.id().indexOf('.') + 1).toUpperCase(Locale.ROOT)).append(" is out of range:</b> ")
            .append(esc(c.explanation())).append(" (<a href=\"#findings\">groups</a>)</p>\n");
      }
    }

    html.append("<h3>Q3: REFUSE rate per database</h3>\n");
    html.append("<p>Mean over databases <b>").append(Html.pct(s.q3().meanPercent())).append("</b>, standard deviation <b>")
        .append(Html.pct(s.q3().sdPercent())).append("</b>, from ").append(Html.pct(s.q3().minPercent())).append(" to ")
        .append(Html.pct(s.q3().maxPercent())).append(" over ").append(s.q3().databases())
        .append(" databases (each database counts once; population standard deviation). The histogram counts the databases per 5-point band"
            + " of REFUSE rate; red: outliers, more than 2 sd from the mean.</p>\n<div class=\"charts\">\n");
    if (!s.databases().isEmpty()) {
      image(QaCharts.refuseByDatabase(s.split(), s.databases(), s.q3()));
    }
    html.append("</div>\n");
    if (s.q3().outliers().isEmpty()) {
      html.append("<p>No database is more than 2 standard deviations from the mean.</p>\n");
    } else {
      html.append("<p>Outliers (").append(esc(s.q3().outlierRule())).append("):</p>\n");
      databaseTable(s.split(), s.q3().outliers());
    }

    negatives(s.split(), s.q4());

    html.append("<h3>Q5: violations by role × policy, and by rule</h3>\n<div class=\"row\">\n");
    image(QaCharts.rolePolicyHeatMap(s.split(), s.q5().byRolePolicy()));
    html.append("<div>\n");
    rolePolicyTable(s.q5().byRolePolicy());
    countTable("permission rule", "violations", s.q5().byRule(), s.split(), "rule");
    html.append("</div>\n</div>\n");

    refusals(s.split(), s.refusals(), s.rewrites());
    coverage(s.split(), s.coverage());
    topColumns(s.topColumns());
    structure(s.structure());

    html.append("<details><summary>All ").append(s.databases().size()).append(" databases of ").append(name).append("</summary>\n");
    databaseTable(s.split(), s.databases());
    html.append("</details>\n");
  }

  private void card(Check c, String what) {
    html.append("<div class=\"card ").append(c.inRange() ? "in" : "out").append("\"><div class=\"what\">").append(esc(what))
        .append("</div><div class=\"big\">").append(Html.pct(c.value())).append("</div><div class=\"what\">")
        .append(Html.number(c.count())).append(" of ").append(Html.number(c.total())).append(" · expected ")
        .append(esc(c.expected())).append(' ').append(badge(c.inRange())).append("</div></div>\n");
  }

  private void negatives(String split, NegativeFigures q4) {
    html.append("<h3>Q4: negative examples</h3>\n<div class=\"row\">\n");
    image(QaCharts.negatives(split, q4));
    html.append("<div>\n<table>\n<tr><th>rule</th><th>questions</th></tr>\n");
    int max = q4.questions();
    q4.byRule().forEach((rule, n) -> html.append("<tr><td>").append(esc(rule)).append("</td>").append(shaded(n, max, Html.number(n))).append("</tr>\n"));
    html.append("<tr><th>no negative</th><th class=\"n\">").append(Html.number(q4.without())).append("</th></tr>\n");
    q4.withoutByCause().forEach((cause, n) -> html.append("<tr><td>&nbsp;&nbsp;").append(esc(cause)).append("</td>").append(shaded(n, max, Html.number(n))).append("</tr>\n"));
    html.append("</table>\n<p>One-edit check: <b>").append(Html.number(q4.oneEdit().count())).append(" of ")
        .append(Html.number(q4.oneEdit().total())).append("</b> negatives are the original SQL with one edit")
        .append(" (N1/N3: one contiguous insertion of one SELECT item; N2: one aggregate unwrapped) and list the violation")
        .append(" that edit introduced. ").append(badge(q4.oneEdit().inRange())).append("</p>\n");
    if (!q4.oneEditFailures().isEmpty()) {
      html.append("<table>\n<tr><th>id</th><th>rule</th><th>why</th></tr>\n");
      for (Failure fail : q4.oneEditFailures().subList(0, Math.min(20, q4.oneEditFailures().size()))) {
        html.append("<tr><td>").append(esc(fail.id())).append("</td><td>").append(esc(fail.rule())).append("</td><td>")
            .append(esc(fail.why())).append("</td></tr>\n");
      }
      html.append("</table>\n");
    }
    html.append("</div>\n</div>\n");
  }

  private void rolePolicyTable(Map<String, Map<String, Integer>> grid) {
    List<String> policies = new ArrayList<>(grid.values().iterator().next().keySet());
    int max = grid.values().stream().flatMap(r -> r.values().stream()).mapToInt(Integer::intValue).max().orElse(1);
    html.append("<table>\n<tr><th>role \\ policy</th>");
    policies.forEach(p -> html.append("<th>").append(esc(p)).append("</th>"));
    html.append("<th>total</th></tr>\n");
    grid.forEach(
        (role, row) -> {
          html.append("<tr><th>").append(esc(role)).append("</th>");
          policies.forEach(p -> html.append(shaded(row.getOrDefault(p, 0), max, Html.number(row.getOrDefault(p, 0)))));
          html.append(num(row.values().stream().mapToInt(Integer::intValue).sum())).append("</tr>\n");
        });
    html.append("</table>\n");
  }

  private void refusals(String split, RefusalFigures refusals, RewriteFigures rewrites) {
    html.append("<h3>REFUSE by reason and by deciding rule; rewrites by rule</h3>\n<div class=\"row\">\n");
    image(QaCharts.refusalsByReason(split, refusals.byReason()));
    html.append("<div>\n");
    countTable("rule that decided the REFUSE", "questions", refusals.byRule(), split, "rule");
    html.append("<table>\n<tr><th>rewrite steps</th><th>count</th></tr>\n");
    rewrites.stepsByRule().forEach((rule, n) -> html.append("<tr><td>").append(esc(rule)).append(" steps</td>").append(num(n)).append("</tr>\n"));
    html.append("<tr><td>questions with a step</td>").append(num(rewrites.questions())).append("</tr>\n");
    rewrites.answered().forEach((seq, n) -> html.append("<tr><td>answered after ").append(esc(seq)).append("</td>").append(num(n)).append("</tr>\n"));
    rewrites.refused().forEach((seq, n) -> html.append("<tr><td>refused after ").append(esc(seq)).append("</td>").append(num(n)).append("</tr>\n"));
    html.append("</table>\n</div>\n</div>\n");
  }

  private void coverage(String split, RuleCoverage.Coverage coverage) {
    html.append("<h3 id=\"coverage-").append(esc(split)).append("\">Rule coverage</h3>\n");
    if (coverage == null) {
      html.append("<p>No audit trail (<code>audit/").append(esc(split)).append(".jsonl</code>, written by generate) in this folder.</p>\n");
      return;
    }
    html.append("<p>Each rule that fires per question with the questions it fired on, of ").append(Html.number(coverage.questions()))
        .append("; each naming or override rule with the columns of the split's databases whose policy it set.")
        .append(" Rows link to the <a href=\"").append(AuditPage.FILE).append("\">audit page</a>.</p>\n");
    html.append("<table>\n<tr><th>file</th><th>rule</th><th>fired on</th></tr>\n");
    int max = coverage.fired().stream().filter(r -> r.unit().equals("questions")).mapToInt(RuleCoverage.RuleCount::count).max().orElse(1);
    for (RuleCoverage.RuleCount r : coverage.fired()) {
      boolean questions = r.unit().equals("questions");
      html.append("<tr><td>").append(esc(r.file())).append("</td><td>")
          .append(questions ? AuditPage.link(split, "rule", r.rule(), esc(r.rule())) : esc(r.rule())).append("</td>")
          .append(shaded(questions ? r.count() : 0, max, Html.number(r.count()) + " " + r.unit())).append("</tr>\n");
    }
    html.append("</table>\n");
    if (coverage.neverFired() != null) {
      html.append("<p><b>").append(coverage.neverFired().size()).append(" rules never fired</b> on this split")
          .append(coverage.neverFired().isEmpty() ? "." : " (why, rule by rule: docs/rules.md):").append("</p>\n<ul>\n");
      coverage.neverFired().forEach(r -> html.append("<li>").append(esc(r.file())).append(": ").append(esc(r.rule())).append("</li>\n"));
      html.append("</ul>\n");
    }
  }

  private void topColumns(List<ColumnCount> columns) {
    html.append("<h3>Columns that cause the most violations</h3>\n");
    if (columns.isEmpty()) {
      html.append("<p>No violations.</p>\n");
      return;
    }
    int max = columns.get(0).occurrences();
    html.append("<table>\n<tr><th>database</th><th>column</th><th>policy</th><th>violations</th><th>questions</th><th>by role</th></tr>\n");
    for (ColumnCount c : columns) {
      html.append("<tr><td>").append(esc(c.dbId())).append("</td><td><code>").append(esc(c.column())).append("</code></td><td>")
          .append(esc(c.policy())).append("</td>").append(shaded(c.occurrences(), max, Html.number(c.occurrences())))
          .append(num(c.questions())).append("<td>")
          .append(esc(String.join(", ", c.byRole().entrySet().stream().map(e -> e.getKey() + " " + e.getValue()).toList())))
          .append("</td></tr>\n");
    }
    html.append("</table>\n");
  }

  private void structure(StructureFigures s) {
    html.append("<h3>Structure of the split (from the Spider ASTs)</h3>\n");
    if (s.questions() == null) {
      html.append("<p>").append(esc(s.note())).append("</p>\n");
      return;
    }
    html.append("<p class=\"sub\">Counted on <code>").append(esc(s.source())).append("</code>; a question counts once per feature.</p>\n");
    if (s.note() != null) {
      html.append("<p><b>Note:</b> ").append(esc(s.note())).append("</p>\n");
    }
    Map<String, Check> checks = new java.util.HashMap<>();
    if (s.checks() != null) {
      s.checks().forEach(c -> checks.put(c.id().substring(c.id().lastIndexOf('.') + 1), c));
    }
    html.append("<table>\n<tr><th>feature</th><th>questions</th><th>share</th>")
        .append(checks.isEmpty() ? "" : "<th>SPEC (Spider dev)</th>").append("<th>definition</th></tr>\n");
    structureRow("questions", "questions", s.questions(), s.questions(), checks, "records of the Spider file");
    structureRow("join", "JOIN", s.join(), s.questions(), checks, "some query, at any depth, has more than one table in FROM");
    structureRow("nested", "nested query", s.nested(), s.questions(), checks,
        "a FROM subquery, a subquery operand of a condition (from.conds, where, having), or an INTERSECT/UNION/EXCEPT part");
    structureRow("group_by", "GROUP BY", s.groupBy(), s.questions(), checks, "some query, at any depth, has GROUP BY");
    structureRow("set_operation", "INTERSECT / UNION / EXCEPT", s.setOperation(), s.questions(), checks, "some query, at any depth, has a set operation");
    structureRow("select_star", "SELECT *", s.selectStar(), s.questions(), checks, "a SELECT item, at any depth, is * with no aggregate");
    if (s.unreadable() != null && s.unreadable() > 0) {
      structureRow("unreadable", "AST not readable", s.unreadable(), s.questions(), checks, "not counted above");
    }
    html.append("</table>\n");
  }

  private void structureRow(String key, String label, int n, int total, Map<String, Check> checks, String definition) {
    html.append("<tr><td>").append(esc(label)).append("</td>").append(num(n)).append(num(Html.pct(Counts.percent(n, total))));
    if (!checks.isEmpty()) {
      Check c = checks.get(key);
      html.append("<td class=\"n\">").append(c == null ? "" : esc(c.expected()) + " " + badge(c)).append("</td>");
    }
    html.append("<td>").append(esc(definition)).append("</td></tr>\n");
  }

  private void databaseTable(String split, List<DatabaseFigures> databases) {
    html.append("<table>\n<tr><th>database</th><th>questions</th><th>original violates</th><th>REFUSE</th><th>REFUSE rate</th>")
        .append("<th>z</th><th>most frequent reason</th></tr>\n");
    for (DatabaseFigures d : databases) {
      html.append("<tr><td>").append(AuditPage.link(split, "db", d.dbId(), esc(d.dbId()))).append("</td>").append(num(d.questions())).append(num(d.violating()))
          .append(num(d.refused())).append(shaded((int) Math.round(d.refusePercent() * 10), 1000, Html.pct(d.refusePercent())))
          .append(num(String.format(Locale.ROOT, "%+.2f", d.zScore())))
          .append("<td>").append(d.topReason() == null ? "" : esc(d.topReason())).append("</td></tr>\n");
    }
    html.append("</table>\n");
  }

  // ---- small parts --------------------------------------------------------------------------

  private void countTable(String keyTitle, String countTitle, Map<String, Integer> counts) {
    countTable(keyTitle, countTitle, counts, null, null);
  }

  /** With a split and a filter key, each row links to the audit page's records of that row. */
  private void countTable(String keyTitle, String countTitle, Map<String, Integer> counts, String split, String filter) {
    int max = counts.values().stream().mapToInt(Integer::intValue).max().orElse(1);
    html.append("<table>\n<tr><th>").append(esc(keyTitle)).append("</th><th>").append(esc(countTitle)).append("</th></tr>\n");
    counts.forEach((k, n) -> html.append("<tr><td>").append(filter == null ? esc(k) : AuditPage.link(split, filter, k, esc(k)))
        .append("</td>").append(shaded(n, max, Html.number(n))).append("</tr>\n"));
    html.append("</table>\n");
  }

  private void image(rolepolicy.html.Charts.Image image) {
    html.append("<img src=\"").append(image.dataUri()).append("\" width=\"").append(image.width()).append("\" height=\"")
        .append(image.height()).append("\" alt=\"").append(esc(image.alt())).append("\">\n");
  }

  private static String value(Check c) {
    return c.total() > 0 ? Html.pct(c.value()) + " (" + Html.number(c.count()) + " of " + Html.number(c.total()) + ")" : Html.number(c.count());
  }

  /** A number cell shaded in proportion to {@code n / max}. */
  private static String shaded(int n, int max, String text) {
    double alpha = max <= 0 || n <= 0 ? 0 : 0.08 + 0.55 * n / max;
    return String.format(Locale.ROOT, "<td class=\"n\" style=\"background:rgba(230,81,0,%.2f)\">%s</td>", alpha, esc(text));
  }

  private static String num(long n) {
    return "<td class=\"n\">" + Html.number(n) + "</td>";
  }

  private static String num(String text) {
    return "<td class=\"n\">" + esc(text) + "</td>";
  }
}

package rolepolicy.diff;

import static rolepolicy.html.Html.esc;

import rolepolicy.html.Html;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import rolepolicy.diff.DiffResult.ColumnChange;
import rolepolicy.diff.DiffResult.FigureChange;
import rolepolicy.diff.DiffResult.RecordChange;
import rolepolicy.diff.DiffResult.RuleChange;
import rolepolicy.diff.DiffResult.RuleGroup;
import rolepolicy.diff.DiffResult.SplitDiff;
import rolepolicy.io.AtomicOutput;
import rolepolicy.report.QaReport;

/** A diff as a terminal summary, {@code diff.json} and {@code diff.html} (self-contained). */
public final class DiffReport {
  public static final String JSON_FILE = "diff.json";
  public static final String HTML_FILE = "diff.html";

  /** Records listed per rule in the terminal summary. */
  private static final int SHOWN_IDS = 5;

  private DiffReport() {}

  /** Writes {@code outDir/diff.json} and {@code outDir/diff.html}, both or neither. */
  public static void write(DiffResult diff, Path outDir) {
    String json = QaReport.json(diff);
    String html = html(diff);
    try (AtomicOutput output = new AtomicOutput()) {
      Files.writeString(output.stage(outDir.resolve(JSON_FILE)), json, StandardCharsets.UTF_8);
      Files.writeString(output.stage(outDir.resolve(HTML_FILE)), html, StandardCharsets.UTF_8);
      output.commit();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The terminal summary. */
  public static String summary(DiffResult diff) {
    StringBuilder out = new StringBuilder();
    out.append(String.format(Locale.ROOT, "diff %s -> %s%n", diff.oldDir(), diff.newDir()));
    for (SplitDiff s : diff.splits()) {
      out.append(String.format(Locale.ROOT, "%s: %s of %s records changed, %s decided differently (%s)%n",
          s.split(), Html.number(s.changed()), Html.number(s.questions()), Html.number(s.decidedDifferently()),
          s.changedByField().entrySet().stream()
              .map(e -> e.getKey() + " " + e.getValue()).collect(Collectors.joining(", "))));
      for (FigureChange f : s.figures()) {
        out.append(String.format(Locale.ROOT, "  %s %-46s %s -> %s%n", f.figure(), f.label(), figure(f, true), figure(f, false)));
      }
      if (!s.groups().isEmpty()) {
        out.append("  changed records by rule (started / stopped firing on, column policy set by it):\n");
        for (RuleGroup g : s.groups()) {
          out.append(String.format(Locale.ROOT, "    %4d / %4d / %4d  %s: %s%n",
              g.started().size(), g.stopped().size(), g.columnPolicy().size(), g.rule(), ids(g)));
        }
      }
      if (!s.rules().isEmpty()) {
        out.append("  rules whose firing changed (questions it fires on, before -> after):\n");
        for (RuleChange r : s.rules()) {
          out.append(String.format(Locale.ROOT, "    %5d -> %5d  (started on %d, stopped on %d)  %s%n",
              r.questionsBefore(), r.questionsAfter(), r.startedOn(), r.stoppedOn(), r.rule()));
        }
      } else if (!s.audited()) {
        out.append("  no audit trail (audit/" + s.split() + ".jsonl) in both folders: rule firings not compared\n");
      }
      if (s.neverFiredAfter() != null) {
        out.append(String.format(Locale.ROOT, "  rules that never fire: %d before, %d after%s%n",
            s.neverFiredBefore() == null ? 0 : s.neverFiredBefore().size(), s.neverFiredAfter().size(),
            neverFiredChange(s)));
      }
    }
    out.append(String.format(Locale.ROOT, "columns whose policy or rule changed: %d%n", diff.columns().size()));
    diff.columns().stream().limit(10).forEach(c -> out.append("  ").append(column(c)).append('\n'));
    if (diff.columns().size() > 10) {
      out.append(String.format(Locale.ROOT, "  ... and %d more in %s%n", diff.columns().size() - 10, JSON_FILE));
    }
    return out.toString();
  }

  private static String neverFiredChange(SplitDiff s) {
    if (s.neverFiredBefore() == null) {
      return "";
    }
    List<String> now = s.neverFiredAfter().stream().filter(r -> !s.neverFiredBefore().contains(r)).toList();
    List<String> again = s.neverFiredBefore().stream().filter(r -> !s.neverFiredAfter().contains(r)).toList();
    StringBuilder text = new StringBuilder();
    if (!now.isEmpty()) {
      text.append("; no longer fire: ").append(String.join("; ", now));
    }
    if (!again.isEmpty()) {
      text.append("; fire now: ").append(String.join("; ", again));
    }
    return text.toString();
  }

  private static String ids(RuleGroup g) {
    List<String> all = new java.util.ArrayList<>(g.started());
    all.addAll(g.stopped());
    all.addAll(g.columnPolicy());
    List<String> shown = all.stream().distinct().sorted().toList();
    String text = String.join(" ", shown.stream().limit(SHOWN_IDS).toList());
    return shown.size() > SHOWN_IDS ? text + " ... (" + shown.size() + ")" : text;
  }

  private static String figure(FigureChange f, boolean before) {
    int count = before ? f.countBefore() : f.countAfter();
    double value = before ? f.valueBefore() : f.valueAfter();
    return switch (f.figure()) {
      case "Q3" -> Html.pct(value);
      case "Q5" -> Html.number(count);
      default -> Html.pct(value) + " (" + Html.number(count) + ")";
    };
  }

  static String column(ColumnChange c) {
    return c.dbId() + " " + c.column() + ": " + c.finalBefore() + " -> " + c.finalAfter()
        + " (" + c.ruleBefore() + " -> " + c.ruleAfter() + ")";
  }

  // ---- diff.html -------------------------------------------------------------------------------

  static String html(DiffResult diff) {
    StringBuilder h = new StringBuilder(1 << 16);
    h.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>diff: ")
        .append(esc(diff.oldDir())).append(" → ").append(esc(diff.newDir())).append("</title>\n<style>\n")
        .append(Html.STYLE).append(".started{color:#2e7d32}.stopped{color:#c62828}td:first-child{min-width:260px}td details{margin:0}</style>\n</head>\n<body>\n<main>\n");
    h.append("<h1>What changed</h1>\n<p class=\"sub\"><code>").append(esc(diff.oldDir())).append("</code> → <code>")
        .append(esc(diff.newDir())).append("</code>; every figure is also in <code>diff.json</code>.</p>\n");
    for (SplitDiff s : diff.splits()) {
      h.append("<h2 id=\"split-").append(esc(s.split())).append("\">").append(esc(s.split())).append(": ")
          .append(Html.number(s.changed())).append(" of ").append(Html.number(s.questions())).append(" records changed, ")
          .append(Html.number(s.decidedDifferently())).append(" decided differently</h2>\n");
      h.append("<table><tr><th>figure</th><th>before</th><th>after</th></tr>\n");
      for (FigureChange f : s.figures()) {
        h.append("<tr><td>").append(f.figure()).append(' ').append(esc(f.label())).append("</td><td class=\"n\">")
            .append(figure(f, true)).append("</td><td class=\"n\">").append(figure(f, false)).append("</td></tr>\n");
      }
      h.append("</table>\n<h3>Changed records by rule</h3>\n<table><tr><th>rule</th><th>started firing on</th><th>stopped firing on</th><th>column policy set by it</th></tr>\n");
      for (RuleGroup g : s.groups()) {
        h.append("<tr><td>").append(esc(g.rule())).append("</td><td>").append(idList(g.started())).append("</td><td>")
            .append(idList(g.stopped())).append("</td><td>").append(idList(g.columnPolicy())).append("</td></tr>\n");
      }
      h.append("</table>\n<h3>Rules whose firing changed</h3>\n<table><tr><th>rule</th><th>questions before</th><th>after</th><th>started on</th><th>stopped on</th></tr>\n");
      for (RuleChange r : s.rules()) {
        h.append("<tr><td>").append(esc(r.rule())).append("</td><td class=\"n\">").append(r.questionsBefore())
            .append("</td><td class=\"n\">").append(r.questionsAfter()).append("</td><td class=\"n started\">").append(r.startedOn())
            .append("</td><td class=\"n stopped\">").append(r.stoppedOn()).append("</td></tr>\n");
      }
      h.append("</table>\n");
      if (s.neverFiredAfter() != null) {
        h.append("<h3>Rules that never fire</h3>\n<p>Before: ").append(esc(String.join("; ", s.neverFiredBefore() == null ? List.of() : s.neverFiredBefore())))
            .append("</p>\n<p>After: ").append(esc(String.join("; ", s.neverFiredAfter()))).append("</p>\n");
      }
      h.append("<details><summary>Every changed record (").append(s.records().size()).append(")</summary>\n")
          .append("<table><tr><th>id</th><th>database</th><th>fields</th><th>gold label before → after</th><th>rules started</th><th>rules stopped</th><th>columns</th></tr>\n");
      for (RecordChange r : s.records()) {
        h.append("<tr id=\"").append(esc(r.id())).append("\"><td>").append(esc(r.id())).append("</td><td>").append(esc(r.dbId()))
            .append("</td><td>").append(esc(String.join(", ", r.fields()))).append("</td><td>").append(esc(r.before()))
            .append(" → ").append(esc(r.after())).append("</td><td class=\"started\">").append(esc(String.join("; ", r.rulesStarted())))
            .append("</td><td class=\"stopped\">").append(esc(String.join("; ", r.rulesStopped()))).append("</td><td>")
            .append(esc(String.join(", ", r.columns()))).append("</td></tr>\n");
      }
      h.append("</table>\n</details>\n");
    }
    h.append("<h2>Columns whose policy or rule changed (").append(diff.columns().size()).append(")</h2>\n")
        .append("<table><tr><th>database</th><th>column</th><th>final policy</th><th>automatic rule</th></tr>\n");
    for (ColumnChange c : diff.columns()) {
      h.append("<tr><td>").append(esc(c.dbId())).append("</td><td>").append(esc(c.column())).append("</td><td>")
          .append(esc(c.finalBefore())).append(" → ").append(esc(c.finalAfter())).append("</td><td>")
          .append(esc(c.ruleBefore())).append(" → ").append(esc(c.ruleAfter())).append("</td></tr>\n");
    }
    h.append("</table>\n</main>\n</body>\n</html>\n");
    return h.toString();
  }

  /** The records as links to their rows; a long list folded under its count. */
  private static String idList(List<String> ids) {
    String links = ids.stream().map(id -> "<a href=\"#" + esc(id) + "\">" + esc(id) + "</a>").collect(Collectors.joining(" "));
    if (ids.size() <= 12) {
      return ids.isEmpty() ? "" : "<b>" + ids.size() + "</b>: " + links;
    }
    return "<details><summary>" + ids.size() + " records</summary>" + links + "</details>";
  }

  private static String esc(String s) {
    return s == null ? "" : Html.esc(s);
  }
}

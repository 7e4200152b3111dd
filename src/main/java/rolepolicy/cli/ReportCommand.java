package rolepolicy.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import rolepolicy.io.Plural;
import rolepolicy.report.QaFigures;
import rolepolicy.report.QaFigures.SplitFigures;
import rolepolicy.report.QaReport;

/** Writes the QA report (SPEC §10) of a generated dataset: report.html with charts, and qa.json. */
@Command(
    name = "report",
    mixinStandardHelpOptions = true,
    description = "Write DATA/qa/report.html (one self-contained page with charts), DATA/qa/qa.json"
        + " with the QA figures of a generated dataset, and DATA/qa/audit.html, every record and its rules.")
public final class ReportCommand implements Callable<Integer>, Writes {
  /** DATA/qa is the default output: report reads only DATA's splits, policies and audit trail, never written there. */
  @Override
  public java.util.Set<String> writtenOptions() {
    return java.util.Set.of("--data");
  }

  @Spec CommandSpec spec;

  @Option(
      names = "--data",
      paramLabel = "DIR",
      description = "Generated dataset: <split>.json files and policies/ (default: ${DEFAULT-VALUE}).",
      defaultValue = "data")
  Path data;

  @Mixin SpiderOption spiderFolder;

  @Option(
      names = "--splits",
      paramLabel = "LIST",
      split = ",",
      description = "Split files of DATA to report, e.g. test,fewshot (default: those of train, dev, test that exist).")
  List<String> splits = List.of();

  @Option(
      names = "--out",
      paramLabel = "DIR",
      description = "Where report.html and qa.json go (default: DATA/qa).")
  Path out;

  @Option(
      names = "--profiles",
      paramLabel = "LIST",
      split = ",",
      description = "Also the datasets of these profiles, DATA/<profile> (as generate --profile writes them; spec-v1's is DATA): Q1-Q5 side by side.")
  List<String> profiles = List.of();

  @Mixin ForceOption force;

  @Override
  public Integer call() {
    PrintWriter stdout = spec.commandLine().getOut();
    Path target = this.out != null ? this.out : data.resolve("qa");
    // the other profiles' datasets are read first: a missing one stops the run before anything is written
    java.util.Map<String, QaFigures> byProfile = new java.util.LinkedHashMap<>();
    for (String profile : profiles) {
      Path folder = profile.equals(rolepolicy.engine.RuleSet.DEFAULT_PROFILE) ? data : data.resolve(profile);
      if (!java.nio.file.Files.isDirectory(folder)) {
        throw new rolepolicy.io.InputException(folder + ": no dataset of profile " + profile
            + " (generate --profile " + profile + " writes it there by default)");
      }
      byProfile.put(profile, QaReport.compute(folder, spiderFolder.spider, splits));
    }
    QaFigures figures = QaReport.compute(data, spiderFolder.spider, splits);
    QaReport.write(figures, data, target);
    for (SplitFigures s : figures.splits()) {
      stdout.println(
          String.format(
              Locale.ROOT,
              "%s: %s, Q1 %.1f %% (%s), Q2 %.1f %% (%s), Q3 sd %.1f %% over %d databases, Q4 %d/%d negatives one edit, Q5 %d violations",
              s.split(),
              Plural.of(s.questions(), "question"),
              s.q1().value(),
              s.q1().inRange() ? "in 10–30 %" : "OUT of 10–30 %",
              s.q2().value(),
              s.q2().inRange() ? "in 5–15 %" : "OUT of 5–15 %",
              s.q3().sdPercent(),
              s.q3().databases(),
              s.q4().oneEdit().count(),
              s.q4().oneEdit().total(),
              s.q5().occurrences()));
    }
    int out = figures.outOfRange().size();
    stdout.printf(
        Locale.ROOT,
        "%d %s out of %s expected range%s%n",
        out,
        out == 1 ? "figure is" : "figures are",
        out == 1 ? "its" : "their",
        out == 0 ? "" : ", explained in the report");
    for (SplitFigures s : figures.splits()) {
      if (s.coverage() != null && s.coverage().neverFired() != null) {
        stdout.printf(Locale.ROOT, "%s: %d rules fired, %d never fired: %s%n", s.split(), s.coverage().fired().size(),
            s.coverage().neverFired().size(),
            String.join("; ", s.coverage().neverFired().stream().map(r -> r.rule()).toList()));
      }
    }
    if (!byProfile.isEmpty()) {
      java.util.Map<String, QaFigures> all = new java.util.LinkedHashMap<>();
      all.put(data.toString(), figures);
      all.putAll(byProfile);
      printSideBySide(stdout, all);
    }
    stdout.printf(Locale.ROOT, "wrote %s, %s and %s%n", target.resolve(QaReport.HTML_FILE), target.resolve(QaReport.JSON_FILE),
        target.resolve(rolepolicy.report.AuditPage.FILE));
    return 0;
  }

  /** Q1-Q5 of each split, one column per dataset (DATA, then each profile's). */
  private static void printSideBySide(PrintWriter w, java.util.Map<String, QaFigures> all) {
    List<String> names = List.copyOf(all.keySet());
    int width = Math.max(12, names.stream().mapToInt(String::length).max().orElse(0) + 2);
    StringBuilder header = new StringBuilder(String.format(Locale.ROOT, "%-24s", "split, figure"));
    names.forEach(n -> header.append(String.format(Locale.ROOT, "%" + width + "s", n)));
    w.println(header);
    for (SplitFigures first : all.get(names.get(0)).splits()) {
      String split = first.split();
      java.util.function.BiConsumer<String, java.util.function.Function<SplitFigures, String>> row = (label, cell) -> {
        StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%-24s", split + " " + label));
        for (String n : names) {
          SplitFigures s = all.get(n).splits().stream().filter(x -> x.split().equals(split)).findFirst().orElse(null);
          line.append(String.format(Locale.ROOT, "%" + width + "s", s == null ? "-" : cell.apply(s)));
        }
        w.println(line);
      };
      row.accept("Q1 violating", s -> String.format(Locale.ROOT, "%.1f%%", s.q1().value()));
      row.accept("Q2 REFUSE", s -> String.format(Locale.ROOT, "%.1f%%", s.q2().value()));
      row.accept("Q3 sd", s -> String.format(Locale.ROOT, "%.1f%%", s.q3().sdPercent()));
      row.accept("Q4 one edit", s -> s.q4().oneEdit().count() + "/" + s.q4().oneEdit().total());
      row.accept("Q5 violations", s -> String.valueOf(s.q5().occurrences()));
    }
  }
}

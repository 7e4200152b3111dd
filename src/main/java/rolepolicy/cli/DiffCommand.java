package rolepolicy.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import rolepolicy.diff.DatasetDiff;
import rolepolicy.diff.DiffReport;
import rolepolicy.diff.DiffResult;
import rolepolicy.report.QaReport;

/** What changed between two generated folders: records, rules, columns, Q1–Q5. */
@Command(
    name = "diff",
    mixinStandardHelpOptions = true,
    description = {
      "Compare two folders written by generate: the records whose policies, violations, gold label",
      "or negative changed, grouped by the rules whose firing changed; columns whose policy changed;",
      "Q1-Q5 before and after. Writes OUT/diff.json and OUT/diff.html."
    })
public final class DiffCommand implements Callable<Integer>, Writes {
  /** NEW/diff is the default output: diff reads only NEW's dataset files, never written there. */
  @Override
  public java.util.Set<String> writtenOptions() {
    return java.util.Set.of("NEW");
  }

  @Spec CommandSpec spec;

  @Parameters(index = "0", paramLabel = "OLD", description = "The folder before the change.")
  Path oldDir;

  @Parameters(index = "1", paramLabel = "NEW", description = "The folder after the change.")
  Path newDir;

  @Option(
      names = "--splits",
      paramLabel = "LIST",
      split = ",",
      description = "Splits to compare (default: those of train, dev, test in both folders).")
  List<String> splits = List.of();

  @Option(names = "--out", paramLabel = "DIR", description = "Where diff.json and diff.html go (default: NEW/diff).")
  Path out;

  @Option(names = "--json", description = "Print diff.json instead of the summary.")
  boolean json;

  @Mixin ForceOption force;

  @Override
  public Integer call() {
    run(oldDir, newDir, splits, out != null ? out : newDir.resolve("diff"), json, spec.commandLine().getOut());
    return 0;
  }

  /** Compares, writes the two files, prints the summary (or the JSON); shared with generate. */
  static DiffResult run(Path oldDir, Path newDir, List<String> splits, Path out, boolean json, PrintWriter stdout) {
    DiffResult diff = DatasetDiff.compare(oldDir, newDir, splits);
    DiffReport.write(diff, out);
    if (json) {
      stdout.print(QaReport.json(diff));
    } else {
      stdout.print(DiffReport.summary(diff));
      stdout.println("wrote " + out.resolve(DiffReport.JSON_FILE) + " and " + out.resolve(DiffReport.HTML_FILE));
    }
    stdout.flush();
    return diff;
  }
}

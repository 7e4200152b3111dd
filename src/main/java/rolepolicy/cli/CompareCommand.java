package rolepolicy.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import rolepolicy.compare.CompareHtml;
import rolepolicy.compare.CompareTable;
import rolepolicy.compare.Comparison;
import rolepolicy.compare.Run;
import rolepolicy.io.AtomicOutput;
import rolepolicy.io.DatasetWriter;

/** Compares runs (evaluate or run output folders) with bootstrap intervals and paired tests (docs/compare.md). */
@Command(
    name = "compare",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = "Compare runs over the same questions: metrics with 95 %% bootstrap intervals, paired tests,"
        + " breakdowns; writes compare.html and compare.json.")
public final class CompareCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Parameters(arity = "1..*", paramLabel = "RUN", description = "Folders written by evaluate --out or run (metrics.json, per_question.jsonl).")
  List<Path> folders;

  @Option(names = "--names", paramLabel = "NAME", split = ",", description = "Labels of the runs, in order (default: the folder names).")
  List<String> names;

  @Option(names = "--seed", paramLabel = "N", defaultValue = "20240601", description = "Seed of the resampling (default: ${DEFAULT-VALUE}).")
  long seed;

  @Option(names = "--resamples", paramLabel = "N", defaultValue = "1000", description = "Bootstrap resamples (default: ${DEFAULT-VALUE}).")
  @Range(min = 1)
  int resamples;

  @Option(names = "--out", paramLabel = "DIR", defaultValue = "results/compare", description = "Output folder (default: ${DEFAULT-VALUE}).")
  Path out;

  @Option(names = "--allow-incomplete",
      description = "Compare runs that left questions without a final answer (failed or cut off), on the questions every run answered.")
  boolean allowIncomplete;

  @Option(names = "--mixed-profiles",
      description = "Compare runs of different profiles (run.json's profile); without it they are refused.")
  boolean mixedProfiles;

  @Mixin ForceOption force;

  @Override
  public Integer call() {
    if (names != null && names.size() != folders.size()) {
      throw new ParameterException(spec.commandLine(), "--names gives " + names.size() + " labels for " + folders.size() + " runs");
    }
    List<Run> runs = new ArrayList<>();
    for (int i = 0; i < folders.size(); i++) {
      runs.add(Run.read(folders.get(i), names == null ? null : names.get(i)));
    }
    if (runs.stream().map(Run::name).distinct().count() < runs.size()) {
      throw new ParameterException(spec.commandLine(), "two runs have the same label " + runs.stream().map(Run::name).toList()
          + "; give --names");
    }
    java.util.Map<String, List<String>> byProfile = new java.util.TreeMap<>();
    runs.stream().filter(r -> r.profile() != null)
        .forEach(r -> byProfile.computeIfAbsent(r.profile(), p -> new ArrayList<>()).add(r.name()));
    if (byProfile.size() > 1 && !mixedProfiles) {
      throw new ParameterException(spec.commandLine(), "the runs are of different profiles, whose policies mean"
          + " different things: " + byProfile.entrySet().stream().map(e -> e.getKey() + " " + e.getValue()).toList()
          + "; compare runs of one profile, or give --mixed-profiles");
    }
    Comparison comparison = Comparison.of(runs, seed, resamples, allowIncomplete);
    try (AtomicOutput output = new AtomicOutput()) {
      DatasetWriter.write(output.stage(out.resolve("compare.json")), comparison);
      Files.writeString(output.stage(out.resolve("compare.html")), CompareHtml.render(comparison), StandardCharsets.UTF_8);
      output.commit();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    PrintWriter w = spec.commandLine().getOut();
    CompareTable.print(w, comparison);
    w.println("wrote " + out.resolve("compare.json") + " and " + out.resolve("compare.html"));
    return 0;
  }
}

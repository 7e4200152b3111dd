package rolepolicy.rules.mutation;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import rolepolicy.cache.CacheFolder;
import rolepolicy.run.Digest;

/**
 * The equivalent and invalid verdicts of an earlier whole run, kept in the repository and reused
 * while every input of the check is unchanged: the rule files, the Java sources of the project
 * and of the check, the test data's loader, the build file, the overrides and the Spider files of
 * the fixed set (its JSON files and SQLite databases). One byte changed in any of them and no
 * verdict is reused. A reused verdict skips the variant's build and its run on the fixed set;
 * caught variants are always built and run, with their rule tests. For those, the file also keeps
 * where each changed the outcome (a question of the fixed set, or the policies): a hint, used
 * whatever the inputs, of where to look first.
 */
final class KnownVerdicts {
  /** The file in the repository. */
  static final Path FILE = Path.of("src/test/resources/rule-mutations-known.tsv");
  /** What a run writes: the file to copy over {@link #FILE} when the inputs changed. */
  static final Path WRITTEN = Path.of("target/rule-mutations-known.tsv");

  private static final String HEADER = "# inputs ";
  /** A hint's verdict column: the variant changed the outcome, at the place in the third column. */
  private static final String CHANGED = "CHANGED";

  private final String inputs;
  private final Map<String, RuleMutationTest.Verdict> verdicts;
  private final Map<String, String> hints;

  private KnownVerdicts(String inputs, Map<String, RuleMutationTest.Verdict> verdicts, Map<String, String> hints) {
    this.inputs = inputs;
    this.verdicts = verdicts;
    this.hints = hints;
  }

  /** The verdicts of {@code file} when it was written for {@code inputs}, else none; its hints in any case. */
  static KnownVerdicts read(Path file, String inputs) {
    Map<String, RuleMutationTest.Verdict> verdicts = new TreeMap<>();
    Map<String, String> hints = new TreeMap<>();
    try {
      if (Files.isRegularFile(file)) {
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        boolean sameInputs = !lines.isEmpty() && lines.get(0).equals(HEADER + inputs);
        for (String line : lines.subList(Math.min(1, lines.size()), lines.size())) {
          String[] cells = line.split("\t");
          if (cells.length == 3 && cells[1].equals(CHANGED)) {
            hints.put(cells[0], cells[2]);
          } else if (cells.length == 2 && sameInputs) {
            verdicts.put(cells[0], RuleMutationTest.Verdict.valueOf(cells[1]));
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new KnownVerdicts(inputs, verdicts, hints);
  }

  /** The hints alone: no verdict reused. */
  KnownVerdicts hintsOnly() {
    return new KnownVerdicts(inputs, Map.of(), hints);
  }

  /** No known verdict and no hint: every variant is built and run on the whole set. */
  static KnownVerdicts none(String inputs) {
    return new KnownVerdicts(inputs, Map.of(), Map.of());
  }

  /** The known verdict of a variant, or null. */
  RuleMutationTest.Verdict of(DrlMutants.Mutant mutant) {
    return verdicts.get(key(mutant));
  }

  /** Where the variant changed the outcome in the run that wrote the file, or null. */
  String where(DrlMutants.Mutant mutant) {
    return hints.get(key(mutant));
  }

  int size() {
    return verdicts.size();
  }

  /**
   * The equivalent and invalid verdicts of a run, for these inputs, and where the others changed the
   * outcome, as the file holds them (by key).
   */
  static String text(String inputs, List<RuleMutationTest.Result> results) {
    Map<String, String> kept = new TreeMap<>();
    for (RuleMutationTest.Result r : results) {
      if (r.verdict() == RuleMutationTest.Verdict.EQUIVALENT || r.verdict() == RuleMutationTest.Verdict.INVALID) {
        kept.put(key(r.mutant()), r.verdict().name());
      } else if (r.where() != null) {
        kept.put(key(r.mutant()), CHANGED + "\t" + r.where());
      }
    }
    StringBuilder out = new StringBuilder(HEADER).append(inputs).append('\n');
    kept.forEach((k, v) -> out.append(k).append('\t').append(v).append('\n'));
    return out.toString();
  }

  String inputs() {
    return inputs;
  }

  /** A variant's key: its file's name and whole text (the other files are among the inputs). */
  static String key(DrlMutants.Mutant mutant) {
    return Digest.sha256(mutant.file() + "\0" + mutant.text());
  }

  /**
   * The digest of every file the verdicts depend on: names (relative to their folder, so that the
   * clone's place does not matter) and contents, in name order.
   */
  static String inputs(Path rules, Path spider) {
    Map<String, Path> files = new TreeMap<>();
    for (Map.Entry<String, Path> tree : Map.of("rules", rules, "main", Path.of("src/main/java"),
        "check", Path.of("src/test/java/rolepolicy/rules/mutation"), "databases", spider.resolve("database")).entrySet()) {
      try (Stream<Path> walk = Files.walk(tree.getValue())) {
        walk.filter(Files::isRegularFile).forEach(f -> files.put(
            tree.getKey() + "/" + tree.getValue().relativize(f).toString().replace('\\', '/'), f));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    files.put("TestData.java", Path.of("src/test/java/rolepolicy/TestData.java"));
    files.put("pom.xml", Path.of("pom.xml"));
    files.put("overrides.json", Path.of("data/overrides.json"));
    for (String name : List.of("tables.json", "dev.json", "train_spider.json")) {
      files.put("spider/" + name, spider.resolve(name));
    }
    StringBuilder all = new StringBuilder();
    try {
      for (Map.Entry<String, Path> f : files.entrySet()) {
        all.append(f.getKey()).append('\t').append(CacheFolder.digest(f.getValue())).append('\n');
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return Digest.sha256(all.toString());
  }
}

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
 * caught variants are always built and run, with their rule tests.
 */
final class KnownVerdicts {
  /** The file in the repository. */
  static final Path FILE = Path.of("src/test/resources/rule-mutations-known.tsv");
  /** What a run writes: the file to copy over {@link #FILE} when the inputs changed. */
  static final Path WRITTEN = Path.of("target/rule-mutations-known.tsv");

  private static final String HEADER = "# inputs ";

  private final String inputs;
  private final Map<String, RuleMutationTest.Verdict> verdicts;

  private KnownVerdicts(String inputs, Map<String, RuleMutationTest.Verdict> verdicts) {
    this.inputs = inputs;
    this.verdicts = verdicts;
  }

  /** The verdicts of {@code file} when it was written for {@code inputs}, else none. */
  static KnownVerdicts read(Path file, String inputs) {
    Map<String, RuleMutationTest.Verdict> verdicts = new TreeMap<>();
    try {
      if (Files.isRegularFile(file)) {
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        if (!lines.isEmpty() && lines.get(0).equals(HEADER + inputs)) {
          for (String line : lines.subList(1, lines.size())) {
            String[] cells = line.split("\t");
            if (cells.length == 2) {
              verdicts.put(cells[0], RuleMutationTest.Verdict.valueOf(cells[1]));
            }
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new KnownVerdicts(inputs, verdicts);
  }

  /** No known verdict: every variant is built and run. */
  static KnownVerdicts none(String inputs) {
    return new KnownVerdicts(inputs, Map.of());
  }

  /** The known verdict of a variant, or null. */
  RuleMutationTest.Verdict of(DrlMutants.Mutant mutant) {
    return verdicts.get(key(mutant));
  }

  int size() {
    return verdicts.size();
  }

  /** The equivalent and invalid verdicts of a run, for these inputs, as the file holds them. */
  static String text(String inputs, List<RuleMutationTest.Result> results) {
    Map<String, RuleMutationTest.Verdict> kept = new TreeMap<>();
    for (RuleMutationTest.Result r : results) {
      if (r.verdict() == RuleMutationTest.Verdict.EQUIVALENT || r.verdict() == RuleMutationTest.Verdict.INVALID) {
        kept.put(key(r.mutant()), r.verdict());
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

package rolepolicy.review;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import rolepolicy.TestData;
import rolepolicy.engine.ColumnPolicy;
import rolepolicy.engine.DatabasePolicies;
import rolepolicy.engine.PolicyAssigner;
import rolepolicy.model.Policy;
import rolepolicy.model.PolicyOverride;
import rolepolicy.spider.OverridesReader;
import rolepolicy.spider.Schema;
import rolepolicy.spider.SchemaReader;

/**
 * Guards the shipped reviews, one overrides file per benchmark, each checked against its own
 * schemas: {@code data/overrides.json} (Spider's 166 databases, issue 5), {@code
 * data/overrides-kaggledbqa.json} (KaggleDBQA's 8) and {@code data/overrides-bird.json} (BIRD dev's
 * 11).
 */
class ShippedOverridesTest {
  /** One benchmark's review: its overrides, its schema file and the folder of its notes. */
  record Benchmark(String name, Path overrides, Supplier<Map<String, Schema>> schemas, Path notes) {
    @Override
    public String toString() {
      return name;
    }
  }

  static final Benchmark SPIDER =
      new Benchmark("spider", Path.of("data", "overrides.json"), TestData::schemas, Path.of("docs", "review"));

  static Stream<Benchmark> benchmarks() {
    return Stream.of(
        SPIDER,
        new Benchmark(
            "kaggledbqa",
            Path.of("data", "overrides-kaggledbqa.json"),
            () -> SchemaReader.read(TestData.kaggleDir().resolve("KaggleDBQA_tables.json")),
            Path.of("docs", "review", "kaggledbqa")),
        new Benchmark(
            "bird",
            Path.of("data", "overrides-bird.json"),
            () -> SchemaReader.read(TestData.birdDir().resolve("dev_tables.json")),
            Path.of("docs", "review", "bird")));
  }

  /** A benchmark's schemas, overrides and the policies they give, read once. */
  private record Loaded(
      Map<String, Schema> schemas, List<PolicyOverride> overrides, Map<String, DatabasePolicies> policies) {}

  private static final Map<String, Loaded> LOADED = new ConcurrentHashMap<>();

  /** Read and applied exactly as the generator does; a bad entry fails here, naming itself. */
  private static Loaded load(Benchmark b) {
    return LOADED.computeIfAbsent(
        b.name(),
        n -> {
          Map<String, Schema> schemas = b.schemas().get();
          List<PolicyOverride> overrides = OverridesReader.read(b.overrides());
          return new Loaded(
              schemas,
              overrides,
              new PolicyAssigner(TestData.rules()).assign(schemas, overrides, b.overrides().toString()));
        });
  }

  @ParameterizedTest
  @MethodSource("benchmarks")
  void everyEntryNamesAnExistingColumnAndIsApplied(Benchmark b) {
    Loaded loaded = load(b);
    List<String> wrong = new ArrayList<>();
    for (PolicyOverride o : loaded.overrides()) {
      Schema schema = loaded.schemas().get(o.dbId());
      if (schema == null || schema.columnByKey(o.key()).isEmpty()) {
        wrong.add(o.describe() + ": no such column");
        continue;
      }
      ColumnPolicy applied = policyOf(loaded, o);
      if (applied.finalPolicy() != o.finalPolicy() || applied.overrideRule() == null) {
        wrong.add(o.describe() + ": not applied");
      }
    }
    assertEquals(List.of(), wrong);
  }

  @ParameterizedTest
  @MethodSource("benchmarks")
  void noEntrySetsTheFinalPolicyToTheAutomaticOne(Benchmark b) {
    Loaded loaded = load(b);
    for (PolicyOverride o : loaded.overrides()) {
      assertNotEquals(o.autoPolicy(), o.finalPolicy(), o.describe() + " changes nothing");
      assertEquals(o.autoPolicy(), policyOf(loaded, o).autoPolicy(), o.describe());
    }
  }

  @ParameterizedTest
  @MethodSource("benchmarks")
  void everyReasonNamesItsTable(Benchmark b) {
    for (PolicyOverride o : load(b).overrides()) {
      assertTrue(
          o.reason().toLowerCase(Locale.ROOT).contains(o.table().toLowerCase(Locale.ROOT)),
          o.describe() + ": the reason does not name its table: " + o.reason());
    }
  }

  @ParameterizedTest
  @MethodSource("benchmarks")
  void everyDatabaseHasAReviewNoteThatListsItsOverrides(Benchmark b) throws IOException {
    Loaded loaded = load(b);
    List<String> missing = new ArrayList<>();
    for (String db : loaded.schemas().keySet()) {
      if (!Files.isRegularFile(b.notes().resolve(db + ".md"))) {
        missing.add(db + ": no " + b.notes().resolve(db + ".md"));
      }
    }
    for (PolicyOverride o : loaded.overrides()) {
      Path note = b.notes().resolve(o.dbId() + ".md");
      if (Files.isRegularFile(note)
          && !Files.readString(note).contains("`" + o.table() + "." + o.column() + "`")) {
        missing.add(o.describe() + ": not in " + note);
      }
    }
    if (!Files.isRegularFile(b.notes().resolve("README.md"))) {
      missing.add("no " + b.notes().resolve("README.md"));
    }
    assertEquals(List.of(), missing);
  }

  /** A note beside the others that names no database of the benchmark is a stale or misplaced one. */
  @ParameterizedTest
  @MethodSource("benchmarks")
  void everyNoteNamesADatabaseOfItsBenchmark(Benchmark b) throws IOException {
    Map<String, Schema> schemas = load(b).schemas();
    List<String> stray;
    try (Stream<Path> files = Files.list(b.notes())) {
      stray =
          files
              .filter(Files::isRegularFile)
              .map(f -> f.getFileName().toString())
              .filter(f -> f.endsWith(".md") && !f.equals("README.md"))
              .filter(f -> !schemas.containsKey(f.substring(0, f.length() - ".md".length())))
              .sorted()
              .toList();
    }
    assertEquals(List.of(), stray);
  }

  /** RunCommandTest's summary of the first dev questions relies on it. */
  @Test
  void concertSingersAgeStaysHidden() {
    ColumnPolicy age =
        load(SPIDER).policies().get("concert_singer").columns().stream()
            .filter(c -> c.column().key().equals("singer.age"))
            .findFirst()
            .orElseThrow();
    assertEquals(Policy.Hidden, age.finalPolicy());
  }

  private static ColumnPolicy policyOf(Loaded loaded, PolicyOverride o) {
    return loaded.policies().get(o.dbId()).columns().stream()
        .filter(c -> c.column().key().equals(o.key()))
        .findFirst()
        .orElseThrow(() -> new AssertionError(o.describe() + ": no policy"));
  }
}

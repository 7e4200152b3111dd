package rolepolicy.evaluate;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataOutputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rolepolicy.TestData;
import rolepolicy.db.Execution;

/**
 * The evaluate cache entry by entry: what is kept, what a later run reads back (cell by cell), and
 * what makes an entry stale or unusable. The split is a file of its own; the databases are copies
 * of two real Spider databases, one of them without its SQLite file.
 */
class EvaluationCacheEntriesTest {
  @TempDir Path dir;
  private Path cache;
  private Path databases;
  private Path split;
  private Path rules;
  private List<GoldRecord> records;
  private final AtomicInteger runs = new AtomicInteger();

  @BeforeEach
  void aSplitAndItsDatabases() throws IOException {
    cache = dir.resolve("cache");
    databases = dir.resolve("database");
    Path singer = Files.createDirectories(databases.resolve("concert_singer"));
    Files.copy(TestData.spiderDir().resolve("database/concert_singer/concert_singer.sqlite"),
        singer.resolve("concert_singer.sqlite"));
    Files.createDirectories(databases.resolve("no_file"));
    split = Files.writeString(dir.resolve("dev.json"), "[]");
    rules = dir.resolve("rules");
    Files.createDirectories(rules);
    try (Stream<Path> drl = rolepolicy.engine.RuleBase.ruleFiles(TestData.ruleSet()).stream()) {
      for (Path f : drl.toList()) {
        Files.copy(f, rules.resolve(f.getFileName().toString()));
      }
    }
    records = List.of(
        new GoldRecord("q1", "concert_singer", false, "SELECT 1", "SELECT 1", Map.of()),
        new GoldRecord("q2", "no_file", false, "SELECT 1", "SELECT 1", Map.of()));
  }

  private EvaluationCache cache(double timeoutSeconds) {
    return new EvaluationCache(cache, split, TestData.spiderDir().resolve("tables.json"), rolepolicy.engine.RuleSet.of(rules), databases,
        timeoutSeconds, records);
  }

  private EvaluationCache cache() {
    return cache(30);
  }

  private Supplier<Execution> counted(Execution result) {
    return () -> {
      runs.incrementAndGet();
      return result;
    };
  }

  private static final Execution EVERY_CELL = new Execution(Execution.Status.OK, List.of("n", "i", "l", "d", "s", "b"),
      List.of(Arrays.asList(null, 7, 9_000_000_000L, -0.25, "Ann ∆", new byte[] {1, 2}), Arrays.asList(null, null, null,
          null, null, null)), null);

  private static void assertSameExecution(Execution expected, Execution got) {
    assertEquals(expected.status(), got.status());
    assertEquals(expected.columns(), got.columns());
    assertEquals(expected.message(), got.message());
    assertEquals(expected.rows().size(), got.rows().size());
    for (int r = 0; r < expected.rows().size(); r++) {
      List<Object> want = expected.rows().get(r);
      List<Object> have = got.rows().get(r);
      assertEquals(want.size(), have.size());
      for (int c = 0; c < want.size(); c++) {
        if (want.get(c) instanceof byte[] bytes) {
          assertArrayEquals(bytes, (byte[]) have.get(c));
        } else {
          assertEquals(want.get(c), have.get(c), "row " + r + ", column " + c);
          assertEquals(want.get(c) == null ? null : want.get(c).getClass(), have.get(c) == null ? null : have.get(c).getClass());
        }
      }
    }
  }

  @Test
  void aGoldResultIsRunOnceAndALaterRunReadsEveryCellBack() {
    EvaluationCache first = cache();
    assertSame(EVERY_CELL, first.gold("concert_singer", "SELECT everything", counted(EVERY_CELL)));
    assertSame(EVERY_CELL, first.gold("concert_singer", "SELECT everything", counted(EVERY_CELL)));
    assertEquals(1, runs.get(), "the second ask is answered from memory");
    first.save();

    Execution error = new Execution(Execution.Status.ERROR, List.of(), List.of(), "no such column: x");
    EvaluationCache later = cache();
    assertSameExecution(EVERY_CELL, later.gold("concert_singer", "SELECT everything", counted(null)));
    assertEquals(1, runs.get(), "read from the file");
    later.gold("concert_singer", "SELECT x", counted(error));
    later.save();
    EvaluationCache third = cache();
    assertSameExecution(error, third.gold("concert_singer", "SELECT x", counted(null)));
    assertSameExecution(EVERY_CELL, third.gold("concert_singer", "SELECT everything", counted(null)));
    assertEquals(2, runs.get());
  }

  @Test
  void aTimeoutAMissingDatabaseAndCellsOfOtherTypesAreNotKept() {
    EvaluationCache first = cache();
    Execution timeout = new Execution(Execution.Status.TIMEOUT, List.of(), List.of(), "interrupted");
    Execution noDatabase = new Execution(Execution.Status.NO_DATABASE, List.of(), List.of(), "missing");
    Execution decimal = new Execution(Execution.Status.OK, List.of("x"), List.of(List.of(new BigDecimal("1.5"))), null);
    first.gold("concert_singer", "slow", counted(timeout));
    first.gold("concert_singer", "gone", counted(noDatabase));
    first.gold("concert_singer", "decimal", counted(decimal));
    first.gold("concert_singer", "slow", counted(timeout));
    assertEquals(4, runs.get(), "not kept in memory either");
    first.save();
    assertTrue(Files.notExists(cache) || list(cache).stream().noneMatch(f -> f.startsWith("gold-")), list(cache).toString());
  }

  @Test
  void aDatabaseWithoutItsFileIsRunEachTimeAndWritesNothing() {
    EvaluationCache first = cache();
    first.gold("no_file", "SELECT 1", counted(EVERY_CELL));
    first.gold("no_file", "SELECT 1", counted(EVERY_CELL));
    assertEquals(2, runs.get());
    first.save();
    assertTrue(list(cache).stream().noneMatch(f -> f.startsWith("gold-")), list(cache).toString());
  }

  @Test
  void anEditedDatabaseFileIsANewEntry() throws IOException {
    EvaluationCache first = cache();
    first.gold("concert_singer", "SELECT 1", counted(EVERY_CELL));
    first.save();
    Path file = databases.resolve("concert_singer/concert_singer.sqlite");
    Files.write(file, new byte[] {0}, java.nio.file.StandardOpenOption.APPEND);
    cache().gold("concert_singer", "SELECT 1", counted(EVERY_CELL));
    assertEquals(2, runs.get());
  }

  @Test
  void aGoldFileOfAnotherVersionOrDamagedIsComputedAgainAndWrittenAnew() throws IOException {
    EvaluationCache first = cache();
    first.gold("concert_singer", "SELECT 1", counted(EVERY_CELL));
    first.save();
    Path gold = cache.resolve(list(cache).stream().filter(f -> f.startsWith("gold-")).findFirst().orElseThrow());
    try (DataOutputStream out = new DataOutputStream(Files.newOutputStream(gold))) {
      out.writeUTF("0.0.0-another");
      out.writeInt(0);
    }
    EvaluationCache second = cache();
    second.gold("concert_singer", "SELECT 1", counted(EVERY_CELL));
    assertEquals(2, runs.get(), "another version's entries are not read");
    second.save();
    byte[] whole = Files.readAllBytes(gold);
    Files.write(gold, Arrays.copyOf(whole, whole.length - 3));
    EvaluationCache third = cache();
    third.gold("concert_singer", "SELECT 1", counted(EVERY_CELL));
    assertEquals(3, runs.get(), "a cut entry is not read");
    third.save();
    assertSameExecution(EVERY_CELL, cache().gold("concert_singer", "SELECT 1", counted(null)));
    assertTrue(list(cache).stream().noneMatch(f -> f.endsWith(".tmp")), list(cache).toString());
  }

  @Test
  void theReferenceFiguresAreKeptForTheSameInputsOnly() throws IOException {
    Map<String, Metrics> figures = Map.of("original SQL", Metrics.of(List.of(), true), "always REFUSE",
        Metrics.of(List.of(), false));
    EvaluationCache first = cache();
    assertNull(first.references());
    first.keepReferences(figures);
    Map<String, Metrics> read = cache().references();
    assertNotNull(read);
    assertEquals(figures.keySet(), read.keySet());
    assertEquals(figures.get("original SQL"), read.get("original SQL"));
    assertNull(cache(60).references(), "another time limit");
    Files.writeString(rules.resolve("policy.drl"), "\n// edited\n", java.nio.file.StandardOpenOption.APPEND);
    assertNull(cache().references(), "an edited rule file");
  }

  @Test
  void aDamagedReferenceFileIsNotRead() throws IOException {
    cache().keepReferences(Map.of("always REFUSE", Metrics.of(List.of(), false)));
    Path file = cache.resolve(list(cache).stream().filter(f -> f.startsWith("references-")).findFirst().orElseThrow());
    Files.writeString(file, "{\"always REFUSE\": [");
    assertNull(cache().references());
  }

  private static List<String> list(Path folder) {
    if (!Files.isDirectory(folder)) {
      return List.of();
    }
    try (Stream<Path> files = Files.list(folder)) {
      return files.map(f -> f.getFileName().toString()).sorted().toList();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}

package rolepolicy.evaluate;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rolepolicy.TestData;
import rolepolicy.io.AtomicOutput;
import rolepolicy.io.DatasetWriter;
import rolepolicy.generate.SpiderRun;

/**
 * Same input, same bytes out: metrics.json and per_question.jsonl of every tenth record of the real
 * dev split (all 20 databases) and mixed predictions (original SQL, negatives, REFUSE) are those of
 * the one-thread run without a cache, with the cache cold or warm, and for 1, 2 or 3 threads.
 */
class EvaluationCacheTest {
  @TempDir static Path dir;
  private static Path split;
  private static List<GoldRecord> records;
  private static List<String> predictions;
  private static byte[][] reference;

  @BeforeAll
  static void referenceRun() throws Exception {
    ArrayNode dev = DatasetWriter.JSON.createArrayNode();
    JsonNode all = SpiderRun.records("dev", "dev.json");
    for (int i = 0; i < all.size(); i += 10) { // 104 records of all 20 databases
      dev.add(all.get(i));
    }
    split = dir.resolve("dev.json");
    DatasetWriter.JSON.writeValue(split.toFile(), dev);
    records = Evaluator.readDataset(split);
    predictions = new ArrayList<>();
    for (int i = 0; i < dev.size(); i++) {
      JsonNode r = dev.get(i);
      JsonNode negative = r.path("negative_examples").path(0).path("sql");
      predictions.add(i % 5 == 1 ? "REFUSE" : i % 7 == 2 && negative.isTextual() ? negative.asText()
          : i % 11 == 3 ? "SELECT nothing FROM nowhere" : r.path("original_sql").asText());
    }
    reference = bytes(Evaluation.score(settings(), records, predictions, "p.txt"), "reference");
  }

  private static Evaluation.Inputs settings() {
    return new Evaluation.Inputs(split.toString(), TestData.schemas(), TestData.spiderDir().resolve("database"), 30,
        TestData.rules());
  }

  private static byte[][] bytes(Evaluation.Outcome outcome, String name) throws Exception {
    Path out = dir.resolve(name);
    try (AtomicOutput output = new AtomicOutput()) {
      Evaluation.stage(output, out, outcome);
      output.commit();
    }
    return new byte[][] {Files.readAllBytes(out.resolve(Evaluation.METRICS)), Files.readAllBytes(out.resolve(Evaluation.PER_QUESTION))};
  }

  private static byte[][] run(int threads, Path cache, String name) throws Exception {
    EvaluationCache c = cache == null ? null : new EvaluationCache(cache, split, TestData.spiderDir().resolve("tables.json"),
        TestData.ruleSet(), TestData.spiderDir().resolve("database"), 30, records);
    return bytes(Evaluation.score(settings(), records, predictions, "p.txt", threads, c), name);
  }

  private static long entries(Path cache, String prefix) throws Exception {
    try (Stream<Path> files = Files.list(cache)) {
      return files.filter(f -> f.getFileName().toString().startsWith(prefix)).count();
    }
  }

  @Test
  void theSameBytesWithTheCacheColdAndWarmAndAnyThreads() throws Exception {
    Path cache = dir.resolve("cache");
    String[] runs = {"cold, 2 threads", "warm, 3 threads", "warm, 1 thread", "no cache, 2 threads"};
    for (int i = 0; i < runs.length; i++) {
      byte[][] got = run(new int[] {2, 3, 1, 2}[i], i == 3 ? null : cache, "run" + i);
      assertArrayEquals(reference[0], got[0], "metrics.json, " + runs[i]);
      assertArrayEquals(reference[1], got[1], "per_question.jsonl, " + runs[i]);
      if (i == 0) {
        assertEquals(1, entries(cache, "references-"));
        long answered = records.stream().filter(r -> !r.refuse() && Files.isRegularFile(
            TestData.spiderDir().resolve("database").resolve(r.dbId()).resolve(r.dbId() + ".sqlite")))
            .map(GoldRecord::dbId).distinct().count();
        assertEquals(answered, entries(cache, "gold-"), "a gold file per database with a SQLite file and gold SQL");
      }
    }
  }

  @Test
  void aDamagedEntryIsComputedAgain() throws Exception {
    Path cache = dir.resolve("damaged");
    run(2, cache, "first");
    try (Stream<Path> files = Files.list(cache)) {
      for (Path f : files.toList()) {
        Files.write(f, new byte[] {7, 7, 7});
      }
    }
    byte[][] got = run(2, cache, "again");
    assertArrayEquals(reference[0], got[0]);
    assertArrayEquals(reference[1], got[1]);
  }
}

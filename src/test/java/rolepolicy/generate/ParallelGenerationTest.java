package rolepolicy.generate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rolepolicy.TestData;
import rolepolicy.engine.QuestionEngine;
import rolepolicy.io.InputException;

/** Records built on several threads come out in input order, byte for byte as on one thread. */
class ParallelGenerationTest {
  private static final Path DEV = Path.of("data/spider/dev.json");

  @TempDir Path dir;

  private static DatasetGenerator generator(int threads) {
    QuestionGenerator questions =
        new QuestionGenerator(new QuestionEngine(TestData.rules()), TestData.schemas(), TestData.autoPolicies());
    return new DatasetGenerator(questions, threads);
  }

  /** Generates the bundled dev split with an audit; returns the split's and the audit's bytes. */
  private List<String> run(int threads) throws IOException {
    Path out = dir.resolve(threads + ".json");
    Path audit = dir.resolve(threads + ".jsonl");
    try (BufferedWriter auditWriter = Files.newBufferedWriter(audit)) {
      generator(threads).generate("dev", DEV, out, auditWriter, bytes -> {});
    }
    return List.of(Files.readString(out), Files.readString(audit));
  }

  @Test
  void threeThreadsWriteTheSameBytesAsOne() throws IOException {
    List<String> one = run(1);
    List<String> three = run(3);
    assertEquals(one.get(0), three.get(0), "split file");
    assertEquals(one.get(1), three.get(1), "audit file");
  }

  @Test
  void anUnknownDatabaseIsReportedWithItsRecordNumber() throws IOException {
    Path input = dir.resolve("bad.json");
    Files.writeString(input, "[" + "{\"db_id\": \"concert_singer\", \"question\": \"q\", \"query\": \"SELECT count(*) FROM singer\", \"sql\": null},".repeat(40)
        + "{\"db_id\": \"no_such_db\", \"question\": \"q\", \"query\": \"SELECT 1\", \"sql\": null}]");
    InputException e = assertThrows(InputException.class,
        () -> generator(2).generate("dev", input, dir.resolve("bad-out.json"), null, bytes -> {}));
    assertEquals(input + ": record #41: unknown db_id 'no_such_db' (not in the schema file)", e.getMessage());
  }
}

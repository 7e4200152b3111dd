package rolepolicy.explain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import rolepolicy.Golden;
import rolepolicy.TestData;
import rolepolicy.cli.CommandRun;

/**
 * {@code explain} against golden files in {@code src/test/resources/golden/explain/}, no
 * overrides: a question answered after a rewrite (dev_0616, R2) and one refused after a rewrite
 * step (dev_0003, R1 then R1_NO_CANDIDATE). Rewrite the files with {@code -Dgolden.update=true}.
 */
class ExplainCommandTest {
  private static final Path GOLDEN = Path.of("src/test/resources/golden/explain");

  @TempDir static Path tmp;
  static Path none;

  @BeforeAll
  static void noOverrides() throws IOException {
    none = tmp.resolve("no-overrides.json");
    Files.writeString(none, "[]");
  }

  private static CommandRun explain(String... more) {
    String[] args = new String[more.length + 5];
    args[0] = "explain";
    args[1] = "--spider";
    args[2] = TestData.spiderDir().toString();
    args[3] = "--overrides";
    args[4] = none.toString();
    System.arraycopy(more, 0, args, 5, more.length);
    return CommandRun.of(args);
  }

  @ParameterizedTest(name = "{0}: {1}")
  @CsvSource({"dev_0616, answered after R2", "dev_0003, refused after an R1 step"})
  void matchesGoldenOutput(String id, String covers) throws IOException {
    CommandRun run = explain(id);
    assertEquals(0, run.code(), run.err());
    Path golden = GOLDEN.resolve(id + ".txt");
    Golden.check(golden, run.out(), covers);
  }

  @Test
  void jsonHasTheStagesTheRecordAndTheEdits() throws IOException {
    CommandRun run = explain("dev_0616", "--json");
    assertEquals(0, run.code(), run.err());
    JsonNode json = new ObjectMapper().readTree(run.out());
    assertEquals("dev_0616", json.get("id").asText());
    assertEquals("original", json.get("stages").get(0).get("stage").asText());
    assertEquals("SQL", json.get("record").get("gold_label").get("type").asText());
    assertTrue(json.get("edits").get(0).get("diff").asText().contains("[-Rating-]{+AVG(Rating)+}"), run.out());
  }

  @Test
  void anUnknownIdNamesTheSplitAndTheNearestIds() {
    CommandRun run = explain("dev_1200");
    assertEquals(1, run.code());
    assertTrue(run.err().contains("no question dev_1200 in split dev"), run.err());
    assertTrue(run.err().contains("dev_1034"), run.err());
    CommandRun split = explain("dve_0003");
    assertEquals(1, split.code());
    assertTrue(split.err().contains("did you mean dev_0003?"), split.err());
  }
}

package rolepolicy.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** evaluate --profile grants scores only a dataset whose policies came from GRANTs. */
class EvaluateGrantsDatasetTest {
  @TempDir Path dir;

  private Path dataset(String policy) throws Exception {
    return Files.writeString(dir.resolve(policy + ".json"), "[{\"id\": \"dev_0001\", \"db_id\": \"concert_singer\","
        + " \"question\": \"How many singers are there?\", \"original_sql\": \"SELECT count(*) FROM singer\","
        + " \"gold_label\": {\"type\": \"SQL\", \"sql\": \"SELECT count(*) FROM singer\"},"
        + " \"column_policies\": {\"singer.singer_id\": \"" + policy + "\", \"singer.name\": \"Public\"}}]");
  }

  @Test
  void aDatasetWithPoliciesNoGrantGivesIsRefused() throws Exception {
    Path pred = Files.writeString(dir.resolve("pred.txt"), "SELECT count(*) FROM singer\n");
    CommandRun refused = CommandRun.of("evaluate", "--profile", "grants", "--dataset", dataset("JoinOnly").toString(),
        "--pred", pred.toString(), "--out", dir.resolve("out").toString(), "--no-cache");
    assertEquals(Main.BAD_INPUT, refused.code(), refused.out());
    assertTrue(refused.err().contains("JoinOnly.json: record dev_0001 has singer.singer_id JoinOnly, a policy no GRANT gives:"
        + " this dataset was not generated under profile grants"), refused.err());
    assertFalse(refused.out().contains("compliant"), refused.out());
    assertFalse(Files.exists(dir.resolve("out")));
    CommandRun scored = CommandRun.of("evaluate", "--profile", "grants", "--dataset", dataset("Hidden").toString(),
        "--pred", pred.toString(), "--out", dir.resolve("out").toString(), "--no-cache");
    assertEquals(0, scored.code(), scored.err());
  }
}

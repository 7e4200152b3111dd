package rolepolicy.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** evaluate --profile grants scores only a dataset generated under grants, never spec-v1's. */
class EvaluateGrantsDatasetTest {
  @TempDir Path dir;

  private Path dataset(String folder) throws Exception {
    Path split = Files.createDirectories(dir.resolve(folder)).resolve("dev.json");
    return Files.writeString(split, "[{\"id\": \"dev_0001\", \"db_id\": \"concert_singer\","
        + " \"question\": \"How many singers are there?\", \"original_sql\": \"SELECT count(*) FROM singer\","
        + " \"gold_label\": {\"type\": \"SQL\", \"sql\": \"SELECT count(*) FROM singer\"},"
        + " \"column_policies\": {\"singer.singer_id\": \"Hidden\", \"singer.name\": \"Public\"}}]");
  }

  @Test
  void aSpecV1DatasetIsNotScoredUnderGrants() throws Exception {
    Path pred = Files.writeString(dir.resolve("pred.txt"), "SELECT count(*) FROM singer\n");
    CommandRun refused = CommandRun.of("evaluate", "--profile", "grants", "--dataset", dataset("spec").toString(),
        "--pred", pred.toString(), "--out", dir.resolve("out").toString(), "--no-cache");
    assertEquals(Main.USAGE, refused.code(), refused.out());
    assertTrue(refused.err().contains("dev.json was generated under profile spec-v1"), refused.err());
    assertFalse(refused.out().contains("compliant"), refused.out());
    assertFalse(Files.exists(dir.resolve("out")));
    Path grants = dataset("grants");
    Files.writeString(grants.resolveSibling("profile.json"), "{\"profile\": \"grants\"}");
    CommandRun scored = CommandRun.of("evaluate", "--profile", "grants", "--dataset", grants.toString(),
        "--pred", pred.toString(), "--out", dir.resolve("out").toString(), "--no-cache");
    assertEquals(0, scored.code(), scored.err());
  }
}

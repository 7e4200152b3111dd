package rolepolicy.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rolepolicy.Golden;
import rolepolicy.TestData;
import rolepolicy.io.DatasetWriter;
import rolepolicy.spider.AccessRecord;
import rolepolicy.spider.AccessRecords;

/**
 * generate --access-records on Spider-AC's part: one dataset per user tier, in which a question is
 * answered as it stands exactly where PostgreSQL permits it, and every denied one gets a compliant
 * rewrite or REFUSE.
 */
class GenerateAccessRecordsTest {
  @TempDir Path dir;

  @Test
  void eachTiersGoldLabelsFollowPostgresqlsDecisions() throws Exception {
    CommandRun run = CommandRun.of("generate", "--access-records", TestData.rcrFile().toString(), "--profile", "grants",
        "--out", dir.toString());
    assertEquals(0, run.code(), run.err());
    List<AccessRecord> records = AccessRecords.read(TestData.rcrFile());
    StringBuilder figures = new StringBuilder("user\tquestions\tDENY (PostgreSQL)\tREFUSE\trewritten\tas is\twith a negative\n");
    for (String user : List.of("User_1", "User_2", "User_3", "User_4")) {
      JsonNode dataset = DatasetWriter.JSON.readTree(dir.resolve(user).resolve("access.json").toFile());
      List<AccessRecord> own = records.stream().filter(r -> r.user().equals(user)).toList();
      assertEquals(own.size(), dataset.size());
      int deny = 0;
      int refuse = 0;
      int rewritten = 0;
      int negatives = 0;
      for (int i = 0; i < own.size(); i++) {
        JsonNode gold = dataset.get(i).get("gold_label");
        boolean refused = gold.get("type").asText().equals("REFUSE");
        boolean changed = !refused && gold.get("steps").size() > 0;
        boolean denied = own.get(i).labelDecision().equals(AccessRecord.DENY);
        assertEquals(denied, refused || changed, user + " " + dataset.get(i).get("id") + ": " + own.get(i).query());
        assertEquals(own.get(i).query(), dataset.get(i).get("original_sql").asText());
        deny += denied ? 1 : 0;
        refuse += refused ? 1 : 0;
        rewritten += changed ? 1 : 0;
        negatives += dataset.get(i).get("negative_examples").size() > 0 ? 1 : 0;
      }
      figures.append(String.format(Locale.ROOT, "%s\t%d\t%d\t%d\t%d\t%d\t%d%n",
          user, own.size(), deny, refuse, rewritten, own.size() - refuse - rewritten, negatives));
    }
    assertTrue(Files.isDirectory(dir.resolve("User_3/policies")));
    Golden.check(Path.of("src/test/resources/golden/access-tiers.tsv"), figures.toString(), "the tiers' figures");
  }

  @Test
  void recordsCarryTheirOwnSchemasAndGrants() {
    CommandRun run = CommandRun.of("generate", "--access-records", TestData.rcrFile().toString(), "--profile", "grants",
        "--grant-role", "x", "--out", dir.toString());
    assertEquals(Main.USAGE, run.code());
    assertTrue(run.err().contains("--grant-role cannot be combined with --access-records"), run.err());
  }

  private static String record(String dbId, String user) {
    return "{\"db_id\":\"" + dbId + "\",\"user\":\"" + user + "\",\"query\":\"SELECT a FROM t\",\"access_policy_sql\":"
        + "\"GRANT USAGE ON SCHEMA d TO d_User_1; GRANT SELECT (a) ON d.t TO d_User_1\",\"schema_ddl\":"
        + "\"CREATE TABLE t (a text, b text);\",\"ground_truth_label\":\"[]\"}";
  }

  @Test
  void aUserOrDatabaseThatIsNoPlainNameIsRefusedAndNothingIsWritten() throws Exception {
    Path out = dir.resolve("a/b/out");
    Path records = dir.resolve("records.jsonl");
    List<String[]> bad = List.of(new String[] {"d", ".."}, new String[] {"d", "."}, new String[] {"d", ""},
        new String[] {"d", "a/b"}, new String[] {"d", dir.resolve("abs").toString()}, new String[] {"../d", "User_1"},
        new String[] {"d", "x\\\\y"});
    for (String[] r : bad) {
      Files.writeString(records, record("d", "User_1") + "\n" + record(r[0], r[1]) + "\n");
      CommandRun run = CommandRun.of("generate", "--access-records", records.toString(), "--profile", "grants",
          "--out", out.toString());
      assertEquals(Main.BAD_INPUT, run.code(), r[0] + " " + r[1] + ": " + run.err());
      assertTrue(run.err().contains("records.jsonl:2: " + (r[0].equals("d") ? "user" : "db_id")) && run.err().contains("plain name"),
          run.err());
      try (var files = Files.walk(dir)) {
        assertEquals(List.of(records), files.filter(Files::isRegularFile).toList(), r[0] + " " + r[1]);
      }
    }
    Files.writeString(records, record("d", "User_1") + "\n");
    CommandRun ok = CommandRun.of("generate", "--access-records", records.toString(), "--profile", "grants",
        "--out", out.toString());
    assertEquals(0, ok.code(), ok.err());
    assertTrue(Files.isRegularFile(out.resolve("User_1/access.json")));
  }
}

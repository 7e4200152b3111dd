package rolepolicy.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rolepolicy.Golden;
import rolepolicy.TestData;
import rolepolicy.spider.AccessRecord;
import rolepolicy.spider.AccessRecords;
import rolepolicy.io.DatasetWriter;

/** decide on Spider-AC's part: every record's decision is PostgreSQL's, and bad records are named. */
class DecideCommandTest {
  @TempDir Path dir;

  @Test
  void everyDecisionOfSpiderAcsPartIsPostgresqls() throws Exception {
    CommandRun run = CommandRun.of("decide", TestData.rcrFile().toString(), "--out", dir.toString());
    assertEquals(0, run.code(), run.err());
    assertTrue(run.out().contains("agreement with ground_truth_label: 6,904 of 6,904 (100.00 %)"), run.out());
    List<AccessRecord> records = AccessRecords.read(TestData.rcrFile());
    List<String> lines = Files.readAllLines(dir.resolve("decisions.jsonl"), StandardCharsets.UTF_8);
    assertEquals(records.size(), lines.size());
    Map<String, Integer> byRule = new TreeMap<>();
    for (int i = 0; i < lines.size(); i++) {
      JsonNode d = DatasetWriter.JSON.readTree(lines.get(i));
      AccessRecord r = records.get(i);
      assertEquals(r.line(), d.get("line").asInt());
      assertEquals(r.labelDecision(), d.get("decision").asText(), lines.get(i));
      byRule.merge(d.get("decision").asText() + " " + d.get("rule").asText("-"), 1, Integer::sum);
    }
    StringBuilder golden = new StringBuilder("decisions by rule:\n");
    byRule.forEach((rule, n) -> golden.append(n).append('\t').append(rule).append('\n'));
    golden.append("first 12 lines:\n");
    lines.stream().limit(12).forEach(l -> golden.append(l).append('\n'));
    Golden.check(Path.of("src/test/resources/golden/decide-spider-ac.txt"), golden.toString(), "decide's decisions");
  }

  @Test
  void aRecordThatCannotBeReadIsNamedByFileAndLine() throws Exception {
    Path bad = dir.resolve("bad.jsonl");
    String good = "{\"db_id\":\"d\",\"user\":\"User_1\",\"query\":\"SELECT a FROM t\",\"access_policy_sql\":"
        + "\"GRANT USAGE ON SCHEMA d TO d_User_1; GRANT SELECT (a) ON d.t TO d_User_1\",\"schema_ddl\":"
        + "\"CREATE TABLE t (a text, b text);\",\"ground_truth_label\":\"[]\"}";
    Files.writeString(bad, good + "\n{\"db_id\": 3}\n");
    CommandRun notJson = CommandRun.of("decide", bad.toString(), "--out", dir.resolve("out").toString());
    assertEquals(Main.BAD_INPUT, notJson.code());
    assertTrue(notJson.err().contains("bad.jsonl:2: field 'db_id' is missing or not a string"), notJson.err());
    assertFalse(Files.exists(dir.resolve("out/decisions.jsonl")));

    Files.writeString(bad, good + "\n" + good.replace("GRANT SELECT (a)", "GRANT SELECT (a") + "\n");
    CommandRun grant = CommandRun.of("decide", bad.toString(), "--out", dir.resolve("out").toString());
    assertEquals(Main.BAD_INPUT, grant.code());
    assertTrue(grant.err().contains("bad.jsonl:2 (access_policy_sql):1: expected ), found 'ON'"), grant.err());

    Files.writeString(bad, good.replace("SELECT a FROM t", "SELECT c FROM t") + "\n");
    CommandRun query = CommandRun.of("decide", bad.toString(), "--out", dir.resolve("out").toString());
    assertEquals(Main.BAD_INPUT, query.code());
    assertTrue(query.err().contains("bad.jsonl:1: query: cannot resolve column c"), query.err());

    Files.writeString(bad, good + "\n");
    CommandRun ok = CommandRun.of("decide", bad.toString(), "--out", dir.resolve("out").toString());
    assertEquals(0, ok.code(), ok.err());
    assertTrue(ok.out().contains("agreement with ground_truth_label: 1 of 1 (100.00 %)"), ok.out());
  }

  @Test
  void aFileTheToolDidNotWriteIsReplacedOnlyWithForce() throws Exception {
    Path records = dir.resolve("r.jsonl");
    Files.writeString(records, "{\"db_id\":\"d\",\"user\":\"User_1\",\"query\":\"SELECT a FROM t\",\"access_policy_sql\":"
        + "\"GRANT USAGE ON SCHEMA d TO d_User_1; GRANT SELECT (a) ON d.t TO d_User_1\",\"schema_ddl\":"
        + "\"CREATE TABLE t (a text, b text);\",\"ground_truth_label\":\"[]\"}\n");
    Path out = Files.createDirectories(dir.resolve("out"));
    Files.writeString(out.resolve("decisions.jsonl"), "someone else's\n");
    CommandRun refused = CommandRun.of("decide", records.toString(), "--out", out.toString());
    assertEquals(Main.USAGE, refused.code(), refused.err());
    assertTrue(refused.err().contains("give --force to replace it"), refused.err());
    assertEquals("someone else's\n", Files.readString(out.resolve("decisions.jsonl")));
    CommandRun forced = CommandRun.of("decide", records.toString(), "--out", out.toString(), "--force");
    assertEquals(0, forced.code(), forced.err());
    assertTrue(Files.readString(out.resolve("decisions.jsonl")).contains("\"decision\":\"PERMIT\""));
  }

  @Test
  void anEmptyRecordsFileIsAnErrorNotAFullAgreement() throws Exception {
    for (String text : List.of("", "\n  \n")) {
      Path empty = Files.writeString(dir.resolve("empty.jsonl"), text);
      CommandRun run = CommandRun.of("decide", empty.toString(), "--out", dir.resolve("out").toString());
      assertEquals(Main.BAD_INPUT, run.code(), run.out());
      assertTrue(run.err().contains("empty.jsonl: no records"), run.err());
      assertFalse(run.out().contains("100.00 %"), run.out());
      assertFalse(Files.exists(dir.resolve("out/decisions.jsonl")));
    }
  }

  @Test
  void aTableOfAnotherSchemaIsNotTheDatabasesOwn() throws Exception {
    String good = "{\"db_id\":\"d\",\"user\":\"User_1\",\"query\":\"QUERY\",\"access_policy_sql\":"
        + "\"GRANT USAGE ON SCHEMA d TO d_User_1; GRANT SELECT (a) ON d.t TO d_User_1\",\"schema_ddl\":"
        + "\"CREATE TABLE t (a text, b text);\",\"ground_truth_label\":\"[]\"}";
    Path records = dir.resolve("r.jsonl");
    // PostgreSQL: relation "public.t" does not exist; t is in schema d
    Files.writeString(records, good.replace("QUERY", "SELECT a FROM public.t") + "\n");
    CommandRun other = CommandRun.of("decide", records.toString(), "--out", dir.resolve("out").toString());
    assertEquals(Main.BAD_INPUT, other.code(), other.out());
    assertTrue(other.err().contains("r.jsonl:1: query: unknown table public.t (not in d"), other.err());
    Files.writeString(records, good.replace("QUERY", "SELECT a FROM D.t") + "\n" + good.replace("QUERY", "SELECT a FROM \\\"d\\\".t") + "\n");
    CommandRun own = CommandRun.of("decide", records.toString(), "--out", dir.resolve("out").toString());
    assertEquals(0, own.code(), own.err());
    assertTrue(own.out().contains("PERMIT 2, DENY 0"), own.out());
  }

  @Test
  void aQueryNestedTooDeeplyOrWithTooManyOperatorsIsNamedWithTheLimit() throws Exception {
    Path records = dir.resolve("hostile.jsonl");
    String good = "{\"db_id\":\"d\",\"user\":\"User_1\",\"query\":\"SELECT a FROM t\",\"access_policy_sql\":"
        + "\"GRANT USAGE ON SCHEMA d TO d_User_1; GRANT SELECT (a) ON d.t TO d_User_1\",\"schema_ddl\":"
        + "\"CREATE TABLE t (a text, b text);\",\"ground_truth_label\":\"[]\"}";
    String nested = "SELECT a FROM t WHERE " + "(".repeat(20_000) + "a = 1" + ")".repeat(20_000);
    Files.writeString(records, good + "\n" + good.replace("SELECT a FROM t", nested) + "\n");
    CommandRun deep = CommandRun.of("decide", records.toString(), "--out", dir.resolve("out").toString());
    assertEquals(Main.BAD_INPUT, deep.code(), deep.err());
    assertEquals("error: " + records + ":2: query: the SQL text nests parentheses deeper than the limit of 10\n", deep.err());

    StringBuilder or = new StringBuilder("SELECT a FROM t WHERE a = 0");
    for (int i = 1; i < 100_000; i++) {
      or.append(" OR a = ").append(i % 10);
    }
    Files.writeString(records, good.replace("SELECT a FROM t", or.toString()) + "\n");
    CommandRun chain = CommandRun.of("decide", records.toString(), "--out", dir.resolve("out").toString());
    assertEquals(Main.BAD_INPUT, chain.code(), chain.err());
    assertEquals("error: " + records + ":1: query: the SQL text is 900,018 characters long, over the limit of 100,000\n",
        chain.err());

    Files.writeString(records, good.replace("SELECT a FROM t", or.substring(0, 20_000)) + "\n");
    CommandRun operators = CommandRun.of("decide", records.toString(), "--out", dir.resolve("out").toString());
    assertEquals(Main.BAD_INPUT, operators.code(), operators.err());
    assertEquals("error: " + records + ":1: query: the SQL text has more than 1,000 operators (AND, OR, + - * / = < > ...),"
        + " the limit\n", operators.err());
    assertFalse(Files.exists(dir.resolve("out/decisions.jsonl")));
  }
}

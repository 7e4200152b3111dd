package rolepolicy.interact;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rolepolicy.TestData;
import rolepolicy.io.DatasetWriter;
import rolepolicy.generate.SpiderRun;

/**
 * The loop on Spider dev with the policy user: round 0 is Spider's original SQL (or a predictions
 * file), and every later round comes from a policy clarification worded by the rules.
 */
class SpiderPolicyLoopTest {
  @TempDir static Path dir;
  static Path dataset;
  static JsonNode records;

  @BeforeAll
  static void generateDev() throws Exception {
    records = SpiderRun.records("dev", "dev.json");
    dataset = dir.resolve("dev.json");
    DatasetWriter.JSON.writeValue(dataset.toFile(), records);
  }

  private static JsonNode play(Path out, String... extra) throws Exception {
    List<String> args = new java.util.ArrayList<>(List.of("interact", "--dataset", dataset.toString(),
        "--db", TestData.spiderDir().resolve("database").toString(),
        "--tables", TestData.spiderDir().resolve("tables.json").toString(), "--out", out.toString()));
    args.addAll(List.of(extra));
    StringWriter stdout = new StringWriter();
    StringWriter stderr = new StringWriter();
    int code = ReplayTest.run(stdout, stderr, args.toArray(String[]::new));
    assertEquals(0, code, stderr.toString());
    assertTrue(stdout.toString().contains("compliant  REFUSE P  REFUSE R  EX (evaluate)"), stdout.toString());
    return new ObjectMapper().readTree(out.resolve("log.json").toFile()).get("records");
  }

  @Test
  void withThePolicyUserTheOriginalSqlEndsAtTheGoldLabelWithinTwoClarifications() throws Exception {
    Path out = dir.resolve("original");
    JsonNode log = play(out);
    Map<String, JsonNode> gold = new HashMap<>();
    records.forEach(r -> gold.put(r.get("id").asText(), r.get("gold_label")));
    int played = 0;
    int clarified = 0;
    int r1NotOffered = 0;
    int countNotOffered = 0;
    for (JsonNode q : log) {
      if (q.has("skipped")) {
        assertEquals("wta_1", q.get("db_id").asText(), "only wta_1 has no SQLite file");
        continue;
      }
      played++;
      JsonNode label = gold.get(q.get("id").asText());
      JsonNode rounds = q.get("rounds");
      String last = rounds.get(rounds.size() - 1).get("answer").asText();
      String expected = label.get("type").asText().equals("REFUSE") ? "REFUSE" : label.get("sql").asText();
      assertEquals(expected, last, q.get("id").asText());
      assertTrue(q.get("cq_log").size() <= 2, q.toPrettyString());
      assertEquals(q.get("cq_log").size(), q.get("num_cq_asked").asInt(), "every clarification is one round");
      for (JsonNode cq : q.get("cq_log")) {
        assertEquals("rules", cq.get("asked_by").asText());
        assertTrue(cq.get("rule").asText().startsWith("Ask about"), cq.toString());
        for (JsonNode not : cq.path("not_offered")) {
          // R1's _id column is itself JoinOnly, and COUNT(DISTINCT key) counts values: proposed, checked, not offered
          String why = not.get("why").asText();
          if (not.get("code").asText().equals("R1")) {
            assertTrue(why.matches("the edited text violates \\[.*JoinOnly.*\\]"), cq.toString());
            r1NotOffered++;
          } else {
            assertEquals("COUNT(*)", not.get("code").asText());
            assertTrue(why.contains("is not the bare argument of COUNT: count(DISTINCT"), why);
            countNotOffered++;
          }
        }
      }
      clarified += q.get("cq_log").isEmpty() ? 0 : 1;
    }
    assertEquals(972, played, "Spider dev less wta_1's 62 questions");
    assertTrue(clarified > 250, "clarified " + clarified);
    assertEquals(105, r1NotOffered, "the questions played whose first rewrite is R1");
    assertEquals(10, countNotOffered, "the questions that count DISTINCT keys");
    JsonNode byRound = new ObjectMapper().readTree(out.resolve("summary.json").toFile()).get("by_round");
    JsonNode round2 = byRound.get(2).get("policy");
    assertEquals(1.0, round2.at("/compliance/compliant_rate").asDouble());
    assertEquals(1.0, round2.at("/refuse/precision").asDouble());
    assertEquals(1.0, round2.at("/refuse/recall").asDouble());
    assertEquals(1.0, round2.at("/execution/match_rate").asDouble());
    assertTrue(byRound.get(0).at("/policy/compliance/compliant_rate").asDouble() < 0.8);
    assertEquals(0.0, byRound.get(0).at("/policy/refuse/recall").asDouble());
    assertTrue(Files.isRegularFile(out.resolve("rounds.png")));
  }

  @Test
  void negativeExamplesAsRoundZeroGetTheUsersAnswerFromTheGoldLabel() throws Exception {
    Path predictions = dir.resolve("negatives.jsonl");
    StringBuilder lines = new StringBuilder();
    Map<String, JsonNode> gold = new HashMap<>();
    for (JsonNode r : records) {
      gold.put(r.get("id").asText(), r.get("gold_label"));
      JsonNode negatives = r.get("negative_examples");
      lines.append(DatasetWriter.JSON.writeValueAsString(Map.of("id", r.get("id").asText(),
          "prediction", negatives.isEmpty() ? "REFUSE" : negatives.get(0).get("sql").asText()))).append('\n');
    }
    Files.writeString(predictions, lines);
    Path out = dir.resolve("negatives");
    JsonNode log = play(out, "--pred", predictions.toString(), "--comparison", "strict");
    JsonNode summary = new ObjectMapper().readTree(out.resolve("summary.json").toFile());
    assertEquals("strict", summary.get("comparison").asText());
    JsonNode byRound = summary.get("by_round");
    assertEquals(0.0, byRound.get(0).at("/policy/compliance/compliant_rate").asDouble(), "every negative violates");
    assertEquals(1.0, byRound.get(1).at("/policy/refuse/recall").asDouble(), byRound.get(1).toString());
    int asked = 0;
    int others = 0;
    for (JsonNode q : log) {
      JsonNode label = gold.get(q.get("id").asText());
      JsonNode feedback = q.get("feedback_log");
      int rewrites = 0;
      for (int i = 0; i < feedback.size(); i++) {
        asked++;
        String option = feedback.get(i).get("option").asText();
        assertEquals("policy user", feedback.get(i).get("answered_by").asText());
        // REFUSE for a REFUSE gold label; else the gold label's next rewrite when it is offered on the
        // same column (the negative kept that violation); else "other"
        String expected = "OTHER";
        if (label.get("type").asText().equals("REFUSE")) {
          expected = "REFUSE";
        } else if (rewrites < label.get("steps").size()) {
          JsonNode step = label.get("steps").get(rewrites);
          for (JsonNode offered : q.get("cq_log").get(i).get("options")) {
            if (offered.get("code").asText().equals(step.get("rule").asText())
                && offered.get("text").asText().contains(step.get("column").asText())) {
              expected = offered.get("code").asText();
            }
          }
        }
        assertEquals(expected, option, q.toPrettyString());
        if (option.equals("OTHER")) {
          // the policy user says what, in words from the gold label: its rewrite not offered, else its SQL's columns
          String answer = feedback.get(i).get("answer").asText();
          assertTrue(rewrites < label.get("steps").size()
              ? answer.startsWith("Something else: show ") && answer.contains(label.get("steps").get(rewrites).get("column").asText())
              : answer.startsWith("Something else: answer with SQL that keeps to the policies and uses "), answer);
          others++;
        }
        rewrites += option.startsWith("R") ? 1 : 0;
      }
    }
    assertTrue(asked > 400, "asked " + asked);
    assertTrue(others > 100, "OTHER " + others);
  }

  /**
   * Every option with an edit, offered for Spider dev's original SQL or any of its negative
   * examples, gives compliant SQL when chosen; COUNT of a JoinOnly key, asked about, is offered
   * COUNT(*) unless the edit fails its check.
   */
  @Test
  void everyOfferedEditGivesCompliantSqlAndCountOfAKeyIsOfferedCountStar() throws Exception {
    PolicyClarifier clarifier = new PolicyClarifier(TestData.engine(), TestData.schemas(), TestData.spiderRunner());
    Map<String, Integer> offered = new java.util.TreeMap<>();
    List<String> countNotOffered = new java.util.ArrayList<>();
    int asked = 0;
    int weaker = 0;
    for (InteractQuestion q : QuestionSet.read(dataset)) {
      if (!Files.isRegularFile(TestData.spiderDir().resolve("database").resolve(q.dbId()).resolve(q.dbId() + ".sqlite"))) {
        continue;
      }
      List<String> texts = new java.util.ArrayList<>(List.of(q.policy().record().originalSql()));
      records.get(q.index()).get("negative_examples").forEach(n -> texts.add(n.get("sql").asText()));
      String weakerSql = countOfAKey(q.policy().record());
      if (weakerSql != null) {
        texts.add(weakerSql);
      }
      for (String sql : texts) {
        PolicyClarifier.Check check = clarifier.check(q.policy().record(), sql, 0);
        if (check.question() == null) {
          continue; // COUNT of a key in HAVING or ORDER BY filters or orders: JoinOnly allows it
        }
        weaker += sql.equals(weakerSql) ? 1 : 0;
        asked++;
        for (var option : check.options()) {
          offered.merge(option.code(), 1, Integer::sum);
          if (option.edit() != null) {
            PolicyClarifier.Check after = clarifier.check(q.policy().record(), option.edit().sql(), 1);
            assertTrue(after.compliant(), q.id() + " " + option + " gives " + after.violations());
          }
        }
        var v = check.question().violation();
        boolean countOfKey = v != null && v.policy() == rolepolicy.model.Policy.JoinOnly
            && v.ref().role() == rolepolicy.model.Role.AggArg && v.ref().aggregate().id() == 3;
        if (countOfKey && check.options().stream().noneMatch(o -> o.code().equals("COUNT(*)"))) {
          countNotOffered.add(q.id() + ": " + check.edits().get(0).problem());
        }
      }
    }
    assertTrue(asked > 900, "asked " + asked);
    System.out.println("options offered: " + offered + "; COUNT of a key without COUNT(*): " + countNotOffered);
    assertTrue(weaker > 30, "COUNT of a key written for " + weaker);
    assertEquals(weaker, offered.get("COUNT(*)"), offered.toString());
    for (String why : countNotOffered) {
      assertTrue(why.contains("is not the bare argument of COUNT: count(DISTINCT"), why);
    }
  }

  /**
   * A weaker model's SQL: the record's compliant original SQL of one table without join or
   * subquery, with its one {@code count(*)} written as COUNT of the table's first JoinOnly column.
   */
  private static String countOfAKey(rolepolicy.evaluate.GoldRecord gold) {
    String sql = gold.originalSql();
    java.util.regex.Matcher from = java.util.regex.Pattern.compile("(?i)\\bFROM\\s+(\\w+)").matcher(sql);
    if (gold.refuse() || !gold.goldSql().equals(sql) || sql.split("(?i)count\\s*\\(\\s*\\*\\s*\\)", -1).length != 2
        || sql.split("(?i)\\bselect\\b", -1).length != 2 || sql.matches("(?is).*\\bjoin\\b.*") || !from.find()) {
      return null;
    }
    String table = from.group(1).toLowerCase(java.util.Locale.ROOT) + ".";
    return gold.policies().entrySet().stream()
        .filter(e -> e.getKey().startsWith(table) && e.getValue().equals("JoinOnly")).findFirst()
        .map(e -> sql.replaceFirst("(?i)count\\s*\\(\\s*\\*\\s*\\)", "count(" + e.getKey().substring(table.length()) + ")"))
        .orElse(null);
  }
}

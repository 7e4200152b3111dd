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
import rolepolicy.generate.DatasetWriter;
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
    List<String> args = new java.util.ArrayList<>(List.of("interact", "--questions", dataset.toString(),
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
      }
      clarified += q.get("cq_log").isEmpty() ? 0 : 1;
    }
    assertTrue(played > 950, "played " + played);
    assertTrue(clarified > 250, "clarified " + clarified);
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
        rewrites += option.startsWith("R") ? 1 : 0;
      }
    }
    assertTrue(asked > 400, "asked " + asked);
  }
}

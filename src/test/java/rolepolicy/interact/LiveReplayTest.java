package rolepolicy.interact;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rolepolicy.llm.LocalChatServer;
import rolepolicy.llm.LocalChatServer.Reply;

/**
 * A live baseline run's log has the recorded baseline logs' shape: {@code --replay} of it plays the
 * same SQL to the same results, question by question.
 */
class LiveReplayTest {
  static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  /** The fields a replay must reproduce: every SQL's round, kind, text, result and perplexity, and the outcome. */
  private static void assertSamePlay(JsonNode live, JsonNode replayed) {
    assertEquals(live.size(), replayed.size());
    for (int i = 0; i < live.size(); i++) {
      JsonNode a = live.get(i);
      JsonNode b = replayed.get(i);
      assertEquals(a.get("sql_log"), b.get("sql_log"), "question " + i + ": " + a.toPrettyString() + b.toPrettyString());
      assertEquals(a.get("num_cq_asked"), b.get("num_cq_asked"));
      assertEquals(a.get("num_cq_asked").asText(), b.get("recorded_num_cq_asked").asText());
      assertEquals(a.get("rounds"), b.get("rounds"));
    }
  }

  @Test
  void aLiveBaselineWithNoSqlAnErrorAndItsRepairIsReplayedQuestionByQuestion() throws Exception {
    ArrayNode all = (ArrayNode) JSON.readTree(ReplayTest.QUESTIONS.toFile());
    ArrayNode three = JSON.createArrayNode();
    List<JsonNode> picked = new ArrayList<>();
    for (JsonNode q : all) {
      if (q.get("db").asText().equals("GeoNuclearData") && three.size() < 3) {
        three.add(q.deepCopy());
        ((com.fasterxml.jackson.databind.node.ObjectNode) three.get(three.size() - 1)).put("i", three.size() - 1);
        picked.add(q);
      }
    }
    Path questions = dir.resolve("questions.json");
    JSON.writeValue(questions.toFile(), three);
    try (LocalChatServer server = new LocalChatServer(request -> {
      String p = request.prompt();
      boolean later = p.contains("Write a different SQLite query");
      List<Double> lp = List.of(-0.05 * (1 + server_count(p)));
      if (p.contains(picked.get(0).get("nl").asText())) {
        return Reply.withLogprobs(later ? "```sql\n" + picked.get(0).get("sql").asText() + "\n```"
            : "I am sorry, I cannot write that query.", lp);
      }
      if (p.contains(picked.get(1).get("nl").asText())) {
        if (p.contains("This query fails")) {
          return Reply.withLogprobs("SELECT 42", lp);
        }
        return Reply.withLogprobs(later ? "```sql\n" + picked.get(1).get("sql").asText() + "\n```"
            : "```sql\nSELECT no_such_column FROM nuclear_power_plants;\n```", lp);
      }
      return Reply.text("```sql\n" + picked.get(2).get("sql").asText() + "\n```");
    })) {
      StringWriter err = new StringWriter();
      Path live = dir.resolve("live");
      assertEquals(0, ReplayTest.run(new StringWriter(), err, "interact", "--dataset", questions.toString(),
          "--db", ReplayTest.DATABASES.toString(), "--model", "--method", "baseline", "--llm-url", server.baseUrl(),
          "--llm-model", "m", "--llm-retries", "0",
          "--out", live.toString()), err.toString());
      JsonNode liveLog = JSON.readTree(live.resolve("log.json").toFile()).get("records");
      assertTrue(liveLog.at("/0/sql_log/0/result").asText().startsWith("no SQL"), liveLog.toPrettyString());
      assertEquals(List.of("generate", "fix", "generate"),
          liveLog.at("/1/sql_log").findValuesAsText("kind"), liveLog.get(1).toPrettyString());
      assertTrue(liveLog.at("/1/sql_log/0/result").asText().startsWith("error: "));
      for (JsonNode r : liveLog) {
        for (String field : List.of("index", "db_id", "question", "gold_sql", "sql_log", "num_cq_asked")) {
          assertTrue(r.has(field), "the recorded logs' field " + field);
        }
        for (JsonNode e : r.get("sql_log")) {
          for (String field : List.of("order", "kind", "sql")) {
            assertTrue(e.has(field), "the recorded logs' field " + field);
          }
        }
      }
      Path replay = dir.resolve("replay");
      StringWriter out = new StringWriter();
      assertEquals(0, ReplayTest.run(out, err, "interact", "--dataset", questions.toString(),
          "--db", ReplayTest.DATABASES.toString(), "--replay", live.resolve("log.json").toString(),
          "--out", replay.toString()), err.toString());
      assertSamePlay(liveLog, JSON.readTree(replay.resolve("log.json").toFile()).get("records"));
      assertTrue(out.toString().contains("recorded outcome reached: 3 of 3"), out.toString());
    }
  }

  /** A different log-probability per prompt, so that a replay that mixed up entries would show it. */
  private static int server_count(String prompt) {
    return Math.floorMod(prompt.length(), 7);
  }

  @Test
  void aLiveBaselineAgainstTheStandInOfARecordedRunIsReplayedQuestionByQuestion() throws Exception {
    Path recorded = ReplayTest.SHARED.resolve("sphinteract/logs/gpt4turbo_baseline_4round.json");
    StringWriter err = new StringWriter();
    StringWriter out = new StringWriter();
    Path live = dir.resolve("live");
    assertEquals(0, ReplayTest.run(out, err, "interact", "--dataset", ReplayTest.QUESTIONS.toString(),
        "--db", ReplayTest.DATABASES.toString(), "--model", "--method", "baseline", "--stand-in", recorded.toString(),
        "--parallel", "2", "--out", live.toString()), err.toString());
    JsonNode liveLog = JSON.readTree(live.resolve("log.json").toFile()).get("records");
    JsonNode recordedLog = JSON.readTree(recorded.toFile()).get("records");
    int played = 0;
    int same = 0;
    for (JsonNode r : liveLog) {
      if (r.has("skipped")) {
        continue;
      }
      played++;
      JsonNode rec = recordedLog.get(r.get("index").asInt());
      same += rec.get("num_cq_asked").asText().equals(r.get("num_cq_asked").asText()) ? 1 : 0;
      JsonNode first = r.at("/sql_log/0");
      assertEquals(rec.at("/sql_log/0/perplexity").asDouble(), first.get("perplexity").asDouble(), 1e-9,
          "the recorded perplexity comes back through the log-probabilities");
    }
    assertEquals(63, played);
    assertEquals(63, same, "the stand-in's answers are the recorded run's: " + same + " of 63 reach its outcome");
    Path replay = dir.resolve("replay");
    StringWriter replayOut = new StringWriter();
    assertEquals(0, ReplayTest.run(replayOut, err, "interact", "--dataset", ReplayTest.QUESTIONS.toString(),
        "--db", ReplayTest.DATABASES.toString(), "--replay", live.resolve("log.json").toString(),
        "--out", replay.toString()), err.toString());
    JsonNode replayLog = JSON.readTree(replay.resolve("log.json").toFile()).get("records");
    List<JsonNode> playedLive = new ArrayList<>();
    List<JsonNode> playedReplay = new ArrayList<>();
    for (int i = 0; i < liveLog.size(); i++) {
      if (!liveLog.get(i).has("skipped")) {
        playedLive.add(liveLog.get(i));
        playedReplay.add(replayLog.get(i));
      }
    }
    assertSamePlay(JSON.valueToTree(playedLive), JSON.valueToTree(playedReplay));
    assertTrue(replayOut.toString().contains("recorded outcome reached: 63 of 63"), replayOut.toString());
    System.out.println("stand-in of " + recorded.getFileName() + ": " + same + " of 63 reach the recorded outcome");
  }
}

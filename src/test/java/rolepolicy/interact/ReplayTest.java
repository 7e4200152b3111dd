package rolepolicy.interact;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;
import rolepolicy.cli.Main;
import rolepolicy.llm.ModelAnswer;

/**
 * Replays of the recorded KaggleDBQA runs ({@code ../shared/sphinteract/logs}) on the 63 questions
 * whose database is here: each must end at the recorded round of success.
 */
class ReplayTest {
  static final Path SHARED = Path.of("..", "shared");
  static final Path QUESTIONS = SHARED.resolve("sphinteract/kaggledbqa_208_test_order.json");
  static final Path DATABASES = SHARED.resolve("kaggledbqa/databases");

  static int run(StringWriter out, StringWriter err, String... args) {
    return Main.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
  }

  @ParameterizedTest
  @ValueSource(strings = {
    "gpt35_baseline_4round", "gpt4turbo_baseline_4round", "kaggle_gpt35_baseline_4round_1shot",
    "kaggle_gpt35_baseline_4round_3shot", "kaggle_gpt35_baseline_4round_5shot"})
  void replayReachesTheRecordedRoundOfSuccessOnEveryReplayableQuestion(String run, @TempDir Path out) throws Exception {
    StringWriter stdout = new StringWriter();
    StringWriter stderr = new StringWriter();
    int code = run(stdout, stderr, "interact", "--dataset", QUESTIONS.toString(), "--db", DATABASES.toString(),
        "--replay", SHARED.resolve("sphinteract/logs/" + run + ".json").toString(), "--out", out.toString());
    assertEquals(0, code, stderr.toString());
    JsonNode summary = new ObjectMapper().readTree(out.resolve("summary.json").toFile());
    assertEquals(63, summary.get("played").asInt());
    assertEquals(145, summary.at("/skipped/no database").asInt());
    assertEquals(63, summary.at("/recorded_agreement/agree").asInt(), summary.toPrettyString());
    for (JsonNode round : summary.get("by_round")) {
      assertEquals(round.get("recorded_matched").asInt(), round.get("matched").asInt());
      assertEquals(0, round.get("asked").asInt(), "a replay of a run without questions asks none");
    }
    JsonNode log = new ObjectMapper().readTree(out.resolve("log.json").toFile()).get("records");
    assertEquals(208, log.size());
    assertTrue(stdout.toString().contains("recorded outcome reached: 63 of 63"), stdout.toString());
    assertTrue(Files.notExists(out.resolve(InteractRun.PROGRESS)), "the progress file goes once the outputs are written");
  }

  @Test
  void aRoundWhoseSqlFailsToRunIsRepairedByTheRecordedFix(@TempDir Path out) throws Exception {
    // gpt35 zero-shot, question 158 (StudentMathScore): every round's SQL fails to run, and no fix matches
    StringWriter stdout = new StringWriter();
    StringWriter stderr = new StringWriter();
    int code = run(stdout, stderr, "interact", "--dataset", QUESTIONS.toString(), "--db", DATABASES.toString(),
        "--replay", SHARED.resolve("sphinteract/logs/gpt35_baseline_4round.json").toString(), "--out", out.toString());
    assertEquals(0, code, stderr.toString());
    JsonNode record = new ObjectMapper().readTree(out.resolve("log.json").toFile()).get("records").get(158);
    assertEquals("StudentMathScore", record.get("db_id").asText());
    JsonNode log = record.get("sql_log");
    assertEquals(10, log.size(), log.toPrettyString());
    for (int i = 0; i < 10; i++) {
      assertEquals(i % 2 == 0 ? "generate" : "fix", log.get(i).get("kind").asText());
      assertEquals(i / 2, log.get(i).get("round").asInt());
      String result = log.get(i).get("result").asText();
      assertTrue(i % 2 == 0 ? result.startsWith("error: ") : !result.equals("match"), log.get(i).toString());
    }
    assertEquals("Failed", record.get("num_cq_asked").asText());
    JsonNode recorded = new ObjectMapper().readTree(SHARED.resolve("sphinteract/logs/gpt35_baseline_4round.json").toFile())
        .get("records").get(158).get("sql_log");
    for (int i = 0; i < 10; i++) {
      assertEquals(ModelAnswer.authorsClean(recorded.get(i).get("sql").asText()), log.get(i).get("sql").asText(),
          "the recorded SQL is the one run, fix included");
    }
  }

  @Test
  void aLogOfOtherQuestionsIsRefusedWithTheRecordThatDiffers(@TempDir Path out) {
    StringWriter stdout = new StringWriter();
    StringWriter stderr = new StringWriter();
    int code = run(stdout, stderr, "interact", "--dataset", SHARED.resolve("sphinteract/bird_sampled_dev_176.json").toString(),
        "--db", DATABASES.toString(), "--replay", SHARED.resolve("sphinteract/logs/gpt35_baseline_4round.json").toString(),
        "--out", out.toString());
    assertEquals(1, code);
    String message = stderr.toString();
    assertTrue(message.contains("gpt35_baseline_4round.json: record #1 (index 0) asks 'Name the most popular release on houston.'"),
        message);
    assertTrue(message.contains("the log is not a run over these questions"), message);
    assertTrue(Files.notExists(out.resolve("log.json")));
  }
}

package rolepolicy.interact;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rolepolicy.llm.LocalChatServer;
import rolepolicy.llm.LocalChatServer.Reply;
import rolepolicy.llm.LocalChatServer.Request;

/**
 * The paper's methods against a local chat-completions server: the baseline (no question, the
 * wrong SQL shown again), few-shot examples from the user study, and the perplexity of each answer.
 */
class MethodsTest {
  static final Path USER_STUDY = ReplayTest.SHARED.resolve("sphinteract/user_study.json");
  static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;
  Path questions;
  List<JsonNode> picked = new ArrayList<>();

  @BeforeEach
  void pickQuestions() throws Exception {
    ArrayNode all = (ArrayNode) JSON.readTree(ReplayTest.QUESTIONS.toFile());
    ArrayNode three = JSON.createArrayNode();
    for (JsonNode q : all) {
      if (q.get("db").asText().equals("GeoNuclearData") && three.size() < 3) {
        three.add(q);
        picked.add(q);
      }
    }
    questions = dir.resolve("questions.json");
    JSON.writeValue(questions.toFile(), three);
  }

  private int interact(LocalChatServer server, StringWriter err, Path out, String... extra) {
    List<String> args = new ArrayList<>(List.of("interact", "--dataset", questions.toString(),
        "--db", ReplayTest.DATABASES.toString(), "--model", "--llm-url", server.baseUrl(), "--llm-model", "test-model",
        "--llm-retries", "0", "--out", out.toString()));
    args.addAll(List.of(extra));
    return ReplayTest.run(new StringWriter(), err, args.toArray(String[]::new));
  }

  private static boolean baselinePrompt(String prompt) {
    return prompt.contains("Write a different SQLite query");
  }

  private static boolean askPrompt(String prompt) {
    return prompt.contains("Ask the user one multiple-choice question");
  }

  /** Round 0 answers a wrong query; the baseline's prompt gives the gold one. */
  private Function<Request, Reply> wrongThenRight() {
    return request -> {
      String prompt = request.prompt();
      if (askPrompt(prompt)) {
        return Reply.text("Which rows? A) some B) all C) Other");
      }
      if (prompt.contains("A clarification question about it")) {
        return Reply.text("A) some.");
      }
      for (JsonNode q : picked) {
        if (prompt.contains(q.get("nl").asText())) {
          return Reply.text(baselinePrompt(prompt) ? "```sql\n" + q.get("sql").asText() + "\n```" : "```sql\nSELECT 42;\n```");
        }
      }
      return Reply.error(400);
    };
  }

  @Test
  void theBaselineAsksNoQuestionAndItsPromptShowsTheEarlierSql() throws Exception {
    try (LocalChatServer server = new LocalChatServer(wrongThenRight())) {
      StringWriter err = new StringWriter();
      assertEquals(0, interact(server, err, dir.resolve("out"), "--method", "baseline"), err.toString());
      assertTrue(server.requests().stream().map(Request::prompt).noneMatch(MethodsTest::askPrompt), "no question is asked");
      assertTrue(server.requests().stream().map(Request::prompt).noneMatch(p -> p.contains("A clarification question")),
          "nobody answers one");
      assertEquals(6, server.requests().size(), "per question: round 0, round 1");
      for (JsonNode q : picked) {
        List<String> prompts = server.requests().stream().map(Request::prompt).filter(p -> p.contains(q.get("nl").asText())).toList();
        assertFalse(baselinePrompt(prompts.get(0)), "round 0 is the generate prompt of both methods");
        assertTrue(baselinePrompt(prompts.get(1)));
        assertTrue(prompts.get(1).contains("against its policy):\nSELECT 42\n"), prompts.get(1));
      }
      JsonNode records = JSON.readTree(dir.resolve("out/log.json").toFile()).get("records");
      for (JsonNode r : records) {
        assertEquals(0, r.get("cq_log").size());
        assertEquals(0, r.get("feedback_log").size());
        assertEquals(1, r.get("num_cq_asked").asInt());
        assertFalse(r.has("examples"), "zero-shot: no examples");
      }
      JsonNode summary = JSON.readTree(dir.resolve("out/summary.json").toFile());
      assertEquals("baseline", summary.get("method").asText());
      assertEquals(0, summary.get("shots").asInt());
      assertEquals(3, summary.at("/by_round/1/matched").asInt());
      assertEquals(0, summary.at("/by_round/1/asked").asInt());
    }
  }

  @Test
  void theQuestionsMethodStillAsks() throws Exception {
    try (LocalChatServer server = new LocalChatServer(wrongThenRight())) {
      StringWriter err = new StringWriter();
      assertEquals(0, interact(server, err, dir.resolve("out"), "--rounds", "1"), err.toString());
      assertEquals(3, server.requests().stream().map(Request::prompt).filter(MethodsTest::askPrompt).count());
      assertTrue(server.requests().stream().map(Request::prompt).noneMatch(MethodsTest::baselinePrompt));
    }
  }

  /** The examples shown in a prompt: the question of each. */
  private static List<String> shown(String prompt) {
    Matcher m = Pattern.compile("Example question \\(([^)]*)\\): (.*)").matcher(prompt);
    List<String> out = new ArrayList<>();
    while (m.find()) {
      out.add(m.group(1) + ": " + m.group(2));
    }
    return out;
  }

  @Test
  void threeShotsShowTheThreeNearestUserStudyQuestionsButNeverTheQuestionItself() throws Exception {
    // the questions are the user study's own GeoNuclearData questions 56, 57, 58
    ArrayNode study = (ArrayNode) JSON.readTree(USER_STUDY.toFile());
    ArrayNode own = JSON.createArrayNode();
    picked.clear();
    for (int i = 56; i <= 58; i++) {
      JsonNode u = study.get(i);
      own.addObject().put("i", own.size()).put("db", u.get("db").asText()).put("nl", u.get("nl").asText())
          .put("sql", u.get("sql").get(0).asText());
      picked.add(own.get(own.size() - 1));
    }
    JSON.writeValue(questions.toFile(), own);
    try (LocalChatServer server = new LocalChatServer(wrongThenRight())) {
      StringWriter err = new StringWriter();
      assertEquals(0, interact(server, err, dir.resolve("out"), "--shots", "3", "--rounds", "1"), err.toString());
      JsonNode records = JSON.readTree(dir.resolve("out/log.json").toFile()).get("records");
      for (JsonNode r : records) {
        String nl = r.get("question").asText();
        JsonNode examples = r.get("examples");
        assertEquals(3, examples.size(), r.toPrettyString());
        List<String> logged = new ArrayList<>();
        double last = 2;
        for (JsonNode e : examples) {
          assertFalse(e.get("question").asText().equals(nl), "a question is never its own example: " + examples);
          assertEquals(study.get(e.get("index").asInt()).get("nl").asText(), e.get("question").asText());
          assertTrue(e.get("similarity").asDouble() <= last, "most similar first");
          last = e.get("similarity").asDouble();
          logged.add(e.get("db_id").asText() + ": " + e.get("question").asText());
        }
        List<String> prompts = server.requests().stream().map(Request::prompt)
            .filter(p -> p.contains("Question: " + nl)).toList();
        assertEquals(3, prompts.size(), "generate, ask, generate");
        assertTrue(prompts.stream().anyMatch(MethodsTest::askPrompt));
        for (String p : prompts) {
          assertEquals(logged, shown(p), "the prompt shows the logged examples, in order: " + p);
          assertFalse(p.contains("): " + nl + "\n"), "not the question itself");
        }
      }
      // "What’s the most used nuclear reactor model?" and "What nuclear reactor model is the most popular?" are neighbours
      assertEquals(63, records.get(2).at("/examples/0/index").asInt(), records.get(2).toPrettyString());
      String prompt = server.requests().get(0).prompt();
      assertTrue(prompt.contains("Clarification asked and answered:\nQuestion: "), prompt);
    }
  }

  @Test
  void logProbabilitiesBecomeThePerplexityOfEachGenerationAndOfEachRound() throws Exception {
    Function<Request, Reply> scripted = wrongThenRight();
    try (LocalChatServer server = new LocalChatServer(request -> {
      Reply r = scripted.apply(request);
      // SQL answers: log-probabilities -0.2, -0.4 (perplexity e^0.3); the questions and answers: -1
      return baselinePrompt(request.prompt()) || request.prompt().startsWith("You write")
          ? Reply.withLogprobs(r.content(), List.of(-0.2, -0.4)) : Reply.withLogprobs(r.content(), List.of(-1.0));
    })) {
      StringWriter err = new StringWriter();
      assertEquals(0, interact(server, err, dir.resolve("out"), "--rounds", "1"), err.toString());
      assertTrue(server.requests().stream().allMatch(r -> r.body().get("logprobs").asBoolean()), "every request asks for them");
      JsonNode records = JSON.readTree(dir.resolve("out/log.json").toFile()).get("records");
      for (JsonNode r : records) {
        for (JsonNode e : r.get("sql_log")) {
          assertEquals(Math.exp(0.3), e.get("perplexity").asDouble(), 1e-9, e.toString());
        }
        assertEquals(Math.E, r.at("/cq_log/0/perplexity").asDouble(), 1e-9);
        assertEquals(Math.E, r.at("/feedback_log/0/perplexity").asDouble(), 1e-9);
      }
      JsonNode summary = JSON.readTree(dir.resolve("out/summary.json").toFile());
      for (JsonNode round : summary.get("by_round")) {
        assertEquals(Math.exp(0.3), round.get("perplexity").asDouble(), 1e-9);
        assertEquals(3, round.get("perplexities").asInt());
      }
    }
  }

  @Test
  void anEndpointWithoutLogProbabilitiesIsNoErrorAndLogsNoPerplexity() throws Exception {
    try (LocalChatServer server = new LocalChatServer(wrongThenRight())) {
      StringWriter err = new StringWriter();
      assertEquals(0, interact(server, err, dir.resolve("out"), "--rounds", "1"), err.toString());
      JsonNode records = JSON.readTree(dir.resolve("out/log.json").toFile()).get("records");
      for (JsonNode r : records) {
        r.get("sql_log").forEach(e -> assertFalse(e.has("perplexity"), e.toString()));
        assertFalse(r.at("/cq_log/0").has("perplexity"));
      }
      JsonNode summary = JSON.readTree(dir.resolve("out/summary.json").toFile());
      assertNull(summary.at("/by_round/0").get("perplexity"));
      // --no-logprobs: the field is not sent at all
      int before = server.requests().size();
      assertEquals(0, interact(server, err, dir.resolve("out2"), "--rounds", "1", "--no-logprobs"), err.toString());
      assertTrue(server.requests().subList(before, server.requests().size()).stream()
          .noneMatch(r -> r.body().has("logprobs")));
    }
  }

  @Test
  void badMethodOrShotsAreClearErrors() throws Exception {
    try (LocalChatServer server = new LocalChatServer(wrongThenRight())) {
      StringWriter err = new StringWriter();
      assertEquals(2, interact(server, err, dir.resolve("out"), "--method", "clarify"));
      assertTrue(err.toString().contains("--method must be questions or baseline, not 'clarify'"), err.toString());
      err = new StringWriter();
      assertEquals(2, interact(server, err, dir.resolve("out"), "--shots", "2"));
      assertTrue(err.toString().contains("--shots must be 0, 1, 3 or 5, not 2"), err.toString());
      err = new StringWriter();
      assertEquals(2, ReplayTest.run(new StringWriter(), err, "interact", "--dataset", ReplayTest.QUESTIONS.toString(),
          "--db", ReplayTest.DATABASES.toString(), "--replay",
          ReplayTest.SHARED.resolve("sphinteract/logs/gpt35_baseline_4round.json").toString(), "--method", "baseline",
          "--out", dir.resolve("out").toString()));
      assertTrue(err.toString().contains("--method goes with --model"), err.toString());
      assertEquals(0, server.requests().size());
    }
  }
}

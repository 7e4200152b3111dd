package rolepolicy.interact;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rolepolicy.io.OwnedFolder;
import rolepolicy.llm.LocalChatServer;
import rolepolicy.llm.LocalChatServer.Reply;
import rolepolicy.llm.LocalChatServer.Request;

/**
 * The loop with a model behind a local chat-completions server: three real KaggleDBQA questions of
 * GeoNuclearData; the server's answers are scripted by prompt, and every request is checked.
 */
class ModelLoopTest {
  @TempDir Path dir;
  Path questions;
  List<JsonNode> picked = new ArrayList<>();

  @BeforeEach
  void pickQuestions() throws Exception {
    ObjectMapper json = new ObjectMapper();
    ArrayNode all = (ArrayNode) json.readTree(ReplayTest.QUESTIONS.toFile());
    ArrayNode three = json.createArrayNode();
    for (JsonNode q : all) {
      if (q.get("db").asText().equals("GeoNuclearData") && three.size() < 3) {
        three.add(q);
        picked.add(q);
      }
    }
    questions = dir.resolve("questions.json");
    json.writeValue(questions.toFile(), three);
  }

  /** Round 0 answers a wrong query; after one clarification, the gold one. */
  static Function<Request, Reply> scripted(List<JsonNode> questions) {
    return request -> {
      String prompt = request.prompt();
      if (prompt.contains("Ask the user one multiple-choice question")) {
        return Reply.text("Which rows do you mean? A) all plants B) operating plants C) Other");
      }
      if (prompt.contains("A clarification question about it")) {
        return Reply.text("B) the ones the query keeps.");
      }
      for (JsonNode q : questions) {
        if (prompt.contains(q.get("nl").asText())) {
          boolean clarified = prompt.contains("Answer: B) the ones the query keeps.");
          return Reply.text(clarified ? "```sql\n" + q.get("sql").asText() + "\n```" : "```sql\nSELECT 42;\n```");
        }
      }
      return Reply.error(400);
    };
  }

  private int interact(LocalChatServer server, StringWriter out, StringWriter err, String... extra) {
    List<String> args = new ArrayList<>(List.of("interact", "--dataset", questions.toString(),
        "--db", ReplayTest.DATABASES.toString(), "--model", "--llm-url", server.baseUrl(), "--llm-model", "test-model",
        "--llm-retries", "0", "--out", dir.resolve("out").toString()));
    args.addAll(List.of(extra));
    return ReplayTest.run(out, err, args.toArray(String[]::new));
  }

  @Test
  void aWrongRoundGetsAClarificationTheModelUserAnswersAndTheNextRoundMatches() throws Exception {
    try (LocalChatServer server = new LocalChatServer(scripted(picked))) {
      StringWriter out = new StringWriter();
      StringWriter err = new StringWriter();
      // one question at a time: the first request is the first question's
      assertEquals(0, interact(server, out, err, "--parallel", "1"), err.toString());
      JsonNode records = new ObjectMapper().readTree(dir.resolve("out/log.json").toFile()).get("records");
      for (JsonNode r : records) {
        assertEquals(1, r.get("num_cq_asked").asInt(), r.toPrettyString());
        assertEquals("mismatch", r.at("/sql_log/0/result").asText());
        assertEquals("SELECT 42", r.at("/sql_log/0/sql").asText());
        assertEquals("match", r.at("/sql_log/1/result").asText());
        assertEquals("model", r.at("/cq_log/0/asked_by").asText());
        assertEquals("model user", r.at("/feedback_log/0/answered_by").asText());
      }
      // per question: generate, ask, answer, generate
      assertEquals(12, server.requests().size());
      for (Request request : server.requests()) {
        assertTrue(request.path().endsWith("/chat/completions"), request.path());
        assertEquals("test-model", request.body().get("model").asText());
        assertEquals(0.0, request.body().get("temperature").asDouble());
      }
      String first = server.requests().get(0).prompt();
      assertTrue(first.contains("CREATE TABLE"), "the schema is shown as CREATE TABLE statements: " + first);
      assertTrue(first.contains(picked.get(0).get("nl").asText()));
      String answering = server.requests().stream().map(Request::prompt)
          .filter(p -> p.contains("A clarification question about it")).findFirst().orElseThrow();
      assertTrue(answering.contains(picked.get(0).get("sql").asText()), "the model user sees the gold SQL");
      assertTrue(answering.contains("Which rows do you mean?"));
      JsonNode summary = new ObjectMapper().readTree(dir.resolve("out/summary.json").toFile());
      assertEquals(0, summary.at("/by_round/0/matched").asInt());
      assertEquals(3, summary.at("/by_round/1/matched").asInt());
      assertEquals(3, summary.at("/by_round/1/asked").asInt());
    }
  }

  @Test
  void earlyStopEndsAfterOneMoreRoundWhenTheAskingSideSeesNoAmbiguity() throws Exception {
    Function<Request, Reply> noAmbiguity = request -> request.prompt().contains("Ask the user one multiple-choice question")
        ? Reply.text("NO AMBIGUITY") : Reply.text("SELECT 42");
    try (LocalChatServer server = new LocalChatServer(noAmbiguity)) {
      StringWriter out = new StringWriter();
      StringWriter err = new StringWriter();
      assertEquals(0, interact(server, out, err, "--early-stop"), err.toString());
      JsonNode r = new ObjectMapper().readTree(dir.resolve("out/log.json").toFile()).at("/records/0");
      assertEquals("Failed", r.get("num_cq_asked").asText());
      assertEquals(2, r.get("sql_log").size(), "round 0, then one last round: " + r.toPrettyString());
      assertEquals("NO AMBIGUITY", r.at("/cq_log/0/question").asText());
      assertEquals(0, r.get("feedback_log").size());
      JsonNode summary = new ObjectMapper().readTree(dir.resolve("out/summary.json").toFile());
      assertEquals(0, summary.at("/by_round/1/asked").asInt(), "NO AMBIGUITY is no question asked");
    }
  }

  @Test
  void anAnswerWithoutSqlIsLoggedAndTheRoundCountsAsWrong() throws Exception {
    Function<Request, Reply> chatty = request -> request.prompt().contains("Ask the user") ? Reply.text("NO AMBIGUITY")
        : Reply.text("I am sorry, I cannot write that query.");
    try (LocalChatServer server = new LocalChatServer(chatty)) {
      StringWriter out = new StringWriter();
      StringWriter err = new StringWriter();
      assertEquals(0, interact(server, out, err, "--rounds", "1"), err.toString());
      JsonNode r = new ObjectMapper().readTree(dir.resolve("out/log.json").toFile()).at("/records/0");
      String result = r.at("/sql_log/0/result").asText();
      assertTrue(result.startsWith("no SQL: the model's answer has no SQL in it: I am sorry"), result);
      assertEquals("Failed", r.get("num_cq_asked").asText());
    }
  }

  @Test
  void anAnswerCutOffAtTheTokenLimitIsNoSqlAndEndsTheQuestion() throws Exception {
    // "SELECT name FROM singer" would run; cut off, it is not the model's final answer
    Function<Request, Reply> cut = request -> Reply.json(200, "{\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\","
        + "\"content\":\"SELECT name FROM singer\"},\"finish_reason\":\"length\"}]}");
    try (LocalChatServer server = new LocalChatServer(cut)) {
      StringWriter out = new StringWriter();
      StringWriter err = new StringWriter();
      assertEquals(0, interact(server, out, err, "--rounds", "2", "--max-tokens", "8"), err.toString());
      JsonNode r = new ObjectMapper().readTree(dir.resolve("out/log.json").toFile()).at("/records/0");
      assertEquals("truncated: the answer reached the token limit", r.at("/sql_log/0/result").asText(), r.toString());
      assertEquals(1, r.get("sql_log").size(), "no clarification after a cut-off answer: " + r);
      assertEquals(8, server.requests().get(0).body().path("max_tokens").asInt());
    }
  }

  @Test
  void anEndpointErrorStopsTheRunWithItsMessageAndTheRunResumesWhereItStopped() throws Exception {
    JsonNode third = picked.get(2);
    Function<Request, Reply> good = scripted(picked);
    try (LocalChatServer server = new LocalChatServer(
        request -> request.prompt().contains(third.get("nl").asText()) ? Reply.error(500) : good.apply(request))) {
      StringWriter out = new StringWriter();
      StringWriter err = new StringWriter();
      assertEquals(1, interact(server, out, err));
      assertTrue(err.toString().contains("test-model at " + server.baseUrl()), err.toString());
      assertTrue(err.toString().contains("run the same command again"), err.toString());
      Path progress = dir.resolve("out").resolve(InteractRun.PROGRESS);
      assertEquals(3, Files.readAllLines(progress).size(), "the settings and the two finished questions");
      assertTrue(Files.notExists(dir.resolve("out/log.json")), "nothing half-written");

      server.setHandler(good);
      int before = server.requests().size();
      assertEquals(0, interact(server, new StringWriter(), err), err.toString());
      List<String> resumed = server.requests().subList(before, server.requests().size()).stream().map(Request::prompt).toList();
      assertEquals(4, resumed.size(), "only the third question is played again");
      assertTrue(resumed.stream().allMatch(p -> p.contains(third.get("nl").asText())));
      JsonNode records = new ObjectMapper().readTree(dir.resolve("out/log.json").toFile()).get("records");
      assertEquals(3, records.size());
      assertEquals(List.of(0, 1, 2), List.of(records.get(0).get("index").asInt(), records.get(1).get("index").asInt(),
          records.get(2).get("index").asInt()));
      assertTrue(Files.notExists(progress));
    }
  }

  @Test
  void aStoppedRunIsNotResumedWithEditedTemplates(@org.junit.jupiter.api.io.TempDir Path prompts) throws Exception {
    assertAnEditStopsTheResume(Path.of("data/prompts"), "*.txt", prompts, "--prompts", "interact-ask.txt",
        "\nKeep the question short.\n");
  }

  /**
   * A run stopped at the third question (its requests fail), then {@code file} of a copy of
   * {@code folder} edited: the rerun refuses to resume the stopped run.
   */
  private void assertAnEditStopsTheResume(Path folder, String glob, Path copy, String option, String file, String edit)
      throws Exception {
    for (Path f : Files.newDirectoryStream(folder, glob)) {
      Files.copy(f, copy.resolve(f.getFileName()));
    }
    JsonNode third = picked.get(2);
    Function<Request, Reply> good = scripted(picked);
    try (LocalChatServer server = new LocalChatServer(
        request -> request.prompt().contains(third.get("nl").asText()) ? Reply.error(500) : good.apply(request))) {
      assertEquals(1, interact(server, new StringWriter(), new StringWriter(), option, copy.toString()));
      Path edited = copy.resolve(file);
      Files.writeString(edited, Files.readString(edited) + edit);
      server.setHandler(good);
      StringWriter again = new StringWriter();
      assertEquals(1, interact(server, new StringWriter(), again, option, copy.toString()));
      assertTrue(again.toString().contains("is the unfinished run of other settings"), again.toString());
    }
  }

  @Test
  void aQueryAmidProseIsReadWithoutTheProse() throws Exception {
    // "run: SELECT" is prose that holds the word, and the explanation after the query has no ';' before it
    Function<Request, Reply> prose = request -> {
      for (JsonNode q : picked) {
        if (request.prompt().contains(q.get("nl").asText())) {
          return Reply.text("To select the answer, run: " + q.get("sql").asText() + "\nThis keeps the rows the question asks for.");
        }
      }
      return Reply.error(400);
    };
    try (LocalChatServer server = new LocalChatServer(prose)) {
      StringWriter err = new StringWriter();
      assertEquals(0, interact(server, new StringWriter(), err), err.toString());
      JsonNode records = new ObjectMapper().readTree(dir.resolve("out/log.json").toFile()).get("records");
      assertEquals(picked.size(), records.size());
      for (int i = 0; i < picked.size(); i++) {
        JsonNode r = records.get(i);
        assertEquals(picked.get(i).get("sql").asText(), r.at("/sql_log/0/sql").asText(), r.toPrettyString());
        assertEquals("match", r.at("/sql_log/0/result").asText(), r.toPrettyString());
      }
    }
  }

  @Test
  void aStoppedRunIsNotResumedWithEditedRules(@org.junit.jupiter.api.io.TempDir Path rules) throws Exception {
    assertAnEditStopsTheResume(Path.of("rules"), "*.drl", rules, "--rules", "clarify.drl",
        "\n// edited between the stop and the rerun\n");
  }

  @Test
  void anEndpointThatDoesNotAnswerInTimeIsAClearError() throws Exception {
    try (LocalChatServer server = new LocalChatServer(request -> Reply.slow("SELECT 1", 3000))) {
      StringWriter err = new StringWriter();
      assertEquals(1, interact(server, new StringWriter(), err, "--llm-timeout", "0.5"));
      assertTrue(err.toString().contains("no answer within the time limit"), err.toString());
    }
  }

  @Test
  void aProgressFileOfOtherSettingsIsNotResumed() throws Exception {
    Files.createDirectories(dir.resolve("out"));
    Files.writeString(dir.resolve("out").resolve(InteractRun.PROGRESS), "{\"settings\":\"something else\"}\n");
    OwnedFolder.recordWritten(List.of(dir.resolve("out").resolve(InteractRun.PROGRESS))); // an earlier interact's
    try (LocalChatServer server = new LocalChatServer(scripted(picked))) {
      StringWriter err = new StringWriter();
      assertEquals(1, interact(server, new StringWriter(), err));
      assertTrue(err.toString().contains("is the unfinished run of other settings (something else)"), err.toString());
      assertEquals(0, server.requests().size());
    }
  }

  @Test
  void parallelQuestionsGiveTheSameLogInQuestionOrder() throws Exception {
    try (LocalChatServer server = new LocalChatServer(scripted(picked))) {
      StringWriter err = new StringWriter();
      assertEquals(0, interact(server, new StringWriter(), err, "--parallel", "3"), err.toString());
      byte[] parallel = Files.readAllBytes(dir.resolve("out/log.json"));
      Files.delete(dir.resolve("out/log.json"));
      assertEquals(0, interact(server, new StringWriter(), err, "--parallel", "1"), err.toString());
      JsonNode a = new ObjectMapper().readTree(parallel).get("records");
      JsonNode b = new ObjectMapper().readTree(dir.resolve("out/log.json").toFile()).get("records");
      assertEquals(b, a, "the same records in the same order, whatever order the questions finished in");
    }
  }

  @Test
  void aProgressFileHoldingOnlyItsSettingsOrAHalfWrittenLineIsResumed() throws Exception {
    try (LocalChatServer server = new LocalChatServer(scripted(picked))) {
      // a first run whose first question fails leaves the settings line alone
      Function<Request, Reply> good = scripted(picked);
      server.setHandler(request -> Reply.error(500));
      StringWriter err = new StringWriter();
      assertEquals(1, interact(server, new StringWriter(), err));
      Path progress = dir.resolve("out").resolve(InteractRun.PROGRESS);
      assertEquals(1, Files.readAllLines(progress).size(), err.toString());
      // the second run finishes two questions and stops at the third
      JsonNode third = picked.get(2);
      server.setHandler(request -> request.prompt().contains(third.get("nl").asText()) ? Reply.error(500) : good.apply(request));
      assertEquals(1, interact(server, new StringWriter(), err));
      assertEquals(3, Files.readAllLines(progress).size(), "one settings line, two questions");
      // a crash while the next line was written leaves half a line
      Files.writeString(progress, "{\"index\":2,\"id\":\"2\",\"db_", java.nio.file.StandardOpenOption.APPEND);
      server.setHandler(good);
      int before = server.requests().size();
      assertEquals(0, interact(server, new StringWriter(), err), err.toString());
      assertEquals(4, server.requests().size() - before, "only the third question is played");
      assertEquals(3, new ObjectMapper().readTree(dir.resolve("out/log.json").toFile()).get("records").size());
    }
  }
}

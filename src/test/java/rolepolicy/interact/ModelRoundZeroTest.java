package rolepolicy.interact;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rolepolicy.TestData;
import rolepolicy.io.DatasetWriter;
import rolepolicy.llm.LocalChatServer;
import rolepolicy.llm.LocalChatServer.Reply;
import rolepolicy.run.RunFixture;

/** interact --model on a policy dataset: round 0 from run's prompt (policies, examples) or from a finished run. */
class ModelRoundZeroTest {
  static RunFixture fixture;
  static Path three;
  static List<JsonNode> records = new ArrayList<>();

  @TempDir static Path shared;
  @TempDir Path dir;

  @BeforeAll
  static void data() throws Exception {
    fixture = RunFixture.shared();
    ArrayNode first = DatasetWriter.JSON.createArrayNode();
    for (int i = 0; i < 3; i++) { // dev_0001, dev_0002: SQL; dev_0003: REFUSE
      first.add(fixture.records.get(i));
      records.add(fixture.records.get(i));
    }
    three = shared.resolve("three.json");
    DatasetWriter.JSON.writeValue(three.toFile(), first);
  }

  /** Round 0 (the few-shot prompt) gets a wrong query; everything else a short answer. */
  private static Reply reply(LocalChatServer.Request r) {
    String prompt = r.prompt();
    if (prompt.contains("Ask the user one multiple-choice question")) {
      return Reply.text("Which rows do you mean?\nA) all\nB) some\nC) Other (pick C if you see no ambiguity)");
    }
    if (prompt.contains("A clarification question about it")) {
      return Reply.text("The ones the question names.");
    }
    return Reply.text("```sql\nSELECT 1\n```");
  }

  private List<String> interact(LocalChatServer server, String... extra) {
    List<String> args = new ArrayList<>(List.of("interact", "--dataset", three.toString(),
        "--tables", TestData.spiderDir().resolve("tables.json").toString(),
        "--db", TestData.spiderDir().resolve("database").toString(), "--model", "--llm-url", server.baseUrl(),
        "--llm-model", "test-model", "--llm-retries", "0",
        "--rounds", "1", "--out", dir.resolve("out").toString()));
    args.addAll(List.of(extra));
    return args;
  }

  @Test
  void aRoundZeroCutOffAtTheTokenLimitIsNoSqlOnAPolicyDatasetToo() throws Exception {
    // round 0 comes from run's prompt builder, not the generate template: it too reads the finish_reason
    try (LocalChatServer server = new LocalChatServer(r -> r.prompt().contains("\nExamples:\n")
        ? Reply.json(200, "{\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"SELECT name"
            + " FROM singer\"},\"finish_reason\":\"length\"}]}")
        : reply(r))) {
      RunFixture.Result r = RunFixture.main(interact(server, "--bank", fixture.bank.toString()).toArray(String[]::new));
      assertEquals(0, r.code(), r.err());
      JsonNode log = DatasetWriter.JSON.readTree(dir.resolve("out/log.json").toFile());
      for (JsonNode record : log.get("records")) {
        assertEquals("truncated: the answer reached the token limit", record.at("/sql_log/0/result").asText(), record.toString());
      }
    }
  }

  @Test
  void roundZerosRequestHoldsThePoliciesAndTheExamplesAndLaterRoundsKeepThePolicies() throws Exception {
    try (LocalChatServer server = new LocalChatServer(ModelRoundZeroTest::reply)) {
      RunFixture.Result r = RunFixture.main(interact(server, "--bank", fixture.bank.toString()).toArray(String[]::new));
      assertEquals(0, r.code(), r.err());
      List<String> roundZero = server.requests().stream().map(LocalChatServer.Request::prompt)
          .filter(p -> p.contains("\nExamples:\n")).toList();
      assertEquals(3, roundZero.size(), "one round-0 request per question");
      for (JsonNode q : records) {
        String prompt = roundZero.stream().filter(p -> RunFixture.questionOf(p).equals(q.path("question").asText()))
            .findFirst().orElseThrow(() -> new AssertionError("no round-0 request for " + q.path("id")));
        assertTrue(prompt.contains("- JoinOnly: never select it; never aggregate it."), prompt);
        assertTrue(prompt.contains("Singer_ID number, -- JoinOnly") || prompt.contains("Stadium_ID number, -- JoinOnly"), prompt);
        assertTrue(prompt.contains("Question (names and values masked): ") || prompt.contains("\nAnswer: "),
            "examples: " + prompt);
      }
      List<String> later = server.requests().stream().map(LocalChatServer.Request::prompt)
          .filter(p -> p.contains("Queries written before for this question")).toList();
      assertTrue(!later.isEmpty(), "a later round was asked for");
      for (String prompt : later) {
        assertTrue(prompt.contains("Column policies (table(column policy, ...)):\nstadium(Stadium_ID JoinOnly"),
            "one line per table: the schema is already CREATE TABLE statements: " + prompt);
        assertTrue(prompt.contains("CREATE TABLE"), prompt);
      }
      assertTrue(r.out().contains("round 0 from run's prompt"), r.out());
      JsonNode log = DatasetWriter.JSON.readTree(dir.resolve("out/log.json").toFile());
      JsonNode firstQuestion = log.at("/records/0");
      assertTrue(firstQuestion.at("/cq_log/0/question").asText().startsWith("Which rows do you mean?"), firstQuestion.toString());
      assertEquals(1, firstQuestion.path("feedback_log").size(),
          "a question that mentions 'no ambiguity' is asked and answered, not taken for NO AMBIGUITY: " + firstQuestion);
    }
  }

  @Test
  void roundZeroFromAFinishedRunSendsNoRoundZeroRequest() throws Exception {
    Map<String, String> good = fixture.goodAnswers();
    try (LocalChatServer server = new LocalChatServer(r -> r.prompt().contains("\nExamples:\n")
        ? Reply.text(good.get(RunFixture.questionOf(r.prompt()))) : reply(r))) {
      Path run = dir.resolve("runs/three");
      List<String> runArgs = fixture.runArgs(server.baseUrl(), run, "--limit", "3");
      RunFixture.Result ran = RunFixture.main(runArgs.toArray(String[]::new));
      assertEquals(0, ran.code(), ran.err());
      int sentByRun = server.count();
      assertEquals(3, sentByRun);

      RunFixture.Result r = RunFixture.main(interact(server, "--from-run", run.toString()).toArray(String[]::new));
      assertEquals(0, r.code(), r.err());
      assertTrue(server.requests().subList(sentByRun, server.count()).stream().noneMatch(q -> q.prompt().contains("\nExamples:\n")),
          "round 0 is the run's");
      JsonNode log = DatasetWriter.JSON.readTree(dir.resolve("out/log.json").toFile());
      for (int i = 0; i < 3; i++) {
        JsonNode q = log.at("/records/" + i);
        assertEquals(0, q.path("success").asInt(), "the run's answer matches at round 0: " + q);
      }
      assertTrue(r.out().contains("round 0 from the run " + run), r.out());
    }
  }
}

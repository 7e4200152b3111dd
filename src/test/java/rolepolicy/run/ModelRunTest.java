package rolepolicy.run;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rolepolicy.TestData;
import rolepolicy.io.OwnedFolder;
import rolepolicy.llm.LocalChatServer;
import rolepolicy.llm.LocalChatServer.Reply;

/** {@code run} against a chat-completions server on 127.0.0.1 that counts what it is asked. */
class ModelRunTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  static RunFixture fixture;
  static Map<String, String> good;

  @TempDir Path dir;

  @BeforeAll
  static void fixture() throws IOException {
    fixture = RunFixture.shared();
    good = fixture.goodAnswers();
  }

  private static RunFixture.Result run(List<String> args) {
    return RunFixture.main(args.toArray(String[]::new));
  }

  private static List<JsonNode> jsonLines(Path file) throws IOException {
    List<JsonNode> lines = new ArrayList<>();
    for (String line : Files.readAllLines(file)) {
      lines.add(JSON.readTree(line));
    }
    return lines;
  }

  private static Reply goodReply(LocalChatServer.Request r) {
    return Reply.text(good.get(RunFixture.questionOf(r.prompt())));
  }

  @Test
  void itsMetricsAreEvaluatesOnTheSameAnswersAndItsFolderHoldsEverything() throws IOException {
    try (LocalChatServer server = new LocalChatServer(ModelRunTest::goodReply)) {
      Path out = dir.resolve("runs/good");
      RunFixture.Result r = run(fixture.runArgs(server.baseUrl(), out, "--parallel", "4"));
      assertEquals(0, r.code(), r.err());
      assertEquals(RunFixture.QUESTIONS, server.count(), "one request per question");
      assertTrue(r.out().contains(RunFixture.QUESTIONS + " questions: " + (RunFixture.QUESTIONS - refusals()) + " answered, "
          + refusals() + " refused, 0 no SQL found, 0 truncated, 0 failed\nrequests: " + RunFixture.QUESTIONS + " answered now, 0 answers reused"),
          r.out());

      // evaluate on the run's predictions writes the same bytes
      Path evaluated = dir.resolve("evaluated");
      RunFixture.Result e = RunFixture.main("evaluate", "--dataset", fixture.dataset.toString(),
          "--pred", out.resolve("predictions.txt").toString(), "--tables", TestData.spiderDir().resolve("tables.json").toString(),
          "--db", TestData.spiderDir().resolve("database").toString(), "--out", evaluated.toString());
      assertEquals(0, e.code(), e.err());
      // run's metrics.json is evaluate's with the outcome counts of its answers
      com.fasterxml.jackson.databind.node.ObjectNode runMetrics = (com.fasterxml.jackson.databind.node.ObjectNode) JSON.readTree(
          out.resolve("metrics.json").toFile());
      JsonNode answerCounts = runMetrics.remove("answers");
      assertEquals("{\"answered\":" + (RunFixture.QUESTIONS - refusals()) + ",\"refused\":" + refusals()
          + ",\"no_sql\":0,\"truncated\":0,\"failed\":0}", answerCounts.toString());
      assertEquals(JSON.readTree(evaluated.resolve("metrics.json").toFile()), runMetrics);
      assertArrayEquals(Files.readAllBytes(evaluated.resolve("per_question.jsonl")), Files.readAllBytes(out.resolve("per_question.jsonl")));
      String table = e.out().substring(0, e.out().indexOf("wrote"));
      assertTrue(r.out().startsWith(table), "run prints evaluate's table:\n" + r.out());

      // a good model: every decision right, every answer executed to the gold result
      JsonNode model = JSON.readTree(out.resolve("metrics.json").toFile()).at("/predictors/model");
      assertEquals(1.0, model.at("/refuse/accuracy").asDouble(), model.toString());
      List<String> predictions = Files.readAllLines(out.resolve("predictions.txt"));
      assertEquals(RunFixture.QUESTIONS, predictions.size());
      for (int i = 0; i < RunFixture.QUESTIONS; i++) {
        JsonNode label = fixture.records.get(i).path("gold_label");
        assertEquals(label.path("type").asText().equals("REFUSE") ? "REFUSE" : label.path("sql").asText(), predictions.get(i));
      }

      // every answer, in the log: raw text, what was read, tokens, latency, retries
      List<JsonNode> answers = jsonLines(out.resolve("answers.jsonl"));
      assertEquals(RunFixture.QUESTIONS, answers.size());
      for (JsonNode a : answers) {
        assertEquals(64, a.path("key").asText().length());
        assertTrue(a.path("answer").asText().equals(good.get(questionOf(a, out))), a.toString());
        assertTrue(a.path("prompt_tokens").asInt() > 100 && a.path("completion_tokens").asInt() > 0, a.toString());
        assertTrue(a.path("latency_ms").isNumber() && a.path("retries").asInt() == 0 && a.path("error").isNull(), a.toString());
      }
      // the prompts: policies and examples, in question order, each with its request's key
      List<JsonNode> prompts = jsonLines(out.resolve("prompts.jsonl"));
      assertEquals(fixture.ids(), prompts.stream().map(p -> p.path("id").asText()).toList());
      JsonNode firstPrompt = prompts.get(0);
      assertTrue(firstPrompt.path("prompt").asText().contains("JoinOnly"), firstPrompt.toString());
      assertTrue(firstPrompt.path("examples").size() > 0, firstPrompt.toString());
      assertEquals(server.requests().stream().filter(q -> q.prompt().equals(firstPrompt.path("prompt").asText())).count(), 1);

      JsonNode runFile = JSON.readTree(out.resolve("run.json").toFile());
      assertEquals("test-model", runFile.path("model").asText());
      assertEquals(server.baseUrl() + "/chat/completions", runFile.path("endpoint").asText());
      assertEquals(64, runFile.at("/template/sha256").asText().length());
      assertEquals(64, runFile.at("/rules/sha256").asText().length());
      assertEquals(RunFixture.CASES, runFile.at("/bank/cases").asInt());
      assertEquals("create-table", runFile.at("/configuration/schema_style").asText());
      assertEquals(RunFixture.QUESTIONS, runFile.path("questions").asInt());
      assertTrue(runFile.path("version").asText().startsWith("rolepolicy "));
      assertNull(server.requests().get(0).authorization(), "no key in the environment: none sent");

      // a rerun (say after a metric changed) sends nothing and writes the same bytes
      byte[] metrics = Files.readAllBytes(out.resolve("metrics.json"));
      byte[] runJson = Files.readAllBytes(out.resolve("run.json"));
      RunFixture.Result again = run(fixture.runArgs(server.baseUrl(), out, "--parallel", "3"));
      assertEquals(0, again.code(), again.err());
      assertEquals(RunFixture.QUESTIONS, server.count(), "no request sent twice");
      assertTrue(again.err().contains("resuming " + out + ": " + RunFixture.QUESTIONS + " answers in answers.jsonl are reused"), again.err());
      assertArrayEquals(metrics, Files.readAllBytes(out.resolve("metrics.json")));
      assertArrayEquals(runJson, Files.readAllBytes(out.resolve("run.json")));
      try (Stream<Path> files = Files.list(out)) {
        assertEquals(Set.of("answers.jsonl", "prompts.jsonl", "predictions.txt", "metrics.json", "per_question.jsonl", "run.json",
            OwnedFolder.MARKER, rolepolicy.io.FolderLock.FILE),
            Set.copyOf(files.map(f -> f.getFileName().toString()).toList()), "no temporary file left");
      }
    }
  }

  @Test
  void aRerunReusesThePromptsOfItsFolderUntilTheirInputsChange() throws IOException {
    try (LocalChatServer server = new LocalChatServer(ModelRunTest::goodReply)) {
      Path out = dir.resolve("runs/reused");
      RunFixture.Result first = run(fixture.runArgs(server.baseUrl(), out));
      assertEquals(0, first.code(), first.err());
      assertTrue(first.out().contains("prompts: " + RunFixture.QUESTIONS + " built, 0 reused"), first.out());
      assertTrue(JSON.readTree(out.resolve("run.json").toFile()).path("prompt_inputs").asText().matches("[0-9a-f]{64}"));
      byte[] prompts = Files.readAllBytes(out.resolve("prompts.jsonl"));
      byte[] runJson = Files.readAllBytes(out.resolve("run.json"));

      // the same inputs: no prompt is built, the folder's are reused and written again byte for byte
      RunFixture.Result again = run(fixture.runArgs(server.baseUrl(), out, "--parallel", "3"));
      assertEquals(0, again.code(), again.err());
      assertTrue(again.out().contains("prompts: 0 built, " + RunFixture.QUESTIONS + " reused"), again.out());
      assertTrue(again.err().contains("reusing the prompts in " + out.resolve("prompts.jsonl") + ": their inputs are unchanged"),
          again.err());
      assertArrayEquals(prompts, Files.readAllBytes(out.resolve("prompts.jsonl")));
      assertArrayEquals(runJson, Files.readAllBytes(out.resolve("run.json")));
      assertEquals(RunFixture.QUESTIONS, server.count());

      // the template edited: every prompt is built again, and each new prompt is a new request
      Path template = dir.resolve("edited.txt");
      Files.writeString(template, Files.readString(Path.of("data/prompts/few-shot.txt")) + "\nKeep the answer short.\n");
      RunFixture.Result refused = run(fixture.runArgs(server.baseUrl(), out, "--template", template.toString()));
      assertEquals(2, refused.code(), "a folder holds one run: " + refused.err());
      assertTrue(refused.err().contains(out + " holds another run (" + out.resolve("run.json") + "): template "), refused.err());
      assertTrue(refused.err().contains("Give this run its own folder (--name NAME or --out DIR), or --force"), refused.err());
      RunFixture.Result edited = run(fixture.runArgs(server.baseUrl(), out, "--template", template.toString(), "--force"));
      assertEquals(0, edited.code(), edited.err());
      assertTrue(edited.out().contains("prompts: " + RunFixture.QUESTIONS + " built, 0 reused"), edited.out());
      assertTrue(edited.err().contains("building the prompts again: " + out.resolve("prompts.jsonl") + " was written from other inputs"),
          edited.err());
      assertEquals(2 * RunFixture.QUESTIONS, server.count());
      assertTrue(Files.readString(out.resolve("prompts.jsonl")).contains("Keep the answer short."));

      // fewer examples, as another selection setting: built again too
      RunFixture.Result fewer = run(fixture.runArgs(server.baseUrl(), out, "--template", template.toString(), "--examples", "2",
          "--force"));
      assertTrue(fewer.out().contains("prompts: " + RunFixture.QUESTIONS + " built, 0 reused"), fewer.out());

      // another schema style: another run (--force takes the folder over), built again, and run.json says which
      RunFixture.Result styled = run(fixture.runArgs(server.baseUrl(), out, "--template", template.toString(), "--examples", "2",
          "--schema-style", "policies", "--force"));
      assertTrue(styled.out().contains("prompts: " + RunFixture.QUESTIONS + " built, 0 reused"), styled.out());
      assertEquals("policies", JSON.readTree(out.resolve("run.json").toFile()).at("/configuration/schema_style").asText());
    }
  }

  /** The fixture's questions whose gold label is REFUSE. */
  private static int refusals() {
    int n = 0;
    for (JsonNode r : fixture.records) {
      n += r.at("/gold_label/type").asText().equals("REFUSE") ? 1 : 0;
    }
    return n;
  }

  private static String questionOf(JsonNode answer, Path out) throws IOException {
    for (JsonNode p : jsonLines(out.resolve("prompts.jsonl"))) {
      if (p.path("key").asText().equals(answer.path("key").asText())) {
        return RunFixture.questionOf(p.path("prompt").asText());
      }
    }
    throw new AssertionError("no prompt with the key of " + answer);
  }

  @Test
  void eachFailureIsAPerQuestionErrorAndARerunAsksOnlyThoseAgain() throws IOException {
    List<String> questions = new ArrayList<>(good.keySet());
    Map<String, String> failing = Map.of(
        questions.get(0), "429", questions.get(1), "500", questions.get(2), "slow", questions.get(3), "nosql",
        questions.get(4), "html");
    Map<String, Integer> asked = new ConcurrentHashMap<>();
    try (LocalChatServer server = new LocalChatServer(r -> {
      String q = RunFixture.questionOf(r.prompt());
      asked.merge(q, 1, Integer::sum);
      return switch (failing.getOrDefault(q, "good")) {
        case "429" -> Reply.rateLimited("0");
        case "500" -> Reply.error(500);
        case "slow" -> Reply.slow("SELECT 1", 3000);
        case "nosql" -> Reply.text("I am not sure which table holds that.");
        case "html" -> Reply.raw(200, "<html><body>proxy login</body></html>");
        default -> goodReply(r);
      };
    })) {
      Path out = dir.resolve("runs/failing");
      RunFixture.Result r = run(fixture.runArgs(server.baseUrl(), out, "--llm-timeout", "0.5", "--llm-retries", "1",
          "--parallel", "4"));
      assertEquals(3, r.code(), "questions failed: " + r.err());
      assertTrue(r.out().contains(" refused, 1 no SQL found, 0 truncated, 4 failed (HTTP 429: 1, HTTP 500: 1, not JSON: 1,"
          + " time-out: 1)"), r.out());
      assertTrue(r.err().contains("error: 4 questions of 12 have no final answer (4 failed, 0 truncated); a failure is not an answer:"
          + " run again to ask only those, or --allow-failures 4 to accept them"), r.err());
      JsonNode counted = JSON.readTree(out.resolve("metrics.json").toFile()).path("answers");
      assertEquals(4, counted.path("failed").asInt(), counted.toString());
      assertEquals(1, counted.path("no_sql").asInt(), counted.toString());
      JsonNode unanswered = JSON.readTree(out.resolve("run.json").toFile()).path("unanswered");
      assertEquals(4, unanswered.size(), unanswered.toString());
      unanswered.fields().forEachRemaining(e -> assertTrue(e.getValue().asText().startsWith("failed: test-model at "), e.toString()));
      assertEquals(2, asked.get(questions.get(0)), "a 429 is retried");
      assertEquals(2, asked.get(questions.get(1)), "a 500 is retried");
      assertEquals(1, asked.get(questions.get(4)), "a body that is not JSON is not retried");
      Map<String, JsonNode> byQuestion = new java.util.HashMap<>();
      List<JsonNode> prompts = jsonLines(out.resolve("prompts.jsonl"));
      for (JsonNode a : jsonLines(out.resolve("answers.jsonl"))) {
        for (JsonNode p : prompts) {
          if (p.path("key").asText().equals(a.path("key").asText())) {
            byQuestion.put(RunFixture.questionOf(p.path("prompt").asText()), a);
          }
        }
      }
      assertEquals(RunFixture.QUESTIONS, byQuestion.size(), "every question logged, failures too");
      assertTrue(byQuestion.get(questions.get(0)).path("error").asText().contains("rate-limiting (HTTP 429"));
      assertEquals(429, byQuestion.get(questions.get(0)).path("status").asInt());
      assertEquals(1, byQuestion.get(questions.get(0)).path("retries").asInt());
      assertTrue(byQuestion.get(questions.get(1)).path("error").asText().contains("HTTP 500"));
      assertTrue(byQuestion.get(questions.get(2)).path("error").asText().contains("no answer within the time limit"));
      assertTrue(byQuestion.get(questions.get(4)).path("error").asText().contains("the answer is not JSON: <html>"));
      JsonNode noSql = byQuestion.get(questions.get(3));
      assertEquals("NONE", noSql.path("kind").asText());
      assertTrue(noSql.path("problem").asText().contains("no SQL"), noSql.toString());
      List<String> predictions = Files.readAllLines(out.resolve("predictions.txt"));
      for (int i = 0; i < 5; i++) {
        assertEquals("", predictions.get(i), "no prediction for question " + i);
      }
      // a failure is not an answer: the 4 failed questions are not scored, the one without SQL is
      List<JsonNode> scored = jsonLines(out.resolve("per_question.jsonl"));
      assertEquals(RunFixture.QUESTIONS - 4, scored.size());
      Set<String> failedIds = new java.util.HashSet<>();
      JSON.readTree(out.resolve("run.json").toFile()).path("unanswered").fieldNames().forEachRemaining(failedIds::add);
      assertTrue(scored.stream().noneMatch(q -> failedIds.contains(q.path("id").asText())), scored.toString());
      assertEquals(RunFixture.QUESTIONS - 4, JSON.readTree(out.resolve("metrics.json").toFile())
          .at("/predictors/model/questions").asInt(-1), "metrics over the questions with a final answer");

      assertEquals(0, run(fixture.runArgs(server.baseUrl(), out,
          "--allow-failures", "4", "--llm-retries", "0", "--llm-timeout", "0.5")).code(), "up to 4 allowed");
      // the endpoint mended: a rerun asks the 4 failed requests again, nothing else
      server.setHandler(ModelRunTest::goodReply);
      int before = server.count();
      RunFixture.Result again = run(fixture.runArgs(server.baseUrl(), out, "--parallel", "4"));
      assertEquals(0, again.code(), again.err());
      assertEquals(4, server.count() - before);
      assertTrue(again.err().contains(": 8 answers in answers.jsonl are reused"), again.err());
      assertTrue(again.out().contains("requests: 4 answered now, 8 answers reused") && again.out().contains(" 1 no SQL found, 0 truncated, 0 failed\n"),
          again.out());
    }
  }

  @Test
  void aKilledRunResumesAndNoAnsweredRequestIsSentAgain() throws Exception {
    Set<String> answered = ConcurrentHashMap.newKeySet();
    java.util.concurrent.atomic.AtomicInteger repeated = new java.util.concurrent.atomic.AtomicInteger();
    java.util.concurrent.CountDownLatch never = new java.util.concurrent.CountDownLatch(1);
    java.util.concurrent.atomic.AtomicBoolean hang = new java.util.concurrent.atomic.AtomicBoolean(true);
    try (LocalChatServer server = new LocalChatServer(r -> {
      if (hang.get() && answered.size() == 5) {
        try {
          never.await(); // the sixth request hangs until the process is killed
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        return Reply.error(500);
      }
      if (!answered.add(r.prompt())) {
        repeated.incrementAndGet();
      }
      return goodReply(r);
    })) {
      Path out = dir.resolve("runs/killed");
      List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
          "-cp", System.getProperty("java.class.path"), "rolepolicy.cli.Main"));
      command.addAll(fixture.runArgs(server.baseUrl(), out, "--parallel", "1"));
      Process process = new ProcessBuilder(command).redirectErrorStream(true)
          .redirectOutput(dir.resolve("killed.log").toFile()).start();
      try {
        long deadline = System.nanoTime() + 120_000_000_000L;
        while (server.count() < 6 && System.nanoTime() < deadline && process.isAlive()) {
          Thread.sleep(50);
        }
        assertEquals(6, server.count(), Files.readString(dir.resolve("killed.log")));
      } finally {
        process.destroy(); // SIGTERM, as Ctrl-C stops it
        process.waitFor();
      }
      assertEquals(5, Files.readAllLines(out.resolve("answers.jsonl")).size(), "the five answers are kept");
      try (Stream<Path> files = Files.list(out)) {
        assertEquals(List.of(rolepolicy.io.FolderLock.FILE, OwnedFolder.MARKER, "answers.jsonl"), files.map(f -> f.getFileName().toString()).sorted().toList(),
            "nothing half-written");
      }

      hang.set(false);
      RunFixture.Result r = run(fixture.runArgs(server.baseUrl(), out, "--parallel", "4"));
      assertEquals(0, r.code(), r.err());
      assertTrue(r.err().contains("resuming " + out + ": 5 answers in answers.jsonl are reused"), r.err());
      assertTrue(r.out().contains("requests: 7 answered now, 5 answers reused"), r.out());
      assertEquals(0, repeated.get(), "no answered request sent twice");
      assertEquals(RunFixture.QUESTIONS, answered.size());
      assertEquals(RunFixture.QUESTIONS, Files.readAllLines(out.resolve("predictions.txt")).size());
    } finally {
      never.countDown();
    }
  }

  @Test
  void whenEveryRequestFailsTheRunSaysSoAndWritesOnlyTheLog() throws IOException {
    try (LocalChatServer server = new LocalChatServer(r -> Reply.error(503))) {
      Path out = dir.resolve("runs/down");
      RunFixture.Result r = run(fixture.runArgs(server.baseUrl(), out, "--llm-retries", "0", "--limit", "3"));
      assertEquals(1, r.code(), r.out());
      assertTrue(r.err().contains("error: every request failed (3 of 3 questions); the first: test-model at "), r.err());
      assertTrue(r.err().contains("HTTP 503"), r.err());
      assertEquals(3, server.count());
      assertFalse(Files.exists(out.resolve("metrics.json")));
      assertEquals(3, Files.readAllLines(out.resolve("answers.jsonl")).size());
    }
  }

  @Test
  void aDryRunPrintsTheRequestsAndTheirTokensAndSendsNothing() throws IOException {
    try (LocalChatServer server = new LocalChatServer(ModelRunTest::goodReply)) {
      Path out = dir.resolve("runs/dry");
      RunFixture.Result r = run(fixture.runArgs(server.baseUrl(), out, "--dry-run", "--limit", "2"));
      assertEquals(0, r.code(), r.err());
      assertEquals(0, server.count());
      List<String> lines = r.out().lines().toList();
      assertEquals(3, lines.size(), r.out());
      JsonNode request = JSON.readTree(lines.get(0));
      assertEquals("test-model", request.path("model").asText());
      assertEquals(0.0, request.path("temperature").asDouble());
      assertTrue(request.at("/messages/0/content").asText().contains("Examples:"), request.toString());
      assertTrue(lines.get(2).matches("dry run: 2 requests to test-model at .*, [0-9,]+ prompt tokens \\(o200k_base.*"), lines.get(2));
      assertFalse(Files.exists(out));
    }
  }

  @Test
  void twoStageAsksForADraftThenAgainWithExamplesChosenByIt() throws IOException {
    try (LocalChatServer server = new LocalChatServer(ModelRunTest::goodReply)) {
      Path out = dir.resolve("runs/two-stage");
      RunFixture.Result r = run(fixture.runArgs(server.baseUrl(), out, "--two-stage", "--limit", "6"));
      assertEquals(0, r.code(), r.err());
      List<JsonNode> prompts = jsonLines(out.resolve("prompts.jsonl"));
      long drafts = prompts.stream().filter(p -> p.path("stage").asText().equals("draft")).count();
      List<JsonNode> finals = prompts.stream().filter(p -> p.path("stage").asText().equals("final")).toList();
      assertEquals(6, drafts);
      long sqlDrafts = java.util.stream.IntStream.range(0, 6)
          .filter(i -> fixture.records.get(i).at("/gold_label/type").asText().equals("SQL")).count();
      assertEquals(sqlDrafts, finals.size(), "a second stage for each draft with SQL, none after REFUSE");
      assertTrue(finals.stream().allMatch(p -> p.path("retrieval").asText().contains("; draft: ")), finals.toString());
      long distinctPrompts = prompts.stream().map(p -> p.path("key").asText()).distinct().count();
      assertEquals(distinctPrompts, server.count(), "a second prompt that equals the first is not sent again");
      JsonNode runFile = JSON.readTree(out.resolve("run.json").toFile());
      assertTrue(runFile.at("/configuration/two_stage").asBoolean());
      assertEquals(distinctPrompts, runFile.at("/requests/requests").asInt(), "drafts are counted");
      assertEquals(6, runFile.at("/requests/drafts").asInt());

      // a rerun reuses both stages' prompts
      byte[] written = Files.readAllBytes(out.resolve("prompts.jsonl"));
      RunFixture.Result again = run(fixture.runArgs(server.baseUrl(), out, "--two-stage", "--limit", "6"));
      assertTrue(again.out().contains("prompts: 0 built, " + prompts.size() + " reused"), again.out());
      assertArrayEquals(written, Files.readAllBytes(out.resolve("prompts.jsonl")));
      // another model: its first prompts are the same, reused; its drafts are other requests, so the second prompts are built
      List<String> otherModel = fixture.runArgs(server.baseUrl(), out, "--two-stage", "--limit", "6");
      otherModel.set(otherModel.indexOf("test-model"), "other-model");
      otherModel.add("--force");
      RunFixture.Result other = run(otherModel);
      assertTrue(other.out().contains("prompts: " + finals.size() + " built, 6 reused"), other.out());
      assertEquals(prompts.stream().map(p -> p.path("prompt").asText()).toList(),
          jsonLines(out.resolve("prompts.jsonl")).stream().map(p -> p.path("prompt").asText()).toList(),
          "the same answers: the same second prompts");
    }
  }

  @Test
  void badCommandLinesAndMissingFilesAreClearErrors() {
    RunFixture.Result noUrl = RunFixture.main("run", "--dataset", fixture.dataset.toString());
    assertEquals(2, noUrl.code());
    assertTrue(noUrl.err().contains("run needs --llm-url and --llm-model"), noUrl.err());
    List<String> args = fixture.runArgs("http://127.0.0.1:9/v1", dir.resolve("runs/x"));
    args.set(args.indexOf("--bank") + 1, dir.resolve("no-bank").toString());
    RunFixture.Result noBank = run(args);
    assertEquals(1, noBank.code());
    assertTrue(noBank.err().contains("no-bank: no case bank here"), noBank.err());
    List<String> missing = fixture.runArgs("http://127.0.0.1:9/v1", dir.resolve("runs/x"));
    missing.set(missing.indexOf("--dataset") + 1, dir.resolve("nothing.json").toString());
    RunFixture.Result noDataset = run(missing);
    assertEquals(1, noDataset.code());
    assertTrue(noDataset.err().contains("nothing.json"), noDataset.err());
  }

  @Test
  void theBenchmarkPrintsRunsOverheadPerQuestion() {
    RunFixture.Result r = RunFixture.main("bench-run", "--dataset", fixture.dataset.toString(),
        "--tables", TestData.spiderDir().resolve("tables.json").toString(), "--bank", fixture.bank.toString(),
        "--repeats", "1", "--limit", "4");
    assertEquals(0, r.code(), r.err());
    assertTrue(r.out().startsWith("4 questions, --parallel 4, --policy skeleton_vote (run's default), an endpoint on 127.0.0.1 that answers at once;"
        + " medians of 1"), r.out());
    assertTrue(r.out().contains("run's overhead per question: "), r.out());
    // beside it, a run with its prompts reused (no retrieval) and a rerun, and the same in CPU time
    assertTrue(r.out().contains("with its prompts reused from its folder (no retrieval; every request sent)")
        && r.out().contains("\nrerun ") && r.out().contains("; with its prompts reused: ")
        && r.out().contains("in the process's CPU time"), r.out());
    assertTrue(r.err().contains("warm-up: run ") && r.err().contains("repeat 1: run "), r.err());
  }
}

package rolepolicy.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rolepolicy.TestData;
import rolepolicy.generate.SpiderRun;
import rolepolicy.llm.LocalChatServer;
import rolepolicy.llm.LocalChatServer.Reply;

/**
 * {@code run} (and {@code compare} after it) against local servers that behave as real ones do:
 * requests that fail for good, answers cut off at the token limit, a reasoning model's settings and
 * usage, a system message, another server under the same model name, an extra header.
 */
class RealServerRunTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  static RunFixture fixture;
  static Map<String, String> good;

  @TempDir Path dir;

  @BeforeAll
  static void fixture() throws IOException {
    fixture = RunFixture.shared();
    good = fixture.goodAnswers();
  }

  private static Reply goodReply(LocalChatServer.Request r) {
    return Reply.text(good.get(RunFixture.questionOf(r.prompt())));
  }

  /** OpenAI's reasoning models: 400 on temperature and on max_tokens; reasoning and cached tokens in usage. */
  private static Reply reasoningModel(LocalChatServer.Request r) {
    if (r.body().has("temperature")) {
      return Reply.json(400, "{\"error\":{\"message\":\"Unsupported value: 'temperature' does not support 0 with this model."
          + " Only the default (1) value is supported.\",\"type\":\"invalid_request_error\",\"param\":\"temperature\"}}");
    }
    if (r.body().has("max_tokens")) {
      return Reply.json(400, "{\"error\":{\"message\":\"Unsupported parameter: 'max_tokens' is not supported with this model."
          + " Use 'max_completion_tokens' instead.\",\"type\":\"invalid_request_error\",\"param\":\"max_tokens\"}}");
    }
    ObjectNode body = JSON.createObjectNode().put("id", "chatcmpl-1").put("object", "chat.completion")
        .put("model", "o4-mini-2025-04-16").put("system_fingerprint", "fp_7e2b");
    body.putArray("choices").addObject().put("index", 0).put("finish_reason", "stop")
        .putObject("message").put("role", "assistant").put("content", good.get(RunFixture.questionOf(r.prompt())));
    ObjectNode usage = body.putObject("usage").put("prompt_tokens", 1000).put("completion_tokens", 500).put("total_tokens", 1500);
    usage.putObject("prompt_tokens_details").put("cached_tokens", 256);
    usage.putObject("completion_tokens_details").put("reasoning_tokens", 448);
    return Reply.json(200, body.toString());
  }

  private static RunFixture.Result run(List<String> args) {
    return RunFixture.main(args.toArray(String[]::new));
  }

  private static JsonNode read(Path file) throws IOException {
    return JSON.readTree(file.toFile());
  }

  @Test
  void aRunWithThreePercentOfItsRequestsFailingForGoodExitsNonZeroAndCompareRefusesItBesideACompleteOne() throws IOException {
    // 100 dev questions; the server fails 3 of them (HTTP 500) however often they are asked
    JsonNode dev = SpiderRun.records("dev", "dev.json");
    ArrayNode hundred = JSON.createArrayNode();
    Map<String, String> answers = new java.util.HashMap<>();
    for (int i = 0; i < 100; i++) {
      JsonNode r = dev.get(i);
      hundred.add(r);
      JsonNode label = r.path("gold_label");
      answers.put(r.path("question").asText(), label.path("type").asText().equals("REFUSE") ? "REFUSE" : label.path("sql").asText());
    }
    Path dataset = dir.resolve("dev-100.json");
    JSON.writeValue(dataset.toFile(), hundred);
    Set<String> failing = Set.of(dev.get(10).path("question").asText(), dev.get(50).path("question").asText(),
        dev.get(90).path("question").asText());
    try (LocalChatServer server = new LocalChatServer(r -> {
      String q = RunFixture.questionOf(r.prompt());
      return failing.contains(q) ? Reply.error(500, "CUDA out of memory") : Reply.text(answers.get(q));
    })) {
      List<String> common = List.of("--llm-url", server.baseUrl(), "--dataset", dataset.toString(),
          "--tables", TestData.spiderDir().resolve("tables.json").toString(), "--bank", fixture.bank.toString(),
          "--policy", "tiered", "--examples", "1", "--llm-retries", "1", "--llm-backoff", "0");
      List<String> failingRun = new ArrayList<>(List.of("run", "--llm-model", "flaky", "--out", dir.resolve("flaky").toString()));
      failingRun.addAll(common);
      RunFixture.Result r = run(failingRun);
      assertEquals(3, r.code(), "3 questions without an answer: not a success\n" + r.err());
      assertTrue(r.out().contains("100 questions: ") && r.out().contains(" 0 no SQL found, 0 truncated, 3 failed (HTTP 500: 3)"),
          r.out());
      assertTrue(r.err().contains("error: 3 questions of 100 have no final answer (3 failed, 0 truncated)"), r.err());
      JsonNode metrics = read(dir.resolve("flaky/metrics.json"));
      assertEquals(3, metrics.at("/answers/failed").asInt(), "3 % failed, counted in metrics.json");
      assertEquals(100, java.util.stream.StreamSupport.stream(metrics.path("answers").spliterator(), false)
          .mapToInt(JsonNode::asInt).sum());
      JsonNode unanswered = read(dir.resolve("flaky/run.json")).path("unanswered");
      assertEquals(Set.of(dev.get(10).path("id").asText(), dev.get(50).path("id").asText(), dev.get(90).path("id").asText()),
          Set.copyOf(iterable(unanswered.fieldNames())));
      assertTrue(unanswered.path(dev.get(10).path("id").asText()).asText().contains("CUDA out of memory"), unanswered.toString());

      List<String> completeRun = new ArrayList<>(List.of("run", "--llm-model", "steady", "--out", dir.resolve("steady").toString()));
      completeRun.addAll(common);
      server.setHandler(req -> Reply.text(answers.get(RunFixture.questionOf(req.prompt()))));
      assertEquals(0, run(completeRun).code());

      RunFixture.Result refused = RunFixture.main("compare", dir.resolve("steady").toString(), dir.resolve("flaky").toString(),
          "--out", dir.resolve("compare").toString(), "--resamples", "200");
      assertEquals(1, refused.code(), refused.out());
      assertTrue(refused.err().contains("runs with questions they have no final answer to (failed or cut off; run.json's unanswered): "
          + dir.resolve("flaky") + " (3 of 100 questions"), refused.err());
      assertTrue(refused.err().contains("--allow-incomplete"), refused.err());
      assertFalse(Files.exists(dir.resolve("compare")), "nothing written");

      RunFixture.Result allowed = RunFixture.main("compare", dir.resolve("steady").toString(), dir.resolve("flaky").toString(),
          "--out", dir.resolve("compare").toString(), "--resamples", "200", "--allow-incomplete");
      assertEquals(0, allowed.code(), allowed.err());
      assertTrue(allowed.out().startsWith("2 runs over 97 questions paired by id"), allowed.out());
      assertTrue(allowed.out().contains("left out: 3 questions some run has no final answer to (flaky 3)"), allowed.out());
      assertTrue(allowed.out().contains("settings differ: model: steady steady, flaky flaky"), allowed.out());
      JsonNode compared = read(dir.resolve("compare/compare.json"));
      assertEquals(97, compared.path("questions").asInt());
      assertEquals(3, compared.at("/left_out/questions").asInt());
      assertEquals(3, compared.at("/runs/1/answers/failed").asInt());
      assertEquals(0, compared.at("/pairs/0/decision/only_a").asInt() + compared.at("/pairs/0/decision/only_b").asInt(),
          "on the 97 both answered, the same answers");
    }
  }

  @Test
  void anAnswerCutOffAtTheTokenLimitIsTruncatedNotScoredAndAskedAgain() throws IOException {
    String cut = fixture.records.get(0).path("question").asText();
    try (LocalChatServer server = new LocalChatServer(r -> {
      String q = RunFixture.questionOf(r.prompt());
      if (!q.equals(cut)) {
        return goodReply(r);
      }
      return Reply.json(200, "{\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"SELECT count(*) FROM"
          + " singer WHERE\"},\"finish_reason\":\"length\"}],\"usage\":{\"prompt_tokens\":900,\"completion_tokens\":16}}");
    })) {
      Path out = dir.resolve("cut");
      RunFixture.Result r = run(fixture.runArgs(server.baseUrl(), out, "--max-tokens", "16"));
      assertEquals(3, r.code(), r.err());
      assertTrue(r.out().contains(" 0 no SQL found, 1 truncated, 0 failed"), r.out());
      JsonNode runJson = read(out.resolve("run.json"));
      assertTrue(runJson.path("unanswered").path(fixture.records.get(0).path("id").asText()).asText().startsWith("truncated:"),
          runJson.path("unanswered").toString());
      assertEquals(16, runJson.at("/configuration/max_tokens").asInt());
      assertEquals("max_tokens", runJson.at("/configuration/token_field").asText());
      assertEquals("", Files.readAllLines(out.resolve("predictions.txt")).get(0), "a cut-off answer is no prediction");
      int before = server.count();
      assertEquals(3, run(fixture.runArgs(server.baseUrl(), out, "--max-tokens", "16")).code());
      assertEquals(1, server.count() - before, "a rerun asks only the cut-off question again");
    }
  }

  @Test
  void aReasoningModelRunsWithItsSettingsItsReasoningTokensAndCostCounted() throws IOException {
    try (LocalChatServer server = new LocalChatServer(RealServerRunTest::reasoningModel)) {
      RunFixture.Result refused = run(fixture.runArgs(server.baseUrl(), dir.resolve("default"), "--limit", "2"));
      assertEquals(1, refused.code(), "temperature 0 is refused by the model: every request failed");
      assertTrue(refused.err().contains("it names \"temperature\": --temperature none leaves it out"), refused.err());

      Path out = dir.resolve("o4-mini");
      RunFixture.Result r = run(fixture.runArgs(server.baseUrl(), out, "--temperature", "none", "--max-tokens", "4000",
          "--token-field", "max_completion_tokens", "--reasoning-effort", "low", "--price-in", "1.10", "--price-out", "4.40"));
      assertEquals(0, r.code(), r.err());
      int n = RunFixture.QUESTIONS;
      JsonNode sent = server.requests().get(server.requests().size() - 1).body();
      assertFalse(sent.has("temperature"));
      assertEquals(4000, sent.path("max_completion_tokens").asInt());
      assertEquals("low", sent.path("reasoning_effort").asText());
      JsonNode requests = read(out.resolve("run.json")).path("requests");
      assertEquals(n, requests.path("requests").asInt());
      assertEquals(448L * n, requests.path("reasoning_tokens").asLong());
      assertEquals(256L * n, requests.path("cached_tokens").asLong());
      assertEquals((1000 * 1.10 + 500 * 4.40) * n / 1e6, requests.path("cost").asDouble(), 1e-12);
      assertEquals(n, requests.at("/served_by/o4-mini-2025-04-16").asInt());
      assertEquals(n, requests.at("/system_fingerprints/fp_7e2b").asInt());
      assertTrue(r.out().contains(String.format(java.util.Locale.ROOT, "tokens now: %,d prompt (%,d cached), %,d completion (%,d reasoning);"
          + " reused: 0 prompt, 0 completion", 1000 * n, 256 * n, 500 * n, 448 * n)), r.out());
      assertTrue(r.out().contains(String.format(java.util.Locale.ROOT, "cost: $%.4f now, $0.0000 of the answers reused, $%.4f in all",
          (1000 * 1.10 + 500 * 4.40) * n / 1e6, (1000 * 1.10 + 500 * 4.40) * n / 1e6)), r.out());

      // run again: nothing sent, the same cost now counted as reused
      RunFixture.Result again = run(fixture.runArgs(server.baseUrl(), out, "--temperature", "none", "--max-tokens", "4000",
          "--token-field", "max_completion_tokens", "--reasoning-effort", "low", "--price-in", "1.10", "--price-out", "4.40"));
      assertTrue(again.out().contains("requests: 0 answered now, " + n + " answers reused")
          && again.out().contains("cost: $0.0000 now, "), again.out());
    }
  }

  @Test
  void aSystemMessageCarriesThePolicyRulesAndThePromptThenDoesNot() throws IOException {
    Path system = dir.resolve("system.txt");
    Files.writeString(system, "You write SQLite under column usage policies.\n{{policy_rules}}\n");
    try (LocalChatServer server = new LocalChatServer(RealServerRunTest::goodReply)) {
      Path out = dir.resolve("system");
      RunFixture.Result r = run(fixture.runArgs(server.baseUrl(), out, "--system", system.toString(), "--limit", "2"));
      assertEquals(0, r.code(), r.err());
      JsonNode messages = server.requests().get(0).body().path("messages");
      assertEquals("system", messages.at("/0/role").asText());
      String policies = messages.at("/0/content").asText();
      assertTrue(policies.startsWith("You write SQLite under column usage policies.\n") && policies.contains("JoinOnly"), policies);
      String prompt = messages.at("/1/content").asText();
      String firstRule = policies.lines().skip(1).findFirst().orElseThrow();
      assertFalse(prompt.contains(firstRule), "the rules are not in the prompt too: " + firstRule);
      assertEquals(64, read(out.resolve("run.json")).at("/system/sha256").asText().length());
    }
  }

  @Test
  void aRunWithEverySettingResumesInItsFolderAndSendsNothingTwice() throws IOException {
    try (LocalChatServer server = new LocalChatServer(RealServerRunTest::goodReply)) {
      Path out = dir.resolve("settings");
      List<String> args = fixture.runArgs(server.baseUrl(), out, "--limit", "3", "--temperature", "0.2", "--max-tokens", "300",
          "--seed", "7", "--top-p", "0.9", "--stop", ";", "--extra-body", "{\"top_k\": 20}");
      assertEquals(0, run(args).code());
      JsonNode sent = server.requests().get(0).body();
      assertEquals("{\"temperature\":0.2,\"max_tokens\":300,\"seed\":7,\"top_p\":0.9,\"stop\":[\";\"],\"top_k\":20}",
          settingsOf(sent));
      RunFixture.Result again = run(args);
      assertEquals(0, again.code(), "the same settings read back from run.json are the same: " + again.err());
      assertEquals(3, server.count(), "nothing sent twice");

      // a folder from before run.json held its configuration: nothing to compare, the run goes on
      ObjectNode older = (ObjectNode) read(out.resolve("run.json"));
      older.remove("configuration");
      JSON.writeValue(out.resolve("run.json").toFile(), older);
      assertEquals(0, run(args).code());
    }
  }

  /** The request settings of a body: every field but model and messages, in order. */
  private static String settingsOf(JsonNode body) {
    ObjectNode settings = body.deepCopy();
    settings.remove("model");
    settings.remove("messages");
    return settings.toString();
  }

  @Test
  void requestsPerMinuteSpaceTheRequestsOfEveryWorker() throws IOException {
    List<Long> arrivals = java.util.Collections.synchronizedList(new ArrayList<>());
    try (LocalChatServer server = new LocalChatServer(r -> {
      arrivals.add(System.nanoTime());
      return goodReply(r);
    })) {
      // 300 a minute: a slot every 200 ms, whatever the 4 workers do; each request arrives after its slot, so
      // the i-th arrival comes at least i slots after the start (unpaced, the 12 take about half a second)
      long start = System.nanoTime();
      RunFixture.Result r = run(fixture.runArgs(server.baseUrl(), dir.resolve("paced"), "--rpm", "300", "--parallel", "4"));
      assertEquals(0, r.code(), r.err());
      List<Long> sorted = arrivals.stream().sorted().toList();
      assertEquals(RunFixture.QUESTIONS, sorted.size());
      for (int i = 0; i < sorted.size(); i++) {
        assertTrue(sorted.get(i) - start >= i * 200_000_000L, "request " + i + " came " + (sorted.get(i) - start) / 1e6
            + " ms after the start");
      }
    }
  }

  @Test
  void anotherServerUnderTheSameModelNameIsAnotherRunAndNeverReusesTheAnswers() throws IOException {
    try (LocalChatServer first = new LocalChatServer(RealServerRunTest::goodReply);
        LocalChatServer second = new LocalChatServer(RealServerRunTest::goodReply)) {
      Path out = dir.resolve("same-name");
      assertEquals(0, run(fixture.runArgs(first.baseUrl(), out, "--limit", "3")).code());
      RunFixture.Result refused = run(fixture.runArgs(second.baseUrl(), out, "--limit", "3"));
      assertEquals(2, refused.code());
      assertTrue(refused.err().contains("endpoint " + first.baseUrl() + "/chat/completions → " + second.baseUrl() + "/chat/completions"),
          refused.err());
      assertEquals(0, second.count());
      RunFixture.Result forced = run(fixture.runArgs(second.baseUrl(), out, "--limit", "3", "--force"));
      assertEquals(0, forced.code(), forced.err());
      assertEquals(3, second.count(), "the other server's answers are its own: none reused from the first");
    }
  }

  @Test
  void anExtraHeaderIsSentAndItsValueWrittenNowhere() throws IOException {
    try (LocalChatServer server = new LocalChatServer(RealServerRunTest::goodReply)) {
      Path out = dir.resolve("header");
      RunFixture.Result r = run(fixture.runArgs(server.baseUrl(), out, "--limit", "2", "--llm-header", "api-key: sk-secret-123"));
      assertEquals(0, r.code(), r.err());
      assertEquals("sk-secret-123", server.requests().get(0).headers().getFirst("api-key"));
      assertEquals("[\"api-key\"]", read(out.resolve("run.json")).at("/configuration/headers").toString());
      try (Stream<Path> files = Files.walk(out)) {
        for (Path f : files.filter(Files::isRegularFile).toList()) {
          assertFalse(Files.readString(f).contains("sk-secret"), f + " holds the header's value");
        }
      }
      RunFixture.Result bad = run(fixture.runArgs(server.baseUrl(), dir.resolve("bad"), "--llm-header", "no colon here"));
      assertEquals(2, bad.code());
      assertTrue(bad.err().contains("--llm-header takes 'Name: value'") && !bad.err().contains("no colon here"), bad.err());
    }
  }

  private static <T> List<T> iterable(java.util.Iterator<T> it) {
    List<T> all = new ArrayList<>();
    it.forEachRemaining(all::add);
    return all;
  }
}

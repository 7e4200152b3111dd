package rolepolicy.llm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rolepolicy.llm.LocalChatServer;
import rolepolicy.llm.LocalChatServer.Reply;
import rolepolicy.io.InputException;

/** The chat-completions client against a local server speaking the protocol. */
class ChatEndpointTest {
  @TempDir Path temp;

  private static ChatEndpoint endpoint(LocalChatServer server, double timeout, int retries) {
    return new ChatEndpoint(new ChatEndpoint.Connection(server.baseUrl(), "test-model", "TEST_KEY", timeout, retries),
        Map.of("TEST_KEY", "sk-local"));
  }

  @Test
  void sendsModelTemperatureZeroKeyAndTheMessage() throws Exception {
    try (LocalChatServer server = new LocalChatServer(r -> Reply.text("YES"))) {
      assertEquals("YES", endpoint(server, 5, 0).complete("Is 1 the same as 1.0?"));
      LocalChatServer.Request request = server.requests().get(0);
      assertEquals("/v1/chat/completions", request.path());
      assertEquals("Bearer sk-local", request.authorization());
      assertEquals("test-model", request.body().get("model").asText());
      assertEquals(0.0, request.body().get("temperature").asDouble());
      assertEquals("user", request.body().at("/messages/0/role").asText());
      assertEquals("Is 1 the same as 1.0?", request.prompt());
    }
  }

  @Test
  void anErrorIsRetriedThenReportedWithTheEndpoint() throws Exception {
    try (LocalChatServer server = new LocalChatServer(r -> Reply.error(500))) {
      EndpointException e = assertThrows(EndpointException.class, () -> endpoint(server, 5, 1).complete("x"));
      assertEquals(2, server.requests().size(), "one try and one retry");
      assertEquals(500, e.status());
      assertTrue(e.getMessage().startsWith("test-model at " + server.baseUrl() + ": the endpoint answered with an error"),
          e.getMessage());
    }
  }

  @Test
  void aRetryThatSucceedsIsNotAnError() throws Exception {
    java.util.concurrent.atomic.AtomicInteger calls = new java.util.concurrent.atomic.AtomicInteger();
    try (LocalChatServer server = new LocalChatServer(r -> calls.getAndIncrement() == 0 ? Reply.error(503) : Reply.text("NO"))) {
      assertEquals("NO", endpoint(server, 5, 2).complete("x"));
      assertEquals(2, server.requests().size());
    }
  }

  @Test
  void aSlowAnswerTimesOut() throws Exception {
    try (LocalChatServer server = new LocalChatServer(r -> Reply.slow("YES", 3000))) {
      EndpointException e = assertThrows(EndpointException.class, () -> endpoint(server, 0.3, 0).complete("x"));
      assertTrue(e.getMessage().contains("no answer within the time limit"), e.getMessage()); // not the answer "YES"
    }
  }

  @Test
  void withoutAKeyNoAuthorizationHeaderIsSent() throws Exception {
    try (LocalChatServer server = new LocalChatServer(r -> Reply.text("YES"))) {
      ChatEndpoint keyless = new ChatEndpoint(new ChatEndpoint.Connection(server.baseUrl(), "m", "UNSET", 5, 0), Map.of());
      assertEquals("YES", keyless.complete("x"));
      assertEquals(null, server.requests().get(0).authorization());
    }
  }

  @Test
  void anAnswerCarriesItsTokensLatencyAndRetries() throws Exception {
    java.util.concurrent.atomic.AtomicInteger calls = new java.util.concurrent.atomic.AtomicInteger();
    try (LocalChatServer server = new LocalChatServer(r -> calls.getAndIncrement() == 0 ? Reply.error(502) : Reply.text("SELECT 1"))) {
      ChatEndpoint fast = new ChatEndpoint(new ChatEndpoint.Connection(server.baseUrl(), "m", "K", 5, 2, 0.01), Map.of());
      ChatEndpoint.Completion c = fast.chat(java.util.List.of(new ChatEndpoint.Message("system", "be brief"),
          ChatEndpoint.Message.user("one two three")));
      assertEquals("SELECT 1", c.text());
      assertEquals(1, c.retries());
      assertEquals(2, c.completionTokens());
      assertTrue(c.promptTokens() > 0);
      assertTrue(c.latencyMillis() >= 0);
      assertEquals("system", server.requests().get(1).body().at("/messages/0/role").asText());
    }
  }

  @Test
  void aRateLimitWaitsAsItsRetryAfterSays() throws Exception {
    java.util.concurrent.atomic.AtomicInteger calls = new java.util.concurrent.atomic.AtomicInteger();
    try (LocalChatServer server = new LocalChatServer(r -> calls.getAndIncrement() == 0 ? Reply.rateLimited("1") : Reply.text("NO"))) {
      // a back-off of 10 ms: only the Retry-After makes the client wait a second
      ChatEndpoint fast = new ChatEndpoint(new ChatEndpoint.Connection(server.baseUrl(), "m", "K", 5, 1, 0.01), Map.of());
      long start = System.nanoTime();
      assertEquals("NO", fast.complete("x"));
      assertTrue((System.nanoTime() - start) / 1e9 >= 0.95, "waited as Retry-After asked");
    }
    try (LocalChatServer server = new LocalChatServer(r -> Reply.rateLimited("0"))) {
      EndpointException e = assertThrows(EndpointException.class, () -> endpoint(server, 5, 1).complete("x"));
      assertTrue(e.getMessage().contains("rate-limiting (HTTP 429") && e.getMessage().contains("after 1 retry"), e.getMessage());
      assertEquals(429, e.status());
      assertEquals(2, server.count());
    }
  }

  @Test
  void aBodyThatIsNotJsonIsAClearErrorNotRetried() throws Exception {
    try (LocalChatServer server = new LocalChatServer(r -> Reply.raw(200, "<html>gateway login</html>"))) {
      EndpointException e = assertThrows(EndpointException.class, () -> endpoint(server, 5, 2).complete("x"));
      assertTrue(e.getMessage().contains("the answer is not JSON: <html>gateway login</html>"), e.getMessage());
      assertEquals(1, server.count());
    }
  }

  @Test
  void reasoningGivenApartIsSetAsideAndTheFinishReasonKept() throws Exception {
    // vLLM with a reasoning parser, DeepSeek: the thinking in reasoning_content, the answer in content
    String body = "{\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"REFUSE\","
        + "\"reasoning_content\":\"SELECT salary FROM employee would read a Hidden column.\"},\"finish_reason\":\"stop\"}],"
        + "\"usage\":{\"prompt_tokens\":12,\"completion_tokens\":40}}";
    try (LocalChatServer server = new LocalChatServer(r -> Reply.raw(200, body))) {
      ChatEndpoint.Completion c = endpoint(server, 5, 0).chat(List.of(ChatEndpoint.Message.user("x")));
      assertEquals("REFUSE", c.text());
      assertEquals("SELECT salary FROM employee would read a Hidden column.", c.reasoning());
      assertEquals("stop", c.finishReason());
      assertEquals(ModelAnswer.Kind.REFUSE, ModelAnswer.read(c.text(), c.finishReason()).kind());
    }
  }

  @Test
  void anAnswerCutOffWhileThinkingIsTruncated() throws Exception {
    // the token limit reached inside the reasoning: no content at all
    String body = "{\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":null,"
        + "\"reasoning_content\":\"Let me think about the salary column\"},\"finish_reason\":\"length\"}]}";
    try (LocalChatServer server = new LocalChatServer(r -> Reply.raw(200, body))) {
      ChatEndpoint.Completion c = endpoint(server, 5, 0).chat(List.of(ChatEndpoint.Message.user("x")));
      assertEquals("", c.text());
      assertEquals("length", c.finishReason());
      assertEquals(ModelAnswer.Kind.TRUNCATED, ModelAnswer.read(c.text(), c.finishReason()).kind());
    }
    // Ollama or vLLM without a reasoning parser: the thinking inline, in <think> tags
    try (LocalChatServer server = new LocalChatServer(r -> Reply.text("<think>SELECT salary? No.</think>\nSELECT name FROM employee"))) {
      ChatEndpoint.Completion c = endpoint(server, 5, 0).chat(List.of(ChatEndpoint.Message.user("x")));
      assertEquals("SELECT name FROM employee", ModelAnswer.read(c.text(), c.finishReason()).prediction());
    }
  }

  @Test
  void theUrlIsABaseOrTheFullChatCompletionsUrlItsQueryStringKept() throws Exception {
    assertEquals("http://127.0.0.1:8000/v1/chat/completions", ChatEndpoint.chatCompletions("http://127.0.0.1:8000/v1/").toString());
    assertEquals("https://x.example/openai/deployments/d/chat/completions?api-version=2024-02-01",
        ChatEndpoint.chatCompletions("https://x.example/openai/deployments/d/chat/completions?api-version=2024-02-01").toString());
    assertEquals("https://x.example/openai/deployments/d/chat/completions?api-version=2024-02-01",
        ChatEndpoint.chatCompletions("https://x.example/openai/deployments/d?api-version=2024-02-01").toString());
    assertThrows(IllegalArgumentException.class, () -> ChatEndpoint.chatCompletions("localhost:8000/v1"));
    try (LocalChatServer server = new LocalChatServer(r -> Reply.text("YES"))) {
      String full = server.baseUrl() + "/chat/completions?api-version=1";
      ChatEndpoint endpoint = new ChatEndpoint(new ChatEndpoint.Connection(full, "m", null, 5, 0), Map.of());
      assertEquals("YES", endpoint.complete("x"));
      assertEquals("/v1/chat/completions", server.requests().get(0).path(), "not /chat/completions twice");
    }
  }

  @Test
  void aKeyOverPlainHttpToAnotherHostIsWarnedOf() {
    Map<String, String> env = Map.of("K", "sk-secret");
    assertTrue(new ChatEndpoint(new ChatEndpoint.Connection("http://gpu-box.example:8000/v1", "m", "K", 5, 0), env)
        .keyWarning().contains("goes over plain http to gpu-box.example"));
    assertNull(new ChatEndpoint(new ChatEndpoint.Connection("https://api.example/v1", "m", "K", 5, 0), env).keyWarning());
    assertNull(new ChatEndpoint(new ChatEndpoint.Connection("http://127.0.0.1:8000/v1", "m", "K", 5, 0), env).keyWarning());
    assertNull(new ChatEndpoint(new ChatEndpoint.Connection("http://gpu-box.example:8000/v1", "m", null, 5, 0), env).keyWarning(),
        "no --llm-key-env: no key, nothing to warn of");
  }

  @Test
  void aRefusedKeyIsNotRetried() throws Exception {
    try (LocalChatServer server = new LocalChatServer(r -> Reply.error(401))) {
      EndpointException e = assertThrows(EndpointException.class, () -> endpoint(server, 5, 2).complete("x"));
      assertTrue(e.getMessage().contains("the key was refused (HTTP 401"), e.getMessage());
      assertEquals(1, server.count());
    }
  }

  @Test
  void retryAfterReadsSecondsAndDates() {
    assertEquals(java.time.Duration.ofMillis(1500), ChatEndpoint.retryAfter("1.5"));
    assertEquals(ChatEndpoint.LONGEST_WAIT, ChatEndpoint.retryAfter("100000"));
    assertEquals(java.time.Duration.ZERO, ChatEndpoint.retryAfter("Wed, 21 Oct 2015 07:28:00 GMT"));
    assertEquals(null, ChatEndpoint.retryAfter("soon"));
  }

  @Test
  void noEndpointListeningIsAClearError() throws Exception {
    String url;
    try (LocalChatServer server = new LocalChatServer(r -> Reply.text("YES"))) {
      url = server.baseUrl();
    }
    ChatEndpoint closed = new ChatEndpoint(new ChatEndpoint.Connection(url, "m", "UNSET", 2, 0), Map.of());
    EndpointException e = assertThrows(EndpointException.class, () -> closed.complete("x"));
    assertTrue(e.getMessage().startsWith("m at " + url + ": "), e.getMessage());
  }

  @Test
  void promptTemplatesNameFileAndLineOfAnUnknownPlaceholder() throws Exception {
    Path file = temp.resolve("judge.txt");
    Files.writeString(file, "Attribute: {{attribute}}\nGold: {{gold}}\nSystem: {{ system }}\n");
    InputException e = assertThrows(InputException.class, () -> PromptTemplate.read(file, Set.of("attribute", "gold")));
    assertTrue(e.getMessage().startsWith(file + ": line 3: unknown placeholder {{system}}"), e.getMessage());
    Files.writeString(file, "Attribute: {{attribute}} and {{gold\n");
    e = assertThrows(InputException.class, () -> PromptTemplate.read(file, Set.of("attribute", "gold")));
    assertTrue(e.getMessage().startsWith(file + ": line 1: '{{' that does not start a placeholder"), e.getMessage());
    Files.writeString(file, "A={{attribute}}, G={{ gold }}, again {{attribute}}; $1 \\ kept");
    assertEquals("A=x, G=$y, again x; $1 \\ kept",
        PromptTemplate.read(file, Set.of("attribute", "gold")).render(Map.of("attribute", "x", "gold", "$y")));
  }

  @Test
  void aPromptTemplateThatIsADeviceOrOverTheLimitIsRefusedByName() throws Exception {
    Path zero = Files.createSymbolicLink(temp.resolve("zero.txt"), Path.of("/dev/zero"));
    assertEquals(zero + ": the prompt template is not a regular file (a device, pipe or socket); give a text file",
        assertThrows(InputException.class, () -> PromptTemplate.read(zero, Set.of())).getMessage());
    Path large = temp.resolve("large.txt");
    Files.writeString(large, "x".repeat(rolepolicy.io.SmallText.LIMIT + 1));
    assertEquals(large + ": the prompt template is over 1 MiB, the limit of a prompt template; give a smaller file",
        assertThrows(InputException.class, () -> PromptTemplate.read(large, Set.of())).getMessage());
  }

  @Test
  void logProbabilitiesAreAskedForOnlyWhenSetAndGiveThePerplexity() throws Exception {
    java.util.List<Double> logprobs = java.util.List.of(-0.1, -0.2, 0.0, -0.5);
    try (LocalChatServer server = new LocalChatServer(r -> Reply.withLogprobs("SELECT 1", logprobs))) {
      ChatEndpoint asking = new ChatEndpoint(new ChatEndpoint.Connection(server.baseUrl(), "m", "UNSET", 5, 0), Map.of(), true);
      ChatEndpoint.Completion c = asking.completion("x");
      assertTrue(server.requests().get(0).body().get("logprobs").asBoolean());
      assertEquals(Math.exp(0.8 / 4), c.perplexity(), 1e-12, "exp(-mean log-probability)");
      ChatEndpoint.Completion plain = endpoint(server, 5, 0).completion("x");
      assertTrue(server.requests().get(1).body().get("logprobs") == null, "not asked: the body is as before");
      assertEquals(null, plain.perplexity());
    }
  }

  @Test
  void anEndpointThatGivesNoLogProbabilitiesIsNoError() throws Exception {
    try (LocalChatServer server = new LocalChatServer(r -> Reply.text("SELECT 1"))) {
      ChatEndpoint asking = new ChatEndpoint(new ChatEndpoint.Connection(server.baseUrl(), "m", "UNSET", 5, 0), Map.of(), true);
      ChatEndpoint.Completion c = asking.completion("x");
      assertEquals("SELECT 1", c.text());
      assertEquals(null, c.perplexity());
    }
    assertEquals(null, ChatEndpoint.perplexity(new com.fasterxml.jackson.databind.ObjectMapper().readTree("[]")));
    assertEquals(null, ChatEndpoint.perplexity(new com.fasterxml.jackson.databind.ObjectMapper()
        .readTree("[{\"logprob\": -0.1}, {\"logprob\": null}]")), "a token without a number: no perplexity");
  }

  @Test
  void theStandInCountsWordsAsSplittingOnWhitespaceDoes() {
    java.util.Random random = new java.util.Random(7);
    char[] alphabet = {'a', 'b', ' ', '\t', '\n', '\r', '\f', '\u000B', '\u2003', '\u00A0', '\u001C', '\\', '"', '_'};
    for (int n = 0; n < 5000; n++) {
      StringBuilder text = new StringBuilder();
      for (int i = random.nextInt(12); i > 0; i--) {
        text.append(alphabet[random.nextInt(alphabet.length)]);
      }
      String t = text.toString();
      assertEquals(t.isBlank() ? 0 : t.strip().split("\\s+").length, LocalChatServer.words(t), () -> "\"" + t.replace("\n", "\\n") + "\"");
    }
    assertEquals(0, LocalChatServer.words(null));
    // an escaped line feed, as in a request's JSON, parts no words
    assertEquals(2, LocalChatServer.words("[{\"role\":\"user\",\"content\":\"two words\\nand\"}]"));
  }
}

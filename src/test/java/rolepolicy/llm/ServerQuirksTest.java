package rolepolicy.llm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.http.HttpHeaders;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import rolepolicy.llm.LocalChatServer.Reply;

/**
 * The client against local servers that behave as the real ones do: OpenAI's reasoning models, its
 * rate limits, vLLM's and Ollama's extra fields, and the settings a researcher sets.
 */
class ServerQuirksTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** OpenAI's o-series and GPT-5: only the default temperature, max_completion_tokens only, reasoning tokens in usage. */
  private static Reply reasoningModel(LocalChatServer.Request r) {
    if (r.body().has("temperature")) {
      return Reply.json(400, "{\"error\":{\"message\":\"Unsupported value: 'temperature' does not support 0 with this model."
          + " Only the default (1) value is supported.\",\"type\":\"invalid_request_error\",\"param\":\"temperature\","
          + "\"code\":\"unsupported_value\"}}");
    }
    if (r.body().has("max_tokens")) {
      return Reply.json(400, "{\"error\":{\"message\":\"Unsupported parameter: 'max_tokens' is not supported with this model."
          + " Use 'max_completion_tokens' instead.\",\"type\":\"invalid_request_error\",\"param\":\"max_tokens\","
          + "\"code\":\"unsupported_parameter\"}}");
    }
    return Reply.json(200, "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion\",\"model\":\"o4-mini-2025-04-16\","
        + "\"system_fingerprint\":\"fp_abc123\",\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\","
        + "\"content\":\"SELECT name FROM singer\"},\"finish_reason\":\"stop\"}],\"usage\":{\"prompt_tokens\":120,"
        + "\"completion_tokens\":400,\"total_tokens\":520,\"prompt_tokens_details\":{\"cached_tokens\":64},"
        + "\"completion_tokens_details\":{\"reasoning_tokens\":384}}}");
  }

  private static ChatEndpoint endpoint(String url, RequestSettings request, double backoff, int retries) {
    return new ChatEndpoint(new ChatEndpoint.Connection(url, "o4-mini", null, 10, retries, backoff), Map.of(), false, request,
        Map.of(), Pace.NONE);
  }

  @Test
  void aReasoningModelRefusesTemperatureAndTheErrorNamesTheOptionThatLeavesItOut() throws Exception {
    try (LocalChatServer server = new LocalChatServer(ServerQuirksTest::reasoningModel)) {
      EndpointException e = assertThrows(EndpointException.class,
          () -> endpoint(server.baseUrl(), RequestSettings.DEFAULT, 0.01, 2).complete("Which singers?"));
      assertEquals(1, server.count(), "a 400 is not retried");
      assertEquals(400, e.status());
      assertTrue(e.getMessage().contains("it names \"temperature\": --temperature none leaves it out"), e.getMessage());
    }
  }

  @Test
  void aReasoningModelTakesMaxCompletionTokensOnlyAndReportsItsReasoningTokens() throws Exception {
    try (LocalChatServer server = new LocalChatServer(ServerQuirksTest::reasoningModel)) {
      RequestSettings limited = new RequestSettings(null, 2000, null, null, null, List.of(), "low", null);
      // on 127.0.0.1 the limit goes as max_tokens, which every local server reads: this model refuses it
      EndpointException e = assertThrows(EndpointException.class, () -> endpoint(server.baseUrl(), limited, 0.01, 0).complete("q"));
      assertTrue(e.getMessage().contains("it names \"max_tokens\": --token-field max_completion_tokens sends the limit as that"),
          e.getMessage());

      RequestSettings asOpenAi = new RequestSettings(null, 2000, RequestSettings.MAX_COMPLETION_TOKENS, null, null, List.of(), "low",
          null);
      ChatEndpoint.Completion c = endpoint(server.baseUrl(), asOpenAi, 0.01, 0).completion("q");
      assertEquals("SELECT name FROM singer", c.text());
      assertEquals(384, c.usage().reasoningTokens());
      assertEquals(64, c.usage().cachedTokens());
      assertEquals("o4-mini-2025-04-16", c.usage().model());
      assertEquals("fp_abc123", c.usage().systemFingerprint());
      ObjectNode sent = (ObjectNode) server.requests().get(1).body();
      assertFalse(sent.has("temperature"));
      assertEquals(2000, sent.path("max_completion_tokens").asInt());
      assertEquals("low", sent.path("reasoning_effort").asText());
    }
  }

  @Test
  void noKeyIsSentUnlessAVariableIsNamedEvenWithOpenAisInTheEnvironment() throws Exception {
    try (LocalChatServer server = new LocalChatServer(r -> Reply.text("SELECT 1"))) {
      Map<String, String> environment = Map.of("OPENAI_API_KEY", "sk-should-stay-home");
      new ChatEndpoint(new ChatEndpoint.Connection(server.baseUrl(), "m", null, 5, 0), environment).complete("q");
      assertNull(server.requests().get(0).authorization(), "no --llm-key-env: no key");
      new ChatEndpoint(new ChatEndpoint.Connection(server.baseUrl(), "m", "OPENAI_API_KEY", 5, 0), environment).complete("q");
      assertEquals("Bearer sk-should-stay-home", server.requests().get(1).authorization());
    }
  }

  @Test
  void theTokenFieldFollowsTheEndpoint() {
    assertEquals("max_completion_tokens", RequestSettings.tokenFieldFor("api.openai.com"));
    assertEquals("max_completion_tokens", RequestSettings.tokenFieldFor("my-deployment.openai.azure.com"));
    assertEquals("max_tokens", RequestSettings.tokenFieldFor("127.0.0.1"));
    assertEquals("max_tokens", RequestSettings.tokenFieldFor("localhost"));
  }

  @Test
  void everySettingGoesInTheBodyTheExtraFieldsLastAndTheHeadersWithIt() throws Exception {
    try (LocalChatServer server = new LocalChatServer(r -> Reply.text("REFUSE"))) {
      ObjectNode extra = (ObjectNode) JSON.readTree("{\"chat_template_kwargs\":{\"enable_thinking\":false},\"top_p\":0.5}");
      RequestSettings all = new RequestSettings(0.2, 256, null, 7L, 0.9, List.of(";", "\n\n"), null, extra);
      ChatEndpoint endpoint = new ChatEndpoint(new ChatEndpoint.Connection(server.baseUrl(), "qwen3", null, 5, 0), Map.of(),
          false, all, Map.of("X-Team", "policy-eval"), Pace.NONE);
      endpoint.complete("q");
      ObjectNode sent = (ObjectNode) server.requests().get(0).body();
      List<String> fields = new ArrayList<>();
      sent.fieldNames().forEachRemaining(fields::add);
      assertEquals(List.of("model", "temperature", "max_tokens", "seed", "top_p", "stop", "messages", "chat_template_kwargs"), fields);
      assertEquals(0.5, sent.path("top_p").asDouble(), "an extra field replaces the option's");
      assertEquals("[\";\",\"\\n\\n\"]", sent.path("stop").toString());
      assertFalse(sent.path("chat_template_kwargs").path("enable_thinking").asBoolean(true));
      assertEquals("policy-eval", server.requests().get(0).headers().getFirst("X-Team"));
      assertEquals(List.of("X-Team"), List.copyOf(endpoint.headerNames()));
    }
  }

  @Test
  void aRateLimitWaitsAsRetryAfterMsSaysNotTheBackOff() throws Exception {
    AtomicInteger calls = new AtomicInteger();
    try (LocalChatServer server = new LocalChatServer(r -> calls.getAndIncrement() == 0
        ? Reply.error(429, "Rate limit reached for requests").withHeader("retry-after-ms", "150")
            .withHeader("x-ratelimit-reset-requests", "2m0s")
        : Reply.text("SELECT 1"))) {
      // a back-off of 100 s: the wait taken is the server's 150 ms
      ChatEndpoint endpoint = endpoint(server.baseUrl(), RequestSettings.DEFAULT, 100, 1);
      ChatEndpoint.Completion c = endpoint.completion("q");
      assertEquals(1, c.retries());
      assertEquals(Duration.ofMillis(150), endpoint.lastRetryWait);
    }
  }

  @Test
  void theServersWaitIsReadFromEachHeaderItMayUse() {
    assertEquals(Duration.ofMillis(250), ChatEndpoint.serverWait(headers(Map.of("retry-after-ms", "250", "Retry-After", "9"))));
    assertEquals(Duration.ofSeconds(9), ChatEndpoint.serverWait(headers(Map.of("Retry-After", "9"))));
    assertEquals(Duration.ofMillis(90_500), ChatEndpoint.serverWait(headers(Map.of("x-ratelimit-reset-requests", "1m30.5s",
        "x-ratelimit-reset-tokens", "20ms"))));
    assertEquals(Duration.ofMinutes(5), ChatEndpoint.serverWait(headers(Map.of("x-ratelimit-reset-tokens", "2h"))), "at most 5 min");
    assertNull(ChatEndpoint.serverWait(headers(Map.of())));
    assertEquals(Duration.ofMillis(6000), ChatEndpoint.resetTime("6s"));
    assertEquals(Duration.ofMillis(1500), ChatEndpoint.resetTime("1.5"));
    assertNull(ChatEndpoint.resetTime("soon"));
    assertNull(ChatEndpoint.resetTime("6s later"));
  }

  @Test
  void aServiceUnavailableWithRetryAfterIsRetriedWhenItSays() throws Exception {
    AtomicInteger calls = new AtomicInteger();
    try (LocalChatServer server = new LocalChatServer(r -> calls.getAndIncrement() == 0
        ? Reply.error(503, "loading model").withHeader("Retry-After", "0") : Reply.text("SELECT 1"))) {
      long start = System.nanoTime();
      assertEquals(1, endpoint(server.baseUrl(), RequestSettings.DEFAULT, 100, 1).completion("q").retries());
      assertTrue((System.nanoTime() - start) / 1e9 < 20, "the server's Retry-After 0, not the back-off of 50 s or more");
    }
  }

  @Test
  void theBackOffDoublesAndItsJitterLeavesOutAtMostHalf() {
    assertEquals(Duration.ofMillis(2000), ChatEndpoint.backoff(1, 2, 0.0));
    assertEquals(Duration.ofMillis(4000), ChatEndpoint.backoff(1, 2, 1.0));
    assertEquals(Duration.ofMillis(3000), ChatEndpoint.backoff(1, 2, 0.5));
    assertEquals(Duration.ofMillis(500), ChatEndpoint.backoff(1, 0, 0.0));
    assertEquals(Duration.ofMinutes(5), ChatEndpoint.backoff(1, 20, 1.0), "at most 5 min");
  }

  @Test
  void requestsPerMinuteSpaceTheRequestsAcrossWorkers() throws InterruptedException {
    long[] now = {0};
    List<Long> sentAt = new ArrayList<>();
    Pace pace = new Pace(120, 0, () -> now[0], nanos -> now[0] += nanos);
    for (int i = 0; i < 4; i++) {
      pace.acquire(10);
      sentAt.add(now[0]);
    }
    assertEquals(List.of(0L, 500_000_000L, 1_000_000_000L, 1_500_000_000L), sentAt, "120 a minute: one every 0.5 s");
  }

  @Test
  void tokensPerMinuteKeepEachRequestsShareOfTheMinute() throws InterruptedException {
    long[] now = {0};
    List<Long> sentAt = new ArrayList<>();
    Pace pace = new Pace(0, 6000, () -> now[0], nanos -> now[0] += nanos);
    for (long tokens : new long[] {1000, 3000, 100}) {
      pace.acquire(tokens);
      sentAt.add(now[0]);
    }
    assertEquals(List.of(0L, 10_000_000_000L, 40_000_000_000L), sentAt, "1,000 of 6,000 a minute: 10 s; 3,000: 30 s");
    assertEquals(1000 / 4 + 256, Pace.estimate(1000, 256));
  }

  private static HttpHeaders headers(Map<String, String> values) {
    Map<String, List<String>> map = new java.util.HashMap<>();
    values.forEach((k, v) -> map.put(k, List.of(v)));
    return HttpHeaders.of(map, (a, b) -> true);
  }
}

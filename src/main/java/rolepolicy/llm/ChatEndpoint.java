package rolepolicy.llm;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import rolepolicy.io.InputException;
import rolepolicy.io.Secrets;

/**
 * One OpenAI-compatible chat-completions endpoint, by base URL: the request settings ({@link
 * RequestSettings}: temperature 0 unless told), a time limit per request, retries with exponential
 * back-off and jitter on 429, 5xx, time-outs and refused connections, honouring the server's {@code
 * Retry-After}, {@code retry-after-ms} and {@code x-ratelimit-reset-*}, and a shared {@link Pace}.
 * Each answer comes with its token usage, latency and retries.
 *
 * <p>Written on java.net.http and Jackson rather than langchain4j's OpenAiChatModel, which hides
 * the HTTP status, the {@code Retry-After} header and its own retry count.
 */
public final class ChatEndpoint {
  /**
   * @param baseUrl e.g. {@code http://localhost:8000/v1}
   * @param model the model name sent with each request
   * @param keyVariable the environment variable holding the API key (unset: no key is sent)
   * @param timeoutSeconds the time limit of one request
   * @param retries how often a failed request is tried again
   * @param backoffSeconds the wait before the first retry, doubled for each next one
   * @param maxBytes the longest reply read; a longer one is a failed request
   */
  public record Connection(String baseUrl, String model, String keyVariable, double timeoutSeconds, int retries,
      double backoffSeconds, long maxBytes) {
    /** The longest reply read by default: 8 MiB, far above a chat answer with its token log-probabilities. */
    public static final long MAX_BYTES = 8L << 20;

    public Connection(String baseUrl, String model, String keyVariable, double timeoutSeconds, int retries) {
      this(baseUrl, model, keyVariable, timeoutSeconds, retries, 1.0, MAX_BYTES);
    }

    public Connection(String baseUrl, String model, String keyVariable, double timeoutSeconds, int retries,
        double backoffSeconds) {
      this(baseUrl, model, keyVariable, timeoutSeconds, retries, backoffSeconds, MAX_BYTES);
    }

    public String describe() {
      return model + " at " + baseUrl;
    }
  }

  /** One chat message. */
  public record Message(String role, String content) {
    public static Message user(String content) {
      return new Message("user", content);
    }
  }

  /**
   * One answer: its text, the token counts the endpoint reported (null when it reported none),
   * the time from the first try to the answer, the retries it took, and its perplexity (null when
   * no log-probabilities were asked for or the endpoint gave none).
   */
  public record Completion(String text, Integer promptTokens, Integer completionTokens, long latencyMillis, int retries,
      Double perplexity, String finishReason, String reasoning, Usage usage) {
    public Completion(String text, Integer promptTokens, Integer completionTokens, long latencyMillis, int retries) {
      this(text, promptTokens, completionTokens, latencyMillis, retries, null, null, null, Usage.NONE);
    }
  }

  /**
   * What else the answer reports: {@code usage.completion_tokens_details.reasoning_tokens}, {@code
   * usage.prompt_tokens_details.cached_tokens}, and the {@code model} and {@code system_fingerprint}
   * that served it; each null when not given.
   */
  public record Usage(Integer reasoningTokens, Integer cachedTokens, String model, String systemFingerprint) {
    public static final Usage NONE = new Usage(null, null, null, null);
  }
  /** The longest wait a {@code Retry-After} may ask for. */
  static final Duration LONGEST_WAIT = Duration.ofMinutes(5);
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Connection settings;
  private final String key;
  private final URI uri;
  private final HttpClient client;
  private final boolean logprobs;
  private final RequestSettings request;
  private final String tokenField;
  private final Map<String, String> headers;
  private final Pace pace;

  public ChatEndpoint(Connection settings, Map<String, String> environment) {
    this(settings, environment, false);
  }

  public ChatEndpoint(Connection settings, Map<String, String> environment, boolean logprobs) {
    this(settings, environment, logprobs, RequestSettings.DEFAULT, Map.of(), Pace.NONE);
  }

  /**
   * {@code logprobs}: each request asks for the answer's token log-probabilities ({@code "logprobs":
   * true}), from which each answer's perplexity is computed; an endpoint that gives none is no error.
   * {@code headers} are sent with every request (after the key's, so one may replace it).
   */
  public ChatEndpoint(Connection settings, Map<String, String> environment, boolean logprobs, RequestSettings request,
      Map<String, String> headers, Pace pace) {
    this.logprobs = logprobs;
    this.request = request;
    this.headers = new java.util.TreeMap<>(headers);
    this.pace = pace;
    if (settings.baseUrl() == null || settings.baseUrl().isBlank()) {
      throw new InputException("no endpoint: give the base URL of an OpenAI-compatible chat endpoint");
    }
    if (settings.model() == null || settings.model().isBlank()) {
      throw new InputException("no model name for " + Secrets.redact(settings.baseUrl()));
    }
    if (!(settings.timeoutSeconds() > 0) || settings.retries() < 0 || !(settings.backoffSeconds() >= 0) || settings.maxBytes() < 1) {
      throw new InputException("the endpoint's timeout and reply limit must be positive and its retries and back-off at least 0");
    }
    this.settings = settings;
    String value = settings.keyVariable() == null ? null : environment.get(settings.keyVariable());
    Secrets.register(value);
    this.headers.values().forEach(Secrets::register);
    this.key = value == null || value.isBlank() ? null : value.strip();
    if (key != null && key.chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
      throw new InputException("the API key in " + settings.keyVariable() + " holds a line break or another control"
          + " character, so it cannot be sent in a header (the key is not shown); set " + settings.keyVariable()
          + " to the key alone, on one line");
    }
    try {
      this.uri = chatCompletions(settings.baseUrl());
    } catch (IllegalArgumentException e) {
      throw new InputException(Secrets.redact(settings.baseUrl()) + ": not an endpoint URL (" + Secrets.redact(e.getMessage()) + ")");
    }
    this.tokenField = request.tokenField() != null ? request.tokenField() : RequestSettings.tokenFieldFor(uri.getHost());
    for (Map.Entry<String, String> h : this.headers.entrySet()) {
      String problem = headerProblem(h.getKey(), h.getValue());
      if (problem != null) {
        throw new InputException("header '" + h.getKey() + "' cannot be sent: " + problem);
      }
    }
    this.client = HttpClient.newBuilder()
        .version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(timeout())
        .build();
  }

  public Connection settings() {
    return settings;
  }

  /** The chat-completions URL requests go to. */
  public String url() {
    return uri.toString();
  }

  public RequestSettings request() {
    return request;
  }

  /** The field the answer's token limit is sent in. */
  public String tokenField() {
    return tokenField;
  }

  /** The names of the extra headers sent (never their values). */
  public java.util.Set<String> headerNames() {
    return headers.keySet();
  }

  /** Whether a key is sent ({@code Authorization: Bearer …}); without one no such header is sent. */
  public boolean sendsKey() {
    return key != null;
  }

  /** The model's answer to one user message; a failure that retries did not mend is an {@link EndpointException}. */
  public String complete(String userMessage) {
    return chat(List.of(Message.user(userMessage))).text();
  }

  /** Whether each request asks for the answer's token log-probabilities. */
  public boolean asksLogprobs() {
    return logprobs;
  }

  /** The model's answer to one user message, with its usage and perplexity. */
  public Completion completion(String userMessage) {
    return chat(List.of(Message.user(userMessage)));
  }

  /**
   * The request body of a conversation, as sent: model, the request settings that are set, {@code
   * logprobs} when asked, the messages, then the extra body fields.
   */
  public ObjectNode requestBody(List<Message> messages) {
    ObjectNode body = JSON.createObjectNode();
    body.put("model", settings.model());
    request.apply(body, tokenField);
    if (logprobs) {
      body.put("logprobs", true);
    }
    ArrayNode list = body.putArray("messages");
    messages.forEach(m -> list.addObject().put("role", m.role()).put("content", m.content()));
    request.applyExtra(body);
    return body;
  }

  /** {@link #requestBody} as the bytes sent. */
  public byte[] requestBytes(List<Message> messages) {
    try {
      return JSON.writeValueAsBytes(requestBody(messages));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The model's answer to a conversation, with its usage, latency and retries. */
  public Completion chat(List<Message> messages) {
    return chat(requestBytes(messages));
  }

  /** The model's answer to a request body of {@link #requestBytes}, with its usage, latency and retries. */
  public Completion chat(byte[] body) {
    HttpRequest.Builder http = HttpRequest.newBuilder(uri)
        .timeout(timeout())
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofByteArray(body));
    if (key != null) {
      http.header("Authorization", "Bearer " + key);
    }
    headers.forEach(http::setHeader);
    long start = System.nanoTime();
    for (int attempt = 0; ; attempt++) {
      Failure failure;
      try {
        pace.acquire(Pace.estimate(body.length, request.maxTokens()));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new EndpointException(settings.describe() + ": interrupted");
      }
      try {
        HttpResponse<String> response = send(http.build());
        if (response.statusCode() / 100 == 2) {
          return completion(response.body(), (System.nanoTime() - start) / 1_000_000, attempt);
        }
        failure = httpFailure(response);
      } catch (TimeoutException e) {
        failure = new Failure("no answer within the time limit (" + settings.timeoutSeconds() + " s)", true, null, null);
      } catch (BoundedBody.TooLarge e) {
        failure = new Failure("the request failed (" + e.getMessage() + ", the limit --llm-max-bytes sets)", false, null, null);
      } catch (ConnectException e) {
        failure = new Failure("the request failed (cannot connect: " + reason(e) + ")", true, null, null);
      } catch (IOException e) {
        failure = new Failure("the request failed (" + reason(e) + ")", true, null, null);
      }
      if (!failure.retry() || attempt >= settings.retries()) {
        throw new EndpointException(settings.describe() + ": " + failure.message()
            + (attempt > 0 ? " (after " + attempt + (attempt == 1 ? " retry)" : " retries)") : ""), failure.status(), attempt);
      }
      lastRetryWait = failure.retryAfter() != null ? failure.retryAfter() : backoff(settings.backoffSeconds(), attempt,
          java.util.concurrent.ThreadLocalRandom.current().nextDouble());
      sleep(lastRetryWait);
    }
  }

  /**
   * The wait before retry {@code attempt + 1}: {@code backoff · 2^attempt}, of which a random half
   * ({@code random} in [0, 1)) is left out, so that workers that failed together do not retry
   * together ("equal jitter"); at most {@link #LONGEST_WAIT}. The jitter changes when a request is
   * sent, never what it asks or what is written.
   */
  static Duration backoff(double backoffSeconds, int attempt, double random) {
    double full = backoffSeconds * 1000 * (1L << Math.min(attempt, 16));
    return Duration.ofMillis(Math.min(LONGEST_WAIT.toMillis(), Math.round(full / 2 + full / 2 * random)));
  }

  /** The wait before the last retry of this endpoint (null before any), for a test to read instead of a clock. */
  volatile Duration lastRetryWait;

  /** Why a request failed, whether to try again, and how long to wait first (null: the back-off). */
  private record Failure(String message, boolean retry, Integer status, Duration retryAfter) {}

  private HttpResponse<String> send(HttpRequest request) throws IOException, TimeoutException {
    CompletableFuture<HttpResponse<String>> future =
        client.sendAsync(request, BoundedBody.handler(settings.maxBytes()));
    try {
      return future.get(timeout().toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      future.cancel(true);
      throw e;
    } catch (InterruptedException e) {
      future.cancel(true);
      Thread.currentThread().interrupt();
      throw new EndpointException(settings.describe() + ": interrupted");
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof HttpTimeoutException) {
        throw new TimeoutException(cause.getMessage());
      }
      if (cause instanceof IOException io) {
        throw io;
      }
      throw new IOException(cause);
    }
  }

  private Failure httpFailure(HttpResponse<String> response) {
    int status = response.statusCode();
    String detail = "HTTP " + status + errorMessage(response.body());
    Duration wait = serverWait(response.headers());
    String waitText = wait == null ? "" : ", the server asks to wait " + wait.toMillis() / 1000.0 + " s";
    if (status == 429) {
      return new Failure("the endpoint is rate-limiting (" + detail + waitText + ")", true, status, wait);
    }
    if (status == 400 || status == 422) {
      String hint = parameterHint(response.body());
      return new Failure("the endpoint refused the request (" + detail + (hint == null ? "" : "; " + hint) + ")", false,
          status, null);
    }
    if (status == 401 || status == 403) {
      return new Failure("the key was refused (" + detail + (key == null ? "; no key was sent: " + (settings.keyVariable() == null
          ? "--llm-key-env VAR names the variable that holds it" : "set " + settings.keyVariable()) : "") + ")", false, status, null);
    }
    if (status == 404) {
      return new Failure("not found (" + detail + "; check the URL and the model name)", false, status, null);
    }
    boolean retry = status >= 500 || status == 408 || status == 409;
    return new Failure("the endpoint answered with an error (" + detail + (retry ? waitText : "") + ")", retry, status,
        retry ? wait : null);
  }

  /**
   * For a 400 that names a field this client sent (OpenAI's {@code error.param}, or the field's name
   * quoted in the message, as vLLM and OpenAI's reasoning models write it), the option that removes
   * or changes it; null when it names none.
   */
  private String parameterHint(String body) {
    String param = null;
    String said = body == null ? "" : body;
    try {
      JsonNode error = JSON.readTree(said).path("error");
      param = text(error.get("param"));
      said = error.path("message").asText(said);
    } catch (JsonProcessingException | RuntimeException e) {
      // not JSON: the body is the message
    }
    String message = said;
    ObjectNode sent = requestBody(List.of());
    List<String> named = new java.util.ArrayList<>();
    if (param != null && sent.has(param)) {
      named.add(param);
    }
    sent.fieldNames().forEachRemaining(f -> {
      if (!named.contains(f) && !f.equals("model") && !f.equals("messages")
          && java.util.regex.Pattern.compile("['\"`]" + java.util.regex.Pattern.quote(f) + "['\"`]").matcher(message).find()) {
        named.add(f);
      }
    });
    for (String field : named) {
      String option = field.equals("logprobs") ? "interact's --no-logprobs leaves it out"
          : request.optionFor(field);
      if (option != null) {
        return "it names \"" + field + "\": " + option;
      }
    }
    return null;
  }

  /**
   * How long the server asks to wait before the next try: {@code retry-after-ms}, else {@code
   * Retry-After}, else the later of {@code x-ratelimit-reset-requests} and {@code
   * x-ratelimit-reset-tokens} (OpenAI's {@code 1m30.5s} form); at most {@link #LONGEST_WAIT}; null
   * when it asks nothing.
   */
  static Duration serverWait(java.net.http.HttpHeaders headers) {
    String ms = headers.firstValue("retry-after-ms").orElse(null);
    if (ms != null) {
      try {
        return clamp(Duration.ofMillis(Math.round(Double.parseDouble(ms.strip()))));
      } catch (NumberFormatException e) {
        // unreadable: the next header decides
      }
    }
    Duration after = retryAfter(headers.firstValue("Retry-After").orElse(null));
    if (after != null) {
      return after;
    }
    Duration requests = resetTime(headers.firstValue("x-ratelimit-reset-requests").orElse(null));
    Duration tokens = resetTime(headers.firstValue("x-ratelimit-reset-tokens").orElse(null));
    Duration later = requests == null ? tokens : tokens == null || requests.compareTo(tokens) > 0 ? requests : tokens;
    return later == null ? null : clamp(later);
  }

  /** {@code 20ms}, {@code 6s}, {@code 1m30.5s}, {@code 2h}, or a number of seconds; null when unreadable. */
  static Duration resetTime(String value) {
    if (value == null || value.isBlank()) {
      return null;
    }
    String v = value.strip();
    if (v.matches("\\d+(\\.\\d+)?")) {
      return Duration.ofMillis(Math.round(Double.parseDouble(v) * 1000));
    }
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\d+(?:\\.\\d+)?)(ms|h|m|s)").matcher(v);
    double millis = 0;
    int end = 0;
    while (m.find()) {
      if (m.start() != end) {
        return null;
      }
      double n = Double.parseDouble(m.group(1));
      millis += n * switch (m.group(2)) {
        case "ms" -> 1;
        case "s" -> 1000;
        case "m" -> 60_000;
        default -> 3_600_000;
      };
      end = m.end();
    }
    return end == v.length() && end > 0 ? Duration.ofMillis(Math.round(millis)) : null;
  }

  private static Duration clamp(Duration wait) {
    return wait.isNegative() ? Duration.ZERO : wait.compareTo(LONGEST_WAIT) > 0 ? LONGEST_WAIT : wait;
  }

  private Completion completion(String body, long latencyMillis, int retries) {
    JsonNode json;
    try {
      json = JSON.readTree(body);
    } catch (JsonProcessingException e) {
      throw new EndpointException(settings.describe() + ": the answer is not JSON: " + abbreviate(body), null, retries);
    }
    JsonNode message = json == null ? null : json.path("choices").path(0).path("message");
    JsonNode content = message == null ? null : message.get("content");
    // reasoning the server gives apart: vLLM's and DeepSeek's reasoning_content, Ollama's reasoning
    JsonNode reasoning = message == null ? null
        : message.hasNonNull("reasoning_content") ? message.get("reasoning_content") : message.get("reasoning");
    String finishReason = json == null ? null : text(json.path("choices").path(0).get("finish_reason"));
    boolean thoughtOnly = reasoning != null && reasoning.isTextual() && (content == null || content.isNull());
    if (!thoughtOnly && (content == null || !content.isTextual())) {
      throw new EndpointException(settings.describe() + ": the answer has no text (no choices[0].message.content): "
          + abbreviate(body), null, retries);
    }
    JsonNode usage = json.path("usage");
    Usage more = new Usage(count(usage.path("completion_tokens_details"), "reasoning_tokens"),
        count(usage.path("prompt_tokens_details"), "cached_tokens"), text(json.get("model")),
        text(json.get("system_fingerprint")));
    return new Completion(thoughtOnly ? "" : Secrets.redact(content.asText()), count(usage, "prompt_tokens"),
        count(usage, "completion_tokens"), latencyMillis, retries,
        perplexity(json.path("choices").path(0).path("logprobs").path("content")), finishReason, text(reasoning), more);
  }

  /**
   * Why sending the key is unsafe, or null: a key going over plain http to a host other than the
   * loopback can be read on the way.
   */
  public String keyWarning() {
    if (key == null || !"http".equals(uri.getScheme())) {
      return null;
    }
    String host = uri.getHost() == null ? "" : uri.getHost();
    boolean loopback = host.equals("localhost") || host.equals("::1") || host.equals("[::1]") || host.startsWith("127.");
    return loopback ? null : "the API key of " + settings.keyVariable() + " goes over plain http to " + host
        + " (" + uri + "), where anyone on the way can read it; use https, or no --llm-key-env";
  }

  /**
   * The chat-completions URL of a base URL ({@code http://host:8000/v1}) or of the full one (ending
   * in {@code /chat/completions}); a query string ({@code ?api-version=…}) is kept.
   */
  static URI chatCompletions(String url) {
    URI given = URI.create(url.strip());
    if (given.getScheme() == null || !given.getScheme().matches("https?") || given.getRawAuthority() == null) {
      throw new IllegalArgumentException("not an http or https URL");
    }
    if (given.getRawUserInfo() != null) {
      throw new IllegalArgumentException(USER_INFO);
    }
    String path = given.getRawPath() == null ? "" : given.getRawPath().replaceAll("/+$", "");
    if (!path.endsWith("/chat/completions")) {
      path += "/chat/completions";
    }
    return URI.create(given.getScheme() + "://" + given.getRawAuthority() + path
        + (given.getRawQuery() == null ? "" : "?" + given.getRawQuery()));
  }

  /**
   * Why a URL's user name and password are refused: they would stand in every message and file that
   * names the endpoint, and on the command line, where every user of the machine sees them.
   */
  public static final String USER_INFO = "a user name or password in the URL (user:…@host) is not sent and not"
      + " accepted; give the key with --llm-key-env VAR, or a header with --llm-header 'NAME: VALUE'";

  /**
   * Why a header cannot be sent (a name the HTTP client sets itself, such as {@code Host}, or a value
   * with a line break), without its value; null when it can.
   */
  public static String headerProblem(String name, String value) {
    try {
      HttpRequest.newBuilder(URI.create("http://localhost/")).header(name, "x");
    } catch (IllegalArgumentException e) {
      return "the HTTP client sets '" + name + "' itself, or refuses it; leave it out";
    }
    try {
      HttpRequest.newBuilder(URI.create("http://localhost/")).header(name, value);
    } catch (IllegalArgumentException e) {
      return "its value holds a line break or another control character (the value is not shown)";
    }
    return null;
  }

  private static String text(JsonNode node) {
    return node == null || !node.isTextual() ? null : Secrets.redact(node.asText());
  }

  /**
   * The perplexity of an answer from its tokens' log-probabilities ({@code
   * choices[0].logprobs.content[].logprob}): exp(−mean log-probability), as the recorded runs'
   * {@code perplexity} (their {@code pscore}); null when the answer has none (not asked for, or the
   * endpoint gives none) or one is not a finite number.
   */
  static Double perplexity(JsonNode tokens) {
    if (tokens == null || !tokens.isArray() || tokens.isEmpty()) {
      return null;
    }
    double sum = 0;
    for (JsonNode t : tokens) {
      JsonNode lp = t.get("logprob");
      if (lp == null || !lp.isNumber() || !Double.isFinite(lp.asDouble())) {
        return null;
      }
      sum += lp.asDouble();
    }
    return Math.exp(-sum / tokens.size());
  }

  private static Integer count(JsonNode usage, String field) {
    JsonNode n = usage.get(field);
    return n != null && n.canConvertToInt() ? n.asInt() : null;
  }

  /** {@code Retry-After}: seconds or an HTTP date; null when absent or unreadable. */
  static Duration retryAfter(String value) {
    if (value == null || value.isBlank()) {
      return null;
    }
    Duration wait;
    try {
      wait = Duration.ofMillis(Math.round(Double.parseDouble(value.strip()) * 1000));
    } catch (NumberFormatException e) {
      try {
        wait = Duration.between(ZonedDateTime.now(), ZonedDateTime.parse(value.strip(), DateTimeFormatter.RFC_1123_DATE_TIME));
      } catch (DateTimeParseException d) {
        return null;
      }
    }
    return clamp(wait);
  }

  private static String errorMessage(String body) {
    if (body == null || body.isBlank()) {
      return "";
    }
    try {
      JsonNode json = JSON.readTree(body);
      JsonNode message = json.path("error").path("message");
      if (message.isTextual()) {
        return ": " + abbreviate(message.asText());
      }
    } catch (JsonProcessingException e) {
      // not JSON: the start of the body says what it is
    }
    return ": " + abbreviate(body);
  }

  private Duration timeout() {
    return Duration.ofMillis(Math.max(1, Math.round(settings.timeoutSeconds() * 1000)));
  }

  private static void sleep(Duration wait) {
    try {
      Thread.sleep(wait.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new EndpointException("interrupted while waiting to retry");
    }
  }

  private static String reason(Throwable e) {
    String message = e.getMessage();
    return message == null || message.isBlank() ? e.getClass().getSimpleName() : abbreviate(message);
  }

  /** The text on one line, at most 200 characters, its secrets masked first (a cut key would not be found). */
  private static String abbreviate(String s) {
    String line = Secrets.redact(s).strip().replaceAll("\\s+", " ");
    return line.isEmpty() ? "(empty)" : line.length() > 200 ? line.substring(0, 200) + "…" : line;
  }
}

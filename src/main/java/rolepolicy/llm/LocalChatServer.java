package rolepolicy.llm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * A chat-completions server on the loopback address, for tests, benchmarks and {@code stand-in}: it
 * records each request and answers with what its handler returns (a reply text, or an HTTP error, or
 * a delay).
 */
public final class LocalChatServer implements AutoCloseable {
  /**
   * What the server does with one request: a status, the answer's text (or a raw body sent as it
   * is), a delay before answering, extra headers, and the answer's token log-probabilities (sent as
   * {@code choices[0].logprobs.content} when the request asks for them; null: none are sent).
   */
  public record Reply(int status, String content, long delayMillis, String rawBody, Map<String, String> headers,
      List<Double> logprobs) {
    public Reply(int status, String content, long delayMillis) {
      this(status, content, delayMillis, null, Map.of(), null);
    }

    public Reply(int status, String content, long delayMillis, String rawBody, Map<String, String> headers) {
      this(status, content, delayMillis, rawBody, headers, null);
    }

    /** A text with its tokens' log-probabilities. */
    public static Reply withLogprobs(String content, List<Double> logprobs) {
      return new Reply(200, content, 0, null, Map.of(), logprobs);
    }

    public static Reply text(String content) {
      return new Reply(200, content, 0);
    }

    public static Reply error(int status) {
      return new Reply(status, null, 0);
    }

    /** An HTTP error whose JSON body says {@code message}. */
    public static Reply error(int status, String message) {
      return new Reply(status, message, 0);
    }

    public static Reply slow(String content, long delayMillis) {
      return new Reply(200, content, delayMillis);
    }

    /** 429 with a {@code Retry-After} of so many seconds. */
    public static Reply rateLimited(String retryAfterSeconds) {
      return new Reply(429, null, 0, null, Map.of("Retry-After", retryAfterSeconds));
    }

    /** A JSON body sent as it is, e.g. a server's own error shape or an answer with its usage details. */
    public static Reply json(int status, String body) {
      return new Reply(status, null, 0, body, Map.of("Content-Type", "application/json"));
    }

    /** This reply with a header more, e.g. {@code retry-after-ms}. */
    public Reply withHeader(String name, String value) {
      Map<String, String> more = new java.util.TreeMap<>(headers);
      more.put(name, value);
      return new Reply(status, content, delayMillis, rawBody, more, logprobs);
    }

    /** A body sent as it is, e.g. an HTML page where JSON was expected. */
    public static Reply raw(int status, String body) {
      return new Reply(status, null, 0, body, Map.of());
    }
  }

  /** One request as received. */
  public record Request(String path, String authorization, JsonNode body, com.sun.net.httpserver.Headers headers) {
    public Request(String path, String authorization, JsonNode body) {
      this(path, authorization, body, new com.sun.net.httpserver.Headers());
    }

    /** The text of the last message. */
    public String prompt() {
      JsonNode messages = body.get("messages");
      return messages.get(messages.size() - 1).get("content").asText();
    }
  }

  private static final ObjectMapper JSON = new ObjectMapper();

  static {
    // without it the JDK server's two writes (headers, body) meet Nagle and delayed ACKs: ~40 ms a request
    System.setProperty("sun.net.httpserver.nodelay", "true");
  }

  private final HttpServer server;
  private final java.util.concurrent.ExecutorService executor = java.util.concurrent.Executors.newCachedThreadPool();
  private final List<Request> requests = new CopyOnWriteArrayList<>();
  private final java.util.concurrent.atomic.AtomicInteger received = new java.util.concurrent.atomic.AtomicInteger();
  private final boolean keepRequests;
  private volatile Function<Request, Reply> handler;

  /** A server on a free port of the loopback address. */
  public LocalChatServer(Function<Request, Reply> handler) throws IOException {
    this(0, handler);
  }

  /** A server on {@code port} of the loopback address (0 takes a free one) that keeps the requests it gets. */
  public LocalChatServer(int port, Function<Request, Reply> handler) throws IOException {
    this(port, handler, true);
  }

  /**
   * A server on {@code port} of the loopback address; 0 takes a free one. Without {@code keepRequests}
   * it only counts them: a long-running stand-in keeps no prompt.
   */
  public LocalChatServer(int port, Function<Request, Reply> handler, boolean keepRequests) throws IOException {
    this.handler = handler;
    this.keepRequests = keepRequests;
    this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 0);
    server.createContext("/", this::handle);
    server.setExecutor(executor);
    server.start();
  }

  public String baseUrl() {
    return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
  }

  /** The requests received so far, in the order they came (none when the server keeps none). */
  public List<Request> requests() {
    return requests;
  }

  /** Requests received so far. */
  public int count() {
    return received.get();
  }

  public void setHandler(Function<Request, Reply> handler) {
    this.handler = handler;
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      JsonNode body = JSON.readTree(exchange.getRequestBody().readAllBytes());
      Request request = new Request(exchange.getRequestURI().getPath(),
          exchange.getRequestHeaders().getFirst("Authorization"), body, exchange.getRequestHeaders());
      received.incrementAndGet();
      if (keepRequests) {
        requests.add(request);
      }
      Reply reply = handler.apply(request);
      if (reply.delayMillis() > 0) {
        try {
          Thread.sleep(reply.delayMillis());
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
      }
      byte[] out;
      if (reply.rawBody() != null) {
        out = reply.rawBody().getBytes(StandardCharsets.UTF_8);
      } else if (reply.status() != 200) {
        ObjectNode error = JSON.createObjectNode();
        error.putObject("error").put("message", reply.content() != null ? reply.content() : "test server error")
            .put("type", reply.status() < 500 ? "invalid_request_error" : "server_error");
        out = JSON.writeValueAsBytes(error);
      } else {
        ObjectNode response = JSON.createObjectNode();
        response.put("id", "chatcmpl-test").put("object", "chat.completion").put("created", 0)
            .put("model", body.path("model").asText());
        ObjectNode choice = response.putArray("choices").addObject();
        choice.put("index", 0).put("finish_reason", "stop");
        choice.putObject("message").put("role", "assistant").put("content", reply.content());
        if (reply.logprobs() != null && body.path("logprobs").asBoolean(false)) {
          com.fasterxml.jackson.databind.node.ArrayNode tokens = choice.putObject("logprobs").putArray("content");
          for (int i = 0; i < reply.logprobs().size(); i++) {
            tokens.addObject().put("token", "t" + i).put("logprob", reply.logprobs().get(i));
          }
        } else {
          choice.putNull("logprobs");
        }
        int promptTokens = words(request.body().path("messages").toString());
        int completionTokens = words(reply.content());
        response.putObject("usage").put("prompt_tokens", promptTokens).put("completion_tokens", completionTokens)
            .put("total_tokens", promptTokens + completionTokens);
        out = JSON.writeValueAsBytes(response);
      }
      exchange.getResponseHeaders().set("Content-Type", reply.rawBody() != null ? "text/html" : "application/json");
      reply.headers().forEach((name, value) -> exchange.getResponseHeaders().set(name, value));
      exchange.sendResponseHeaders(reply.status(), out.length);
      try (OutputStream os = exchange.getResponseBody()) {
        os.write(out);
      }
    } catch (IOException e) {
      // the client went away (a time-out test)
    }
  }

  /**
   * A stand-in token count: the words of a text, as {@code text.strip().split("\\s+").length} counts
   * them (the runs of characters other than space, tab, line feed, vertical tab, form feed and
   * carriage return), without a regular expression: a prompt is counted on every request.
   */
  static int words(String text) {
    if (text == null || text.isBlank()) {
      return 0;
    }
    String stripped = text.strip();
    int words = 0;
    boolean inWord = false;
    for (int i = 0; i < stripped.length(); i++) {
      char c = stripped.charAt(i);
      boolean space = c == ' ' || c == '\t' || c == '\n' || c == '\u000B' || c == '\f' || c == '\r';
      words += !space && !inWord ? 1 : 0;
      inWord = !space;
    }
    return words;
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }
}

package rolepolicy.llm;

import dev.langchain4j.exception.LangChain4jException;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.openai.OpenAiChatModel;
import java.time.Duration;
import java.util.Map;
import rolepolicy.spider.InputException;

/**
 * One OpenAI-compatible chat-completions endpoint, by base URL: temperature 0, a time limit per
 * request, and retries with back-off (langchain4j's) on errors worth retrying.
 */
public final class ChatEndpoint {
  /**
   * @param baseUrl e.g. {@code http://localhost:8000/v1}
   * @param model the model name sent with each request
   * @param keyVariable the environment variable holding the API key (unset: no key is sent)
   * @param timeoutSeconds the time limit of one request
   * @param retries how often a failed request is tried again
   */
  public record Settings(String baseUrl, String model, String keyVariable, double timeoutSeconds, int retries) {
    public String describe() {
      return model + " at " + baseUrl;
    }
  }

  /** Sent as the key when the key variable is unset: local servers ask for none. */
  static final String NO_KEY = "none";

  private final Settings settings;
  private final ChatModel model;

  public ChatEndpoint(Settings settings, Map<String, String> environment) {
    if (settings.baseUrl() == null || settings.baseUrl().isBlank()) {
      throw new InputException("no endpoint: give the base URL of an OpenAI-compatible chat endpoint");
    }
    if (settings.model() == null || settings.model().isBlank()) {
      throw new InputException("no model name for " + settings.baseUrl());
    }
    if (!(settings.timeoutSeconds() > 0) || settings.retries() < 0) {
      throw new InputException("the endpoint's timeout must be positive and its retries at least 0");
    }
    this.settings = settings;
    String key = settings.keyVariable() == null ? null : environment.get(settings.keyVariable());
    this.model = OpenAiChatModel.builder()
        .baseUrl(settings.baseUrl())
        .apiKey(key == null || key.isBlank() ? NO_KEY : key)
        .modelName(settings.model())
        .temperature(0.0)
        .timeout(Duration.ofMillis(Math.round(settings.timeoutSeconds() * 1000)))
        .maxRetries(settings.retries())
        .build();
  }

  public Settings settings() {
    return settings;
  }

  /** The model's answer to one user message; a failure that retries did not mend is an {@link EndpointException}. */
  public String complete(String userMessage) {
    try {
      String text = model.chat(userMessage);
      if (text == null) {
        throw new EndpointException(settings.describe() + ": the answer has no text");
      }
      return text;
    } catch (LangChain4jException e) {
      throw new EndpointException(settings.describe() + ": " + describe(e), e);
    } catch (RuntimeException e) {
      if (e instanceof EndpointException) {
        throw e;
      }
      throw new EndpointException(settings.describe() + ": " + describe(e), e);
    }
  }

  private static String describe(Throwable e) {
    String kind = switch (e.getClass().getSimpleName()) {
      case "TimeoutException" -> "no answer within the time limit";
      case "AuthenticationException" -> "the key was refused";
      case "HttpException", "InternalServerException", "InvalidRequestException", "RateLimitException",
          "ModelNotFoundException" -> "the endpoint answered with an error";
      default -> "the request failed";
    };
    String message = e.getMessage();
    Throwable cause = e.getCause();
    while ((message == null || message.isBlank()) && cause != null) {
      message = cause.getMessage();
      cause = cause.getCause();
    }
    return kind + (message == null || message.isBlank() ? "" : " (" + firstLine(message) + ")");
  }

  private static String firstLine(String s) {
    String line = s.lines().findFirst().orElse("").strip();
    return line.length() > 300 ? line.substring(0, 300) + "…" : line;
  }
}

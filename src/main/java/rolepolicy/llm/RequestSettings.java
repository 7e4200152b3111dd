package rolepolicy.llm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a chat request asks of the model besides its messages, each field sent only when set.
 *
 * @param temperature null: not sent (reasoning models accept only their default)
 * @param maxTokens the answer's token limit, or null
 * @param tokenField the field {@code maxTokens} goes in: {@code max_tokens} or {@code
 *     max_completion_tokens}; null: chosen by the endpoint ({@link #tokenFieldFor})
 * @param stop stop sequences (none: not sent)
 * @param extraBody fields added to the body last, replacing any of the same name; null: none
 */
public record RequestSettings(Double temperature, Integer maxTokens, String tokenField, Long seed, Double topP,
    List<String> stop, String reasoningEffort, ObjectNode extraBody) {

  /** Temperature 0, nothing else: answers as repeatable as the endpoint allows. */
  public static final RequestSettings DEFAULT = new RequestSettings(0.0, null, null, null, null, List.of(), null, null);

  public static final String MAX_TOKENS = "max_tokens";
  public static final String MAX_COMPLETION_TOKENS = "max_completion_tokens";

  public RequestSettings {
    stop = stop == null ? List.of() : List.copyOf(stop);
    if (tokenField != null && !tokenField.equals(MAX_TOKENS) && !tokenField.equals(MAX_COMPLETION_TOKENS)) {
      throw new IllegalArgumentException("the token field is " + MAX_TOKENS + " or " + MAX_COMPLETION_TOKENS + ", not " + tokenField);
    }
  }

  /**
   * The token field an endpoint takes by default: OpenAI's own API (and Azure's) {@code
   * max_completion_tokens}, which its reasoning models require; every other server (vLLM, Ollama,
   * llama.cpp) {@code max_tokens}, which they all read.
   */
  public static String tokenFieldFor(String host) {
    String h = host == null ? "" : host.toLowerCase(java.util.Locale.ROOT);
    return h.equals("api.openai.com") || h.endsWith(".openai.azure.com") ? MAX_COMPLETION_TOKENS : MAX_TOKENS;
  }

  /** Puts the set fields into a request body ({@code tokenField} resolved), the extra fields last. */
  void apply(ObjectNode body, String resolvedTokenField) {
    if (temperature != null) {
      body.put("temperature", temperature);
    }
    if (maxTokens != null) {
      body.put(resolvedTokenField, maxTokens);
    }
    if (seed != null) {
      body.put("seed", seed);
    }
    if (topP != null) {
      body.put("top_p", topP);
    }
    if (!stop.isEmpty()) {
      stop.forEach(body.putArray("stop")::add);
    }
    if (reasoningEffort != null) {
      body.put("reasoning_effort", reasoningEffort);
    }
  }

  void applyExtra(ObjectNode body) {
    if (extraBody != null) {
      extraBody.fields().forEachRemaining(e -> body.set(e.getKey(), e.getValue().deepCopy()));
    }
  }

  /** The option that removes or changes a body field, for an endpoint's 400 naming it; null when none does. */
  String optionFor(String field) {
    if (extraBody != null && extraBody.has(field)) {
      return "remove \"" + field + "\" from --extra-body";
    }
    return switch (field) {
      case "temperature" -> "--temperature none leaves it out";
      case MAX_TOKENS -> "--token-field " + MAX_COMPLETION_TOKENS + " sends the limit as that";
      case MAX_COMPLETION_TOKENS -> "--token-field " + MAX_TOKENS + " sends the limit as that";
      case "seed" -> "leave out --seed";
      case "top_p" -> "leave out --top-p";
      case "stop" -> "leave out --stop";
      case "reasoning_effort" -> "leave out --reasoning-effort";
      default -> null;
    };
  }

  /** The settings as run.json records them: every field, null where not sent. */
  public Map<String, Object> describe(String resolvedTokenField) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("temperature", temperature);
    out.put("max_tokens", maxTokens);
    out.put("token_field", maxTokens == null ? null : resolvedTokenField);
    out.put("seed", seed);
    out.put("top_p", topP);
    out.put("stop", stop);
    out.put("reasoning_effort", reasoningEffort);
    out.put("extra_body", extraBody == null ? null : (JsonNode) extraBody);
    return out;
  }
}

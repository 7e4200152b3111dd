package rolepolicy.cli;

import java.util.Map;
import picocli.CommandLine.Option;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import rolepolicy.io.DatasetWriter;
import rolepolicy.io.InputException;
import rolepolicy.io.Secrets;
import picocli.CommandLine.ParameterException;
import rolepolicy.llm.ChatEndpoint;
import rolepolicy.llm.Pace;
import rolepolicy.llm.RequestSettings;

/** The options of any OpenAI-compatible chat endpoint (score-tables' LLM judge, interact's and run's model). */
class EndpointOptions {
  @Option(names = "--llm-url", paramLabel = "URL", description = "An OpenAI-compatible endpoint: its base URL, e.g. http://localhost:8000/v1, or the full .../chat/completions URL.")
  String url;

  @Option(names = "--llm-model", paramLabel = "NAME", description = "Model name.")
  String model;

  @Option(names = "--llm-key-env", paramLabel = "VAR",
      description = "Environment variable holding the API key, e.g. OPENAI_API_KEY; unset or empty is an error (default: none; no key is sent).")
  String keyVariable;

  @Option(names = "--llm-timeout", paramLabel = "SECONDS", defaultValue = "60", description = "Time limit per request (default: ${DEFAULT-VALUE}).")
  @Range(min = 0, aboveMin = true)
  double timeout = 60;

  @Option(names = "--llm-retries", paramLabel = "N", defaultValue = "2", description = "Retries of a failed request, with back-off (default: ${DEFAULT-VALUE}).")
  @Range(min = 0)
  int retries = 2;

  @Option(names = "--llm-max-bytes", paramLabel = "N", defaultValue = "8388608",
      description = "The longest reply read, in bytes; a longer one is a failed request (default: ${DEFAULT-VALUE}, 8 MiB).")
  @Range(min = 1)
  long maxBytes = ChatEndpoint.Connection.MAX_BYTES;

  @Option(names = "--llm-backoff", paramLabel = "SECONDS", defaultValue = "1",
      description = "The wait before the first retry, doubled for each next one, a random half of it left out (default: ${DEFAULT-VALUE}).")
  @Range(min = 0)
  double backoff = 1;

  @Option(names = "--llm-header", paramLabel = "'NAME: VALUE'",
      description = "A header sent with every request, e.g. 'api-key: …' (repeatable; values never written to any file).")
  java.util.List<String> headerLines = new java.util.ArrayList<>();

  @Option(names = "--rpm", paramLabel = "N", description = "At most N requests a minute, shared by the workers (default: no limit).")
  @Range(min = 0, aboveMin = true)
  Double rpm;

  @Option(names = "--tpm", paramLabel = "N",
      description = "At most N tokens a minute (estimated: request bytes / 4 + --max-tokens), shared by the workers (default: no limit).")
  @Range(min = 0, aboveMin = true)
  Double tpm;

  @Option(names = "--temperature", paramLabel = "T", defaultValue = "0",
      description = "Sampling temperature, or none to leave it out (reasoning models take only their default) (default: ${DEFAULT-VALUE}).")
  String temperature = "0";

  @Option(names = "--max-tokens", paramLabel = "N", description = "The answer's token limit (default: none sent).")
  @Range(min = 1)
  Integer maxTokens;

  @Option(names = "--token-field", paramLabel = "NAME",
      description = "The field --max-tokens is sent in: max_tokens or max_completion_tokens (default: max_completion_tokens for api.openai.com and Azure, else max_tokens).")
  String tokenField;

  @Option(names = "--seed", paramLabel = "N", description = "The sampling seed sent (default: none sent).")
  Long seed;

  @Option(names = "--top-p", paramLabel = "P", description = "Nucleus sampling's top_p (default: none sent).")
  @Range(min = 0, max = 1)
  Double topP;

  @Option(names = "--stop", paramLabel = "TEXT", description = "A stop sequence (repeatable; default: none sent).")
  java.util.List<String> stop = new java.util.ArrayList<>();

  @Option(names = "--reasoning-effort", paramLabel = "LEVEL",
      description = "A reasoning model's effort, e.g. low, medium, high (default: none sent).")
  String reasoningEffort;

  @Option(names = "--extra-body", paramLabel = "JSON",
      description = "A JSON object whose fields are added to every request body last, e.g. vLLM's chat_template_kwargs or top_k.")
  String extraBody;

  boolean given() {
    return url != null || model != null;
  }

  ChatEndpoint endpoint(Map<String, String> environment, picocli.CommandLine cli) {
    return endpoint(environment, false, cli);
  }

  /**
   * {@code logprobs}: each request asks for the answer's token log-probabilities. A key that would
   * go over plain http to a host other than the loopback is warned of on {@code err}.
   */
  ChatEndpoint endpoint(Map<String, String> environment, boolean logprobs, picocli.CommandLine cli) {
    java.io.PrintWriter err = cli.getErr();
    if (url != null && url.contains("@")) {
      try {
        if (java.net.URI.create(url.strip()).getRawUserInfo() != null) {
          throw new ParameterException(cli, "--llm-url " + Secrets.redact(url) + ": " + ChatEndpoint.USER_INFO);
        }
      } catch (IllegalArgumentException e) {
        // not a URL: the endpoint says so
      }
    }
    if (keyVariable != null && (environment.get(keyVariable) == null || environment.get(keyVariable).isBlank())) {
      throw new InputException("--llm-key-env " + keyVariable + ": the environment variable " + keyVariable + " is "
          + (environment.get(keyVariable) == null ? "not set" : "empty") + "; set it to the API key, or leave out"
          + " --llm-key-env to send no key");
    }
    ChatEndpoint endpoint = new ChatEndpoint(new ChatEndpoint.Connection(url, model, keyVariable, timeout, retries, backoff,
        maxBytes), environment, logprobs, request(cli), headers(cli), new Pace(rpm == null ? 0 : rpm, tpm == null ? 0 : tpm));
    String warning = endpoint.keyWarning();
    if (warning != null) {
      err.println("warning: " + warning);
      err.flush();
    }
    return endpoint;
  }

  /** The request settings the options give. */
  RequestSettings request(picocli.CommandLine cli) {
    Double t;
    if (temperature.equalsIgnoreCase("none")) {
      t = null;
    } else {
      try {
        t = Double.parseDouble(temperature);
      } catch (NumberFormatException e) {
        throw new ParameterException(cli, "--temperature takes a number or none, not '" + temperature + "'");
      }
      if (!(t >= 0 && t <= 2)) {
        throw new ParameterException(cli, "--temperature must be between 0 and 2, or none, not " + temperature);
      }
    }
    if (tokenField != null && !tokenField.equals(RequestSettings.MAX_TOKENS) && !tokenField.equals(RequestSettings.MAX_COMPLETION_TOKENS)) {
      throw new ParameterException(cli, "--token-field must be " + RequestSettings.MAX_TOKENS + " or "
          + RequestSettings.MAX_COMPLETION_TOKENS + ", not '" + tokenField + "'");
    }
    ObjectNode extra = null;
    if (extraBody != null) {
      JsonNode parsed;
      try {
        parsed = DatasetWriter.JSON.readTree(extraBody);
      } catch (JsonProcessingException e) {
        throw new ParameterException(cli, "--extra-body is not JSON: " + e.getOriginalMessage());
      }
      if (!(parsed instanceof ObjectNode object)) {
        throw new ParameterException(cli, "--extra-body must be a JSON object ({\"name\": value, …}), not " + extraBody);
      }
      for (String reserved : java.util.List.of("model", "messages", "stream")) {
        if (object.has(reserved)) {
          throw new ParameterException(cli, "--extra-body may not set \"" + reserved + "\": the run sets it");
        }
      }
      extra = object;
    }
    return new RequestSettings(t, maxTokens, tokenField, seed, topP, stop, reasoningEffort, extra);
  }

  /** The {@code --llm-header} lines as names and values. */
  java.util.Map<String, String> headers(picocli.CommandLine cli) {
    java.util.Map<String, String> headers = new java.util.TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    for (String line : headerLines) {
      int colon = line.indexOf(':');
      if (colon < 1 || !line.substring(0, colon).strip().matches("[!#$%&'*+.^_`|~0-9A-Za-z-]+")) {
        throw new ParameterException(cli, "--llm-header takes 'Name: value', a name of letters, digits and '-' before the"
            + " colon; the one given has none (it is not shown: it may hold a secret)");
      }
      String name = line.substring(0, colon).strip();
      String problem = ChatEndpoint.headerProblem(name, line.substring(colon + 1).strip());
      if (problem != null) {
        throw new ParameterException(cli, "--llm-header '" + name + ": …': " + problem);
      }
      if (headers.put(name, line.substring(colon + 1).strip()) != null) {
        throw new ParameterException(cli, "--llm-header gives '" + name + "' twice");
      }
    }
    return headers;
  }
}

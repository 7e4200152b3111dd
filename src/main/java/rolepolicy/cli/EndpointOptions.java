package rolepolicy.cli;

import java.util.Map;
import picocli.CommandLine.Option;
import rolepolicy.llm.ChatEndpoint;

/** The options of any OpenAI-compatible chat endpoint (score-tables' LLM judge, interact's and run's model). */
class EndpointOptions {
  @Option(names = "--llm-url", paramLabel = "URL", description = "Base URL of an OpenAI-compatible endpoint, e.g. http://localhost:8000/v1.")
  String url;

  @Option(names = "--llm-model", paramLabel = "NAME", description = "Model name.")
  String model;

  @Option(names = "--llm-key-env", paramLabel = "VAR", defaultValue = "OPENAI_API_KEY",
      description = "Environment variable holding the API key (default: ${DEFAULT-VALUE}; unset: no key).")
  String keyVariable = "OPENAI_API_KEY";

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

  boolean given() {
    return url != null || model != null;
  }

  ChatEndpoint endpoint(Map<String, String> environment) {
    return endpoint(environment, false);
  }

  /** {@code logprobs}: each request asks for the answer's token log-probabilities. */
  ChatEndpoint endpoint(Map<String, String> environment, boolean logprobs) {
    return new ChatEndpoint(new ChatEndpoint.Connection(url, model, keyVariable, timeout, retries, 1.0, maxBytes), environment, logprobs);
  }
}

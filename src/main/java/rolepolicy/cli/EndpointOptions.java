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

  @Option(names = "--llm-key-env", paramLabel = "VAR",
      description = "Environment variable holding the API key, e.g. OPENAI_API_KEY (default: none; no key is sent).")
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

  boolean given() {
    return url != null || model != null;
  }

  ChatEndpoint endpoint(Map<String, String> environment, java.io.PrintWriter err) {
    return endpoint(environment, false, err);
  }

  /**
   * {@code logprobs}: each request asks for the answer's token log-probabilities. A key that would
   * go over plain http to a host other than the loopback is warned of on {@code err}.
   */
  ChatEndpoint endpoint(Map<String, String> environment, boolean logprobs, java.io.PrintWriter err) {
    ChatEndpoint endpoint =
        new ChatEndpoint(new ChatEndpoint.Connection(url, model, keyVariable, timeout, retries, 1.0, maxBytes), environment, logprobs);
    String warning = endpoint.keyWarning();
    if (warning != null) {
      err.println("warning: " + warning);
      err.flush();
    }
    return endpoint;
  }
}

package rolepolicy.cli;

import picocli.CommandLine.Option;

/** {@code --timeout}: the time limit of one SQL query (a model request's is --llm-timeout). */
final class QueryTimeoutOption {
  @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "30",
      description = "Time limit per SQL query (default: ${DEFAULT-VALUE}).")
  @Range(min = 0, aboveMin = true)
  double timeout;
}

package rolepolicy.cli;

import picocli.CommandLine.Option;

/** {@code --parallel}: questions worked on at once (their model requests overlap). */
final class ParallelOption {
  @Option(names = "--parallel", paramLabel = "N", defaultValue = "4",
      description = "Questions worked on at once; the outputs are in question order whatever N (default: ${DEFAULT-VALUE}).")
  @Range(min = 1)
  int parallel;
}

package rolepolicy.generate;

import java.util.Locale;

/**
 * Closing figures of one generated split.
 *
 * @param unanalysable the questions whose SQL text could not be analysed, each as {@code file:
 *     record #n (id): reason}; their records are written, refused as unresolved
 */
public record SplitSummary(
    String split,
    int questions,
    int refused,
    int violations,
    int problems,
    double seconds,
    java.util.List<String> unanalysable) {

  public SplitSummary {
    unanalysable = java.util.List.copyOf(unanalysable);
  }

  public String line() {
    return String.format(
        Locale.ROOT,
        "%s: %s, %d REFUSE, %s, %d with problems, %.2f s, %.0f questions/s",
        split, rolepolicy.io.Plural.of(questions, "question"), refused, rolepolicy.io.Plural.of(violations, "violation"),
        problems, seconds, questions / Math.max(seconds, 1e-9));
  }
}

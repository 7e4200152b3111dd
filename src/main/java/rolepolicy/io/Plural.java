package rolepolicy.io;

import java.util.Locale;

/** A count with its noun, singular for one: "1 question", "2 questions". */
public final class Plural {
  private Plural() {}

  /** {@code n} and {@code noun}, with an "s" unless {@code n} is 1. */
  public static String of(long n, String noun) {
    return String.format(Locale.ROOT, "%d %s%s", n, noun, n == 1 ? "" : "s");
  }
}

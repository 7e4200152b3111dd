package rolepolicy.report;

/**
 * The edit between two SQL texts as one replaced span: the common prefix and suffix, widened to
 * whole words, and what lies between on each side. The rewrite steps and the negatives change one
 * place of a query, so one span says exactly what changed.
 *
 * @param prefix the length of the common beginning
 * @param suffix the length of the common end (never overlapping the prefix on either side)
 */
public record SqlDiff(String before, String after, int prefix, int suffix) {

  public static SqlDiff of(String before, String after) {
    int max = Math.min(before.length(), after.length());
    int p = 0;
    while (p < max && before.charAt(p) == after.charAt(p)) {
      p++;
    }
    while (p > 0 && (word(before, p - 1) && (word(before, p) || word(after, p)))) {
      p--; // never split a word: "age" -> "singer.Singer_ID" replaces all of "age"
    }
    int s = 0;
    while (s < max - p && before.charAt(before.length() - 1 - s) == after.charAt(after.length() - 1 - s)) {
      s++;
    }
    while (s > 0 && word(before, before.length() - s)
        && (word(before, before.length() - s - 1) || word(after, after.length() - s - 1))) {
      s--;
    }
    return new SqlDiff(before, after, p, s);
  }

  private static boolean word(String text, int i) {
    if (i < 0 || i >= text.length()) {
      return false;
    }
    char c = text.charAt(i);
    return Character.isLetterOrDigit(c) || c == '_';
  }

  public String removed() {
    return before.substring(prefix, before.length() - suffix);
  }

  public String added() {
    return after.substring(prefix, after.length() - suffix);
  }

  /** The edit inline, as {@code git diff --word-diff} writes it: {@code [-old-]{+new+}}. */
  public String inline() {
    StringBuilder text = new StringBuilder(before.substring(0, prefix));
    if (!removed().isEmpty()) {
      text.append("[-").append(removed()).append("-]");
    }
    if (!added().isEmpty()) {
      text.append("{+").append(added()).append("+}");
    }
    return text.append(before.substring(before.length() - suffix)).toString();
  }
}

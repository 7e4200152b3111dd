package rolepolicy.explain;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import rolepolicy.io.InputException;
import rolepolicy.spider.Question;
import rolepolicy.spider.SplitReader;

/** Finds a question of a split file by its generated id ({@code dev_0003}: the third of dev). */
public final class QuestionLookup {
  private static final Pattern ID = Pattern.compile("(.+)_(\\d+)");

  private QuestionLookup() {}

  /** The split part of an id, or the whole id when it has no {@code _<number>}. */
  public static String splitOf(String id) {
    Matcher m = ID.matcher(id);
    return m.matches() ? m.group(1) : id;
  }

  /** The id of the {@code number}-th question (from 1) of a split: at least four digits. */
  public static String id(String split, int number) {
    return String.format(Locale.ROOT, "%s_%04d", split, number);
  }

  /**
   * The question with this id in {@code file} (the split's question file); an id that is not
   * there is bad input naming the split and the nearest ids.
   */
  public static Question find(String id, String split, Path file) {
    Matcher m = ID.matcher(id);
    int wanted = m.matches() && m.group(1).equals(split) ? parse(m.group(2)) : -1;
    List<Question> all = new ArrayList<>();
    try (SplitReader reader = new SplitReader(file)) {
      for (Question q = reader.next(); q != null; q = reader.next()) {
        if (q.index() == wanted && id.equals(id(split, wanted))) {
          return q;
        }
        all.add(q);
      }
    }
    int count = all.size();
    String range = count == 0 ? "no questions" : count + " questions, " + id(split, 1) + " to " + id(split, count);
    throw new InputException(
        "no question " + id + " in split " + split + " (" + file + ": " + range + "); nearest: "
            + String.join(", ", nearest(id, split, count)));
  }

  /** Up to three ids of the split closest to the one asked for, by edit distance. */
  static List<String> nearest(String id, String split, int count) {
    List<String> candidates = new ArrayList<>();
    Matcher m = ID.matcher(id);
    if (m.matches()) {
      int n = parse(m.group(2));
      for (int k = Math.max(1, n - 1); k <= Math.min(count, n + 1); k++) {
        candidates.add(id(split, k));
      }
    }
    if (count > 0) {
      candidates.add(id(split, 1));
      candidates.add(id(split, count));
    }
    return candidates.stream()
        .distinct()
        .sorted(Comparator.comparingInt((String c) -> distance(c, id)).thenComparing(c -> c))
        .limit(3)
        .toList();
  }

  private static int parse(String digits) {
    try {
      return Integer.parseInt(digits);
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  /** Levenshtein distance (also review's close database ids). */
  public static int distance(String a, String b) {
    int[] previous = new int[b.length() + 1];
    int[] current = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      previous[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      current[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        current[j] = Math.min(Math.min(current[j - 1] + 1, previous[j] + 1), previous[j - 1] + cost);
      }
      int[] swap = previous;
      previous = current;
      current = swap;
    }
    return previous[b.length()];
  }
}

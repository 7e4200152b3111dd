package rolepolicy.report;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import rolepolicy.report.SplitRecord.Negative;
import rolepolicy.report.SplitRecord.Violation;

/**
 * Q4's check, made on the text alone, independently of the generator: a negative is one edit from
 * its original SQL, and its violations include the one that edit introduced.
 *
 * The rule's code is not read: the text says which edit was made.
 *
 * <ul>
 *   <li>an appended column (N1, N3): the negative is the original with exactly one contiguous insertion, and the
 *       inserted text is one SELECT item {@code , qualifier.column};
 *   <li>an unwrapped aggregate (N2): the negative is the original with one aggregate call unwrapped: {@code avg(T1.price)}
 *       or {@code avg(DISTINCT T1.price)} becomes {@code T1.price}, nothing else changes;
 *   <li>then the negative's violations hold one more {@code SelectExpr} / {@code agg_id 0}
 *       violation of that column, under the policy the record gives the column, than the original's.
 * </ul>
 */
public final class NegativeCheck {
  private static final String NAME = "(?:`(?:[^`]|``)+`|\"[^\"]+\"|\\[[^\\]]+\\]|[A-Za-z_][A-Za-z0-9_]*)";
  private static final Pattern APPENDED_ITEM =
      Pattern.compile("\\s*,\\s*(?:" + NAME + "\\s*\\.\\s*)?(" + NAME + ")\\s*");
  private static final Pattern AGGREGATE_OPEN =
      Pattern.compile("(?i)\\b(?:max|min|count|sum|avg)\\s*\\(\\s*(?:distinct\\s+)?");
  private static final Pattern COLUMN_TEXT =
      Pattern.compile("(?:" + NAME + "\\s*\\.\\s*)?(" + NAME + ")");

  private NegativeCheck() {}

  /**
   * Null when the negative passes; else why it fails, in words. {@code policies} are the record's
   * column policies: the introduced violation must name its column's policy.
   */
  public static String failure(
      String original, Negative negative, List<Violation> originalViolations, Map<String, String> policies) {
    if (negative.sql() == null) {
      return "no SQL text";
    }
    String column = appendedColumn(original, negative.sql());
    if (column == null) {
      column = unwrappedColumn(original, negative.sql());
    }
    if (column == null) {
      return "the text is not the original with one SELECT item inserted in one place,"
          + " nor with one aggregate unwrapped";
    }
    long before = count(originalViolations, column, policies);
    long after = count(negative.violations(), column, policies);
    if (after <= before) {
      return "its violations do not include the introduced one (" + column
          + " SelectExpr agg_id 0, under the column's policy)";
    }
    return null;
  }

  /**
   * The bare column name of the one SELECT item that one contiguous insertion appended, or null.
   * An insertion can often stand at several places ({@code a, b} + {@code , b} = {@code a, b, b});
   * every place that gives the negative is tried.
   */
  static String appendedColumn(String original, String negative) {
    int added = negative.length() - original.length();
    if (added <= 0) {
      return null;
    }
    int prefix = commonPrefix(original, negative);
    int suffix = commonSuffix(original, negative);
    // insertion at k: original[0, k) is a common prefix and original[k, end) a common suffix
    for (int k = Math.min(prefix, original.length()); k >= Math.max(0, original.length() - suffix); k--) {
      Matcher m = APPENDED_ITEM.matcher(negative.substring(k, k + added));
      if (m.matches()) {
        return bare(m.group(1));
      }
    }
    return null;
  }

  /** The bare column name of the one aggregate call whose unwrapping gives the negative, or null. */
  static String unwrappedColumn(String original, String negative) {
    int prefix = commonPrefix(original, negative);
    Matcher open = AGGREGATE_OPEN.matcher(original);
    while (open.find() && open.start() <= prefix) {
      int close = closingParen(original, open.start() + original.substring(open.start()).indexOf('('));
      if (close < 0) {
        continue;
      }
      String inner = original.substring(open.end(), close).strip();
      Matcher column = COLUMN_TEXT.matcher(inner);
      if (!column.matches()) {
        continue; // N2 unwraps a single column only
      }
      String before = original.substring(0, open.start());
      String after = original.substring(close + 1);
      for (String candidate :
          List.of(before + inner + after, before + " " + inner + after, before + inner + " " + after, before + " " + inner + " " + after)) {
        if (candidate.equals(negative)) {
          return bare(column.group(1));
        }
      }
    }
    return null;
  }

  private static long count(List<Violation> violations, String bareColumn, Map<String, String> policies) {
    return violations.stream()
        .filter(v -> "SelectExpr".equals(v.role()) && v.aggId() == 0)
        .filter(v -> v.policy() != null && v.policy().equals(policies.get(v.column())))
        .filter(v -> v.column() != null && bareColumn.equals(v.column().substring(v.column().lastIndexOf('.') + 1)))
        .count();
  }

  private static int closingParen(String sql, int openIndex) {
    int depth = 0;
    for (int i = openIndex; i < sql.length(); i++) {
      char c = sql.charAt(i);
      if (c == '(') {
        depth++;
      } else if (c == ')' && --depth == 0) {
        return i;
      }
    }
    return -1;
  }

  /** A column name without quotes, lower-cased as the output's column keys are. */
  private static String bare(String name) {
    String unquoted = name;
    if (name.length() >= 2 && (name.startsWith("`") || name.startsWith("\"") || name.startsWith("["))) {
      unquoted = name.substring(1, name.length() - 1).replace("``", "`");
    }
    return unquoted.toLowerCase(Locale.ROOT);
  }

  private static int commonPrefix(String a, String b) {
    int n = Math.min(a.length(), b.length());
    int i = 0;
    while (i < n && a.charAt(i) == b.charAt(i)) {
      i++;
    }
    return i;
  }

  private static int commonSuffix(String a, String b) {
    int n = Math.min(a.length(), b.length());
    int i = 0;
    while (i < n && a.charAt(a.length() - 1 - i) == b.charAt(b.length() - 1 - i)) {
      i++;
    }
    return i;
  }
}

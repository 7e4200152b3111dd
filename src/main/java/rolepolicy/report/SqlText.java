package rolepolicy.report;

import java.util.Locale;
import java.util.Set;

/** What the report needs to know of a SQL text without parsing it. */
final class SqlText {
  private static final Set<String> SET_OPERATORS = Set.of("INTERSECT", "UNION", "EXCEPT");

  private SqlText() {}

  /**
   * Whether INTERSECT, UNION or EXCEPT stands outside every parenthesis and string literal, that
   * is, joins the top-level query to another.
   */
  static boolean hasTopLevelSetOperation(String sql) {
    int depth = 0;
    int i = 0;
    while (i < sql.length()) {
      char c = sql.charAt(i);
      if (c == '\'' || c == '"' || c == '`') {
        int close = sql.indexOf(c, i + 1);
        i = close < 0 ? sql.length() : close + 1;
      } else if (c == '(') {
        depth++;
        i++;
      } else if (c == ')') {
        depth--;
        i++;
      } else if (Character.isLetterOrDigit(c) || c == '_') {
        int end = i;
        while (end < sql.length() && (Character.isLetterOrDigit(sql.charAt(end)) || sql.charAt(end) == '_')) {
          end++;
        }
        if (depth == 0 && SET_OPERATORS.contains(sql.substring(i, end).toUpperCase(Locale.ROOT))) {
          return true;
        }
        i = end;
      } else {
        i++;
      }
    }
    return false;
  }
}

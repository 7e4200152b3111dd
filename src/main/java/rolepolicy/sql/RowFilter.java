package rolepolicy.sql;

import java.util.Locale;
import java.util.Set;

/**
 * Adds a condition to the WHERE clause of a query of one SELECT block, found by scanning the text
 * at parenthesis depth 0 outside quotes: {@code ... WHERE a = 1 GROUP BY b} → {@code ... WHERE (a
 * = 1) AND c GROUP BY b}; without WHERE, {@code WHERE c} goes before GROUP BY, HAVING, ORDER BY,
 * LIMIT or the end.
 */
final class RowFilter {
  private static final Set<String> AFTER_WHERE = Set.of("GROUP", "HAVING", "ORDER", "LIMIT", "WINDOW");

  private RowFilter() {}

  static String and(String sql, String condition) {
    int where = -1;
    int whereEnd = -1;
    int clauseAfter = -1;
    int selects = 0;
    int depth = 0;
    int end = sql.strip().endsWith(";") ? sql.lastIndexOf(';') : sql.length();
    for (int i = 0; i < end; i++) {
      char c = sql.charAt(i);
      if (c == '\'' || c == '"' || c == '`' || c == '[') {
        char close = c == '[' ? ']' : c;
        int j = sql.indexOf(close, i + 1);
        if (j < 0) {
          throw new IllegalArgumentException("unclosed quote in: " + sql);
        }
        i = j;
      } else if (c == '(') {
        depth++;
      } else if (c == ')') {
        depth--;
      } else if (Character.isLetter(c) && (i == 0 || !Character.isJavaIdentifierPart(sql.charAt(i - 1)))) {
        int j = i;
        while (j < end && Character.isJavaIdentifierPart(sql.charAt(j))) {
          j++;
        }
        String word = sql.substring(i, j).toUpperCase(Locale.ROOT);
        if (word.equals("SELECT") || word.equals("UNION") || word.equals("INTERSECT") || word.equals("EXCEPT")
            || word.equals("WITH")) {
          selects += word.equals("SELECT") ? 1 : 2;
        } else if (depth == 0 && word.equals("WHERE") && where < 0) {
          where = i;
          whereEnd = j;
        } else if (depth == 0 && AFTER_WHERE.contains(word) && clauseAfter < 0) {
          clauseAfter = i;
        }
        i = j - 1;
      }
    }
    if (selects != 1) {
      throw new IllegalArgumentException("a filter is added only to a query of one SELECT block: " + sql);
    }
    int stop = clauseAfter < 0 ? end : clauseAfter;
    if (where >= 0) {
      String existing = sql.substring(whereEnd, stop).strip();
      return sql.substring(0, where) + "WHERE (" + existing + ") AND " + condition
          + (stop < end ? " " : "") + sql.substring(stop);
    }
    String before = sql.substring(0, stop).stripTrailing();
    return before + " WHERE " + condition + (stop < end ? " " : "") + sql.substring(stop);
  }
}

package rolepolicy.sql;

import java.util.Locale;

/**
 * The limits on SQL text, checked with the lexer before any parser reads it, so that hostile text
 * costs bounded work and stack: its length, its parenthesis depth (JSqlParser's lookahead grows
 * exponentially with nesting) and its operators (a chain of them is as deep a tree as it is long).
 * The gold SQL of Spider, BIRD and KaggleDBQA stays far inside: at most 1,446 characters, depth 7
 * and 28 operators.
 */
public final class SqlLimits {
  public static final int MAX_CHARS = 100_000;
  public static final int MAX_DEPTH = 10;
  public static final int MAX_OPERATORS = 1_000;

  private static final String OPERATOR_CHARS = "+-*/%|&^=<>!~";

  private SqlLimits() {}

  /** Throws {@link SqlAnalysisException} naming the limit {@code sql} is over. */
  public static void check(String sql) {
    if (sql.length() > MAX_CHARS) {
      throw over("the SQL text is %,d characters long, over the limit of %,d", sql.length(), MAX_CHARS);
    }
    int depth = 0;
    int operators = 0;
    for (SqlTokens.Token token : SqlTokens.of(sql)) {
      String text = token.text();
      if (token.type() == SqlTokens.Type.WORD) {
        if (text.equalsIgnoreCase("and") || text.equalsIgnoreCase("or")) {
          operators++;
        }
      } else if (token.type() == SqlTokens.Type.OTHER) {
        if (text.equals("(") && ++depth > MAX_DEPTH) {
          throw over("the SQL text nests parentheses deeper than the limit of %d", MAX_DEPTH);
        } else if (text.equals(")")) {
          depth = Math.max(0, depth - 1);
        } else if (OPERATOR_CHARS.contains(text)) {
          operators++;
        }
      }
      if (operators > MAX_OPERATORS) {
        throw over("the SQL text has more than %,d operators (AND, OR, + - * / = < > ...), the limit", MAX_OPERATORS);
      }
    }
  }

  private static SqlAnalysisException over(String format, Object... args) {
    return new SqlAnalysisException(String.format(Locale.ROOT, format, args));
  }
}

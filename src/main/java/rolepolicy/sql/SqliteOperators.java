package rolepolicy.sql;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import net.sf.jsqlparser.parser.CCJSqlParser;
import net.sf.jsqlparser.parser.CCJSqlParserConstants;
import net.sf.jsqlparser.parser.CCJSqlParserUtil;
import net.sf.jsqlparser.parser.Token;

/**
 * SQLite operators that JSqlParser 5.3 cannot read, each replaced by one it reads that has the same
 * operands and the same length, so that every offset, line and column of the text stays as it was.
 * Only the token the parser stopped at is replaced, and the parse is tried again:
 *
 * <ul>
 *   <li>{@code a GLOB b} → {@code a LIKE b};
 *   <li>{@code a == b} → {@code a = b};
 *   <li>{@code a IS b} → {@code a = b}, {@code a IS NOT b} → {@code a <> b} (where {@code b} is not
 *       NULL, TRUE, FALSE or DISTINCT, which JSqlParser reads);
 *   <li>{@code a NOT NULL} → {@code a <> NULL} (SQLite's postfix form of NOTNULL).
 * </ul>
 *
 * Which operator it was does not matter to the analysis: only which columns stand where.
 */
final class SqliteOperators {
  private SqliteOperators() {}

  /**
   * The text with the operator at the token where the parse stopped replaced, or null when that
   * token is not one of the operators above.
   *
   * @param line the failing token's line (1-based)
   * @param column its column (1-based)
   */
  static String replaceAt(String text, int line, int column) {
    List<Token> tokens = tokens(text);
    int at = -1;
    for (int i = 0; i < tokens.size(); i++) {
      if (tokens.get(i).beginLine == line && tokens.get(i).beginColumn == column) {
        at = i;
      }
    }
    if (at < 0) {
      return null;
    }
    TextPositions positions = new TextPositions(text);
    Token bad = tokens.get(at);
    String image = image(tokens, at);
    String next = image(tokens, at + 1);
    if (image.equals("GLOB")) {
      return replace(text, bad, "LIKE", positions);
    }
    if (image.equals("=") && image(tokens, at - 1).equals("=")) {
      return adjacent(tokens.get(at - 1), bad) ? replace(text, bad, " ", positions) : null;
    }
    if (image.equals("=") && next.equals("=")) { // the parser may stop at the first of the two
      return adjacent(bad, tokens.get(at + 1))
          ? replace(text, tokens.get(at + 1), " ", positions)
          : null;
    }
    if (image.equals("IS") && next.equals("NOT") && !readsAfterIs(image(tokens, at + 2))) {
      return replace(replace(text, bad, "<>", positions), tokens.get(at + 1), "   ", positions);
    }
    if (image.equals("IS") && !next.equals("NOT") && !readsAfterIs(next)) {
      return replace(text, bad, "= ", positions);
    }
    if (image.equals("NOT") && next.equals("NULL")) {
      return replace(text, bad, "<> ", positions);
    }
    return null;
  }

  /** The tokens of the text, comments left out; empty when the text does not tokenize. */
  private static List<Token> tokens(String text) {
    List<Token> tokens = new ArrayList<>();
    try {
      CCJSqlParser lexer = CCJSqlParserUtil.newParser(text).withSquareBracketQuotation(true);
      for (Token t = lexer.getNextToken();
          t.kind != CCJSqlParserConstants.EOF;
          t = lexer.getNextToken()) {
        tokens.add(t);
      }
    } catch (RuntimeException | Error e) { // a lexical error: nothing to replace
      return List.of();
    }
    return tokens;
  }

  private static String image(List<Token> tokens, int i) {
    return i < 0 || i >= tokens.size() ? "" : tokens.get(i).image.toUpperCase(Locale.ROOT);
  }

  private static boolean adjacent(Token first, Token second) {
    return first.endLine == second.beginLine && first.endColumn + 1 == second.beginColumn;
  }

  /** What JSqlParser reads after {@code IS [NOT]} itself. */
  private static boolean readsAfterIs(String image) {
    return image.equals("NULL")
        || image.equals("TRUE")
        || image.equals("FALSE")
        || image.equals("DISTINCT")
        || image.equals("UNKNOWN");
  }

  private static String replace(
      String text, Token token, String replacement, TextPositions positions) {
    int start = positions.offset(token.beginLine, token.beginColumn);
    if (replacement.length() != token.image.length()
        || !text.regionMatches(true, start, token.image, 0, token.image.length())) {
      throw new IllegalStateException("cannot replace '" + token.image + "' at offset " + start);
    }
    return text.substring(0, start) + replacement + text.substring(start + replacement.length());
  }
}

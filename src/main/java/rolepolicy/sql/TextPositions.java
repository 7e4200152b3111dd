package rolepolicy.sql;

import java.util.ArrayList;
import java.util.List;
import net.sf.jsqlparser.parser.ASTNodeAccess;
import net.sf.jsqlparser.parser.SimpleNode;
import net.sf.jsqlparser.parser.Token;

/**
 * Turns the parser's token positions (1-based line and column) into char offsets of the text. Lines
 * end at LF, CR or CRLF; every other char, tab included, is one column, as the parser's char stream
 * counts them.
 */
final class TextPositions {
  private final String sql;
  private final int[] lineStarts;

  TextPositions(String sql) {
    this.sql = sql;
    List<Integer> starts = new ArrayList<>();
    starts.add(0);
    for (int i = 0; i < sql.length(); i++) {
      char c = sql.charAt(i);
      if (c == '\n' || (c == '\r' && (i + 1 == sql.length() || sql.charAt(i + 1) != '\n'))) {
        starts.add(i + 1);
      }
    }
    lineStarts = starts.stream().mapToInt(Integer::intValue).toArray();
  }

  /** The text the positions are of. */
  String text() {
    return sql;
  }

  /** Offset of a 1-based (line, column) position. */
  int offset(int line, int column) {
    if (line < 1 || line > lineStarts.length || column < 1) {
      throw new IllegalStateException("position " + line + ":" + column + " is outside the text");
    }
    return lineStarts[line - 1] + column - 1;
  }

  /** Like {@link #offset}, but the end of the text for a position past it (end of input). */
  int offsetOrEnd(int line, int column) {
    if (line < 1 || line > lineStarts.length || column < 1) {
      return sql.length();
    }
    return Math.min(offset(line, column), sql.length());
  }

  /** The text one token covers. */
  Span token(Token token) {
    return between(token, token);
  }

  /** The text from the first char of {@code first} to the last char of {@code last}. */
  Span between(Token first, Token last) {
    Span span =
        new Span(
            offset(first.beginLine, first.beginColumn), offset(last.endLine, last.endColumn) + 1);
    check(first, span.start(), span.start() + first.image.length());
    check(last, span.end() - last.image.length(), span.end());
    return span;
  }

  /** The text a parsed object covers, from its syntax-tree node. */
  Span node(ASTNodeAccess element) {
    SimpleNode node = element.getASTNode();
    if (node == null) {
      throw new SqlAnalysisException(
          "no source position for '" + SqlAnalysisException.excerpt(element) + "'");
    }
    return between(node.jjtGetFirstToken(), node.jjtGetLastToken());
  }

  private void check(Token token, int start, int end) {
    if (start < 0 || end > sql.length() || !sql.regionMatches(start, token.image, 0, end - start)) {
      throw new IllegalStateException(
          "token '"
              + token.image
              + "' at "
              + token.beginLine
              + ":"
              + token.beginColumn
              + " does not match the text at offset "
              + start);
    }
  }
}

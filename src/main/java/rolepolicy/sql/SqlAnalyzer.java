package rolepolicy.sql;

import net.sf.jsqlparser.parser.CCJSqlParser;
import net.sf.jsqlparser.parser.CCJSqlParserConstants;
import net.sf.jsqlparser.parser.CCJSqlParserUtil;
import net.sf.jsqlparser.parser.ParseException;
import net.sf.jsqlparser.parser.Token;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.select.Select;
import rolepolicy.spider.Schema;

/**
 * Analyses SQLite-dialect query text in Spider's style against one schema: the column references
 * with role, effective aggregate and text spans, in the walk order of SPEC §4, exactly as the AST
 * walker lists them for the same query.
 */
public final class SqlAnalyzer {
  private final Schema schema;

  public SqlAnalyzer(Schema schema) {
    this.schema = schema;
  }

  /** Analyses one query; throws {@link SqlAnalysisException} saying what failed. */
  public SqlAnalysis analyse(String sql) {
    TextPositions positions = new TextPositions(sql);
    Select select = parse(sql, positions);
    QueryWalker walker = new QueryWalker(schema, positions);
    walker.query(select, null, true, null);
    return new SqlAnalysis(
        sql,
        walker.refs,
        walker.selectStar,
        walker.setOperation,
        walker.fromTables,
        walker.selectListEnd);
  }

  /** Parses exactly one SELECT statement (an optional trailing semicolon allowed). */
  private static Select parse(String sql, TextPositions positions) {
    if (sql.isBlank()) {
      throw new SqlAnalysisException("empty SQL text");
    }
    CCJSqlParser parser = CCJSqlParserUtil.newParser(sql);
    Statement statement;
    Token next;
    try {
      statement = parser.Statement();
      next = parser.getNextToken();
    } catch (ParseException e) {
      throw new SqlAnalysisException(parseError(e, positions), e);
    } catch (RuntimeException e) { // lexical errors
      throw new SqlAnalysisException("cannot parse SQL: " + firstLine(e.getMessage()), e);
    }
    if (next.kind != CCJSqlParserConstants.EOF) {
      throw new SqlAnalysisException(
          String.format(
              "more than one statement: text goes on at line %d, column %d (offset %d)",
              next.beginLine,
              next.beginColumn,
              positions.offsetOrEnd(next.beginLine, next.beginColumn)));
    }
    if (statement instanceof Select select) {
      return select;
    }
    throw new SqlAnalysisException(
        "not a query: "
            + (statement == null ? "no statement" : statement.getClass().getSimpleName()));
  }

  private static String parseError(ParseException e, TextPositions positions) {
    if (e.currentToken != null && e.currentToken.next != null) {
      Token bad = e.currentToken.next;
      return String.format(
          "cannot parse SQL at line %d, column %d (offset %d): unexpected %s",
          bad.beginLine,
          bad.beginColumn,
          positions.offsetOrEnd(bad.beginLine, bad.beginColumn),
          bad.image.isEmpty() ? "end of text" : "'" + bad.image + "'");
    }
    return "cannot parse SQL: " + firstLine(e.getMessage());
  }

  private static String firstLine(String message) {
    if (message == null) {
      return "(no message)";
    }
    int newline = message.indexOf('\n');
    return newline < 0 ? message : message.substring(0, newline);
  }
}

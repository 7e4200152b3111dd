package rolepolicy.sql;

import java.util.List;
import java.util.Locale;
import net.sf.jsqlparser.parser.CCJSqlParser;
import net.sf.jsqlparser.parser.CCJSqlParserConstants;
import net.sf.jsqlparser.parser.CCJSqlParserUtil;
import net.sf.jsqlparser.parser.ParseException;
import net.sf.jsqlparser.parser.Token;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.select.ParenthesedSelect;
import net.sf.jsqlparser.statement.select.Select;
import rolepolicy.spider.Schema;

/**
 * Analyses SQLite-dialect query text against one schema: the column references with role, effective
 * aggregate and text spans, in the walk order of SPEC §4. On Spider's queries it lists exactly what
 * the AST walker lists for the same query; beyond Spider's grammar (WITH, USING, window functions
 * and more, as models write them) it follows docs/decisions.md, "SQL written by models". Spider's
 * own SQL is parsed by {@link SpiderSqlParser}, which builds JSqlParser's tree for it faster;
 * everything it declines is parsed by JSqlParser.
 */
public final class SqlAnalyzer {
  private final Schema schema;

  public SqlAnalyzer(Schema schema) {
    this.schema = schema;
  }

  /** Analyses one query; throws {@link SqlAnalysisException} saying what failed. */
  public SqlAnalysis analyse(String sql) {
    return analyse(sql, true);
  }

  /**
   * Analyses one query, with {@link SpiderSqlParser} first when {@code fastPath}, else with
   * JSqlParser only (the reference that tests compare the fast path with).
   */
  SqlAnalysis analyse(String sql, boolean fastPath) {
    Parsed parsed = fastPath ? parseFastFirst(sql) : parse(sql);
    QueryWalker walker = new QueryWalker(schema, parsed.positions());
    walker.query(parsed.select(), null, true, null, CommonTables.NONE);
    List<TextRef> refs = new java.util.ArrayList<>(walker.refs);
    refs.addAll(walker.clauseRefs);
    return new SqlAnalysis(
        sql,
        refs,
        walker.selectStar,
        walker.setOperation,
        walker.fromTables,
        walker.selectListEnd,
        orderBy(parsed.select()),
        walker.selectItems,
        List.copyOf(walker.tables),
        List.copyOf(walker.starTables));
  }

  /**
   * A parsed query, and the positions of the text the parser read: the SQL text, with the SQLite
   * operators JSqlParser lacks replaced by same-length ones ({@link SqliteOperators}).
   */
  record Parsed(Select select, TextPositions positions) {}

  /** At most this many operators are replaced before the parse gives up. */
  private static final int MAX_REPLACEMENTS = 100;

  /**
   * The query of a text as the fast parser reads it (the tree JSqlParser builds for it), or null
   * when the text is outside the fast parser's part of SQL.
   */
  public static Select parseFast(String sql) {
    SqlLimits.check(sql);
    return SpiderSqlParser.parse(sql);
  }

  /**
   * The one SELECT statement of a text, parsed as the analyser parses it (SQLite's operators that
   * JSqlParser lacks included); anything else is a {@link SqlAnalysisException}.
   */
  public static Select parseSelect(String sql) {
    return parse(sql).select();
  }

  /**
   * {@link #parseSelect}, with the fast parser first: JSqlParser's tree, built faster where the fast
   * parser reads the text.
   */
  public static Select parseSelectFastFirst(String sql) {
    return parseFastFirst(sql).select();
  }

  /** {@link #parse}, with the fast parser first: JSqlParser's tree, built faster where it reads the text. */
  static Parsed parseFastFirst(String sql) {
    SqlLimits.check(sql);
    Select fast = SpiderSqlParser.parse(sql);
    return fast != null ? new Parsed(fast, new TextPositions(sql)) : parse(sql);
  }

  /**
   * Parses exactly one SELECT statement (an optional trailing semicolon allowed) with JSqlParser;
   * identifiers may be quoted as {@code "x"}, {@code `x`} or {@code [x]}.
   */
  static Parsed parse(String sql) {
    if (sql.isBlank()) {
      throw new SqlAnalysisException("empty SQL text");
    }
    SqlLimits.check(sql);
    String text = sql;
    for (int attempt = 0; ; attempt++) {
      TextPositions positions = new TextPositions(text);
      CCJSqlParser parser = CCJSqlParserUtil.newParser(text).withSquareBracketQuotation(true);
      Statement statement;
      Token next;
      try {
        statement = parser.Statement();
        next = parser.getNextToken();
      } catch (ParseException e) {
        Token bad = e.currentToken == null ? null : e.currentToken.next;
        String replaced =
            bad == null || attempt >= MAX_REPLACEMENTS
                ? null
                : SqliteOperators.replaceAt(text, bad.beginLine, bad.beginColumn);
        if (replaced != null) {
          text = replaced;
          continue;
        }
        throw new SqlAnalysisException(parseError(e, positions), e);
      } catch (RuntimeException e) { // lexical errors
        throw new SqlAnalysisException("cannot parse SQL: " + firstLine(e.getMessage()), e);
      }
      if (next.kind != CCJSqlParserConstants.EOF) {
        throw new SqlAnalysisException(
            String.format(
                Locale.ROOT,
                "more than one statement: text goes on at line %d, column %d (offset %d)",
                next.beginLine,
                next.beginColumn,
                positions.offsetOrEnd(next.beginLine, next.beginColumn)));
      }
      if (statement instanceof Select select) {
        return new Parsed(select, positions);
      }
      throw new SqlAnalysisException(
          "not a query: "
              + (statement == null ? "no statement" : statement.getClass().getSimpleName()));
    }
  }

  /** Whether the top-level query, or its set operation, ends in ORDER BY. */
  private static boolean orderBy(Select select) {
    if (select.getOrderByElements() != null && !select.getOrderByElements().isEmpty()) {
      return true;
    }
    return select instanceof ParenthesedSelect parenthesed && orderBy(parenthesed.getSelect());
  }

  private static String parseError(ParseException e, TextPositions positions) {
    if (e.currentToken != null && e.currentToken.next != null) {
      Token bad = e.currentToken.next;
      return String.format(
          Locale.ROOT,
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

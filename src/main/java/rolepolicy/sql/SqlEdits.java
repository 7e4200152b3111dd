package rolepolicy.sql;

import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;
import net.sf.jsqlparser.JSQLParserException;
import net.sf.jsqlparser.parser.CCJSqlParserUtil;
import net.sf.jsqlparser.schema.Column;

/**
 * One-edit rewrites of SQL text at the spans an analysis found. Everything outside the edited span
 * stays as it was, byte for byte. A name that is not a plain word is written in backticks ({@code
 * `Free Meal Count (K-12)`}). An edited SELECT item of a FROM subquery or common table that is a
 * bare column without alias keeps its output name with {@code AS}: the query that reads the table
 * reads the column by that name.
 */
public final class SqlEdits {
  private static final Pattern PLAIN_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
  private static final Pattern FUNCTION_NAME = Pattern.compile("[A-Za-z_]+");

  /**
   * SQLite's keywords (its documentation lists these 147): a column of such a name is written
   * quoted, though SQLite reads some of them as names where nothing else fits ({@code index} it
   * does not).
   */
  private static final Set<String> SQLITE_KEYWORDS =
      Set.of(
          "ABORT", "ACTION", "ADD", "AFTER", "ALL", "ALTER", "ALWAYS", "ANALYZE", "AND", "AS", "ASC",
          "ATTACH", "AUTOINCREMENT", "BEFORE", "BEGIN", "BETWEEN", "BY", "CASCADE", "CASE", "CAST",
          "CHECK", "COLLATE", "COLUMN", "COMMIT", "CONFLICT", "CONSTRAINT", "CREATE", "CROSS",
          "CURRENT", "CURRENT_DATE", "CURRENT_TIME", "CURRENT_TIMESTAMP", "DATABASE", "DEFAULT",
          "DEFERRABLE", "DEFERRED", "DELETE", "DESC", "DETACH", "DISTINCT", "DO", "DROP", "EACH",
          "ELSE", "END", "ESCAPE", "EXCEPT", "EXCLUDE", "EXCLUSIVE", "EXISTS", "EXPLAIN", "FAIL",
          "FILTER", "FIRST", "FOLLOWING", "FOR", "FOREIGN", "FROM", "FULL", "GENERATED", "GLOB",
          "GROUP", "GROUPS", "HAVING", "IF", "IGNORE", "IMMEDIATE", "IN", "INDEX", "INDEXED",
          "INITIALLY", "INNER", "INSERT", "INSTEAD", "INTERSECT", "INTO", "IS", "ISNULL", "JOIN",
          "KEY", "LAST", "LEFT", "LIKE", "LIMIT", "MATCH", "MATERIALIZED", "NATURAL", "NO", "NOT",
          "NOTHING", "NOTNULL", "NULL", "NULLS", "OF", "OFFSET", "ON", "OR", "ORDER", "OTHERS",
          "OUTER", "OVER", "PARTITION", "PLAN", "PRAGMA", "PRECEDING", "PRIMARY", "QUERY", "RAISE",
          "RANGE", "RECURSIVE", "REFERENCES", "REGEXP", "REINDEX", "RELEASE", "RENAME", "REPLACE",
          "RESTRICT", "RETURNING", "RIGHT", "ROLLBACK", "ROW", "ROWS", "SAVEPOINT", "SELECT", "SET",
          "TABLE", "TEMP", "TEMPORARY", "THEN", "TIES", "TO", "TRANSACTION", "TRIGGER", "UNBOUNDED",
          "UNION", "UNIQUE", "UPDATE", "USING", "VACUUM", "VALUES", "VIEW", "VIRTUAL", "WHEN",
          "WHERE", "WINDOW", "WITH", "WITHOUT");

  /** Column names as SQL text, decided once each (a parse per name is slow). */
  private static final NameMemo<String> IDENTIFIERS = new NameMemo<>(SqlEdits::writeIdentifier);

  private SqlEdits() {}

  /**
   * Renames the referenced column, keeping its qualifier: {@code T1.name} → {@code T1.singer_id}.
   * An unqualified reference gets its table's qualifier ({@code name} → {@code singer.email}), so
   * that the new name can neither resolve to another table nor be ambiguous.
   */
  public static String replaceColumn(String sql, TextRef ref, String newColumnName) {
    String name = identifier(newColumnName);
    return splice(
        sql,
        ref.nameSpan(),
        (ref.unqualified() ? ref.qualifier() + "." + name : name) + keptName(sql, ref));
  }

  /** Wraps the SELECT item holding the reference: {@code T1.price} → {@code AVG(T1.price)}. */
  public static String wrapItem(String sql, TextRef ref, String aggregate) {
    Span item = require(ref.itemSpan(), ref, "is not in a SELECT item");
    if (!FUNCTION_NAME.matcher(aggregate).matches()) {
      throw new IllegalArgumentException("not a function name: " + aggregate);
    }
    if (ItemAggregates.holdsAggregate(text(sql, item))) {
      throw new IllegalArgumentException(
          "SELECT item of " + ref.column() + " already calls an aggregate or window function:"
              + " wrapping it would nest them, which SQLite refuses");
    }
    return splice(sql, item, aggregate + "(" + text(sql, item) + ")" + keptName(sql, ref));
  }

  /**
   * Drops the aggregate around the reference: {@code avg(DISTINCT T1.price)} → {@code T1.price}.
   */
  public static String unwrapAggregate(String sql, TextRef ref) {
    Span aggregate = require(ref.aggregateSpan(), ref, "is not under an aggregate");
    return splice(sql, aggregate, text(sql, ref.columnSpan()));
  }

  /**
   * Counts rows instead of a column: {@code count(T2.id)} → {@code count(*)}; with {@code notNull},
   * the query's one SELECT block also keeps only the rows where the column is not NULL ({@link
   * RowFilter}).
   */
  public static String countStar(String sql, TextRef ref, boolean notNull) {
    Span aggregate = require(ref.aggregateSpan(), ref, "is not under an aggregate");
    String column = text(sql, ref.columnSpan());
    if (!text(sql, aggregate).matches("(?is)count\\s*\\(\\s*" + Pattern.quote(column) + "\\s*\\)")) {
      throw new IllegalArgumentException("reference " + ref + " is not the bare argument of COUNT: " + text(sql, aggregate));
    }
    String counted = splice(sql, ref.columnSpan(), "*");
    return notNull ? RowFilter.and(counted, column + " IS NOT NULL") : counted;
  }

  /** A query in the one form {@link #countGroups} rewrites: {@code SELECT <count> FROM <rest>}. */
  private static final Pattern SELECT_ONE_ITEM = Pattern.compile("(?is)\\s*SELECT\\s+(.*?)\\s+(FROM\\s.*?)\\s*;?\\s*");

  /** What the rest of such a query may not hold (outside string literals). */
  private static final Pattern NOT_IN_REST =
      Pattern.compile("(?i)\\b(GROUP\\s+BY|HAVING|ORDER\\s+BY|LIMIT|UNION|INTERSECT|EXCEPT|SELECT)\\b");

  /**
   * Counts groups instead of distinct values: {@code SELECT count(DISTINCT T.k) FROM ... WHERE ...}
   * becomes {@code SELECT count(*) FROM (SELECT count(*) FROM ... WHERE ... GROUP BY T.k)}. Only
   * for a query whose one SELECT item is that count and whose FROM ... WHERE ... holds no GROUP BY,
   * HAVING, ORDER BY, LIMIT, set operation or nested query.
   */
  public static String countGroups(String sql, TextRef ref) {
    Span aggregate = require(ref.aggregateSpan(), ref, "is not under an aggregate");
    String column = text(sql, ref.columnSpan());
    String count = text(sql, aggregate);
    if (!count.matches("(?is)count\\s*\\(\\s*distinct\\s+" + Pattern.quote(column) + "\\s*\\)")) {
      throw new IllegalArgumentException("reference " + ref + " is not the argument of COUNT(DISTINCT ...): " + count);
    }
    java.util.regex.Matcher query = SELECT_ONE_ITEM.matcher(sql);
    if (!query.matches() || !query.group(1).equals(count)) {
      throw new IllegalArgumentException("the query has more than " + count + " in its SELECT list");
    }
    String rest = query.group(2);
    if (NOT_IN_REST.matcher(rest.replaceAll("'(?:[^']|'')*'|\"(?:[^\"]|\"\")*\"", "''")).find()) {
      throw new IllegalArgumentException("the query's FROM ... has GROUP BY, HAVING, ORDER BY, LIMIT or a nested query");
    }
    return "SELECT count(*) FROM (SELECT count(*) " + rest + " GROUP BY " + column + ")";
  }

  /**
   * Appends {@code , T1.email} to the top-level SELECT list, qualified by the table's alias if it
   * has one, else by its name as written.
   */
  public static String appendSelectItem(
      String sql, SqlAnalysis analysis, TextTable table, String columnName) {
    if (!analysis.sql().equals(sql)) {
      throw new IllegalArgumentException("the analysis is of another SQL text");
    }
    if (analysis.selectListEnd() < 0) {
      throw new IllegalArgumentException("the query has no top-level SELECT list");
    }
    Span end = new Span(analysis.selectListEnd(), analysis.selectListEnd());
    return splice(sql, end, ", " + table.qualifier() + "." + identifier(columnName));
  }

  /**
   * {@code " AS name"}, the column's name as written, when the reference is a whole SELECT item
   * without alias whose output name another part reads ({@link NamedItems}): of a FROM subquery, a
   * common table, or the first part of a set operation with ORDER BY; else empty. Other items are
   * read by position.
   */
  private static String keptName(String sql, TextRef ref) {
    if (ref.itemSpan() == null
        || !ref.itemSpan().equals(ref.columnSpan())
        || !NamedItems.unaliased(sql).contains(ref.itemSpan())) {
      return "";
    }
    return " AS " + text(sql, ref.nameSpan());
  }

  /**
   * A column name as SQL text: as it is when it is a plain word that is no SQLite keyword and the
   * parser reads as a column, else in backticks.
   */
  static String identifier(String name) {
    return IDENTIFIERS.get(name);
  }

  /** Whether SQLite reads this name unquoted: a plain word that is no SQLite keyword. */
  public static boolean bareName(String name) {
    return PLAIN_NAME.matcher(name).matches() && !SQLITE_KEYWORDS.contains(name.toUpperCase(Locale.ROOT));
  }

  private static String writeIdentifier(String name) {
    return bareName(name) && readsAsColumn(name, name)
        ? name
        : "`" + name.replace("`", "``") + "`";
  }

  private static boolean readsAsColumn(String text, String name) {
    try {
      return CCJSqlParserUtil.parseExpression(text) instanceof Column column
          && column.getColumnName().equals(name);
    } catch (JSQLParserException | RuntimeException e) {
      return false;
    }
  }

  private static Span require(Span span, TextRef ref, String why) {
    if (span == null) {
      throw new IllegalArgumentException("reference " + ref + " " + why);
    }
    return span;
  }

  private static String text(String sql, Span span) {
    if (span.end() > sql.length()) {
      throw new IllegalArgumentException("span " + span + " is outside the SQL text");
    }
    return span.text(sql);
  }

  /** Replaces the span; a space keeps the new text from fusing with a word next to it. */
  private static String splice(String sql, Span span, String replacement) {
    text(sql, span);
    String before = sql.substring(0, span.start());
    String after = sql.substring(span.end());
    if (fuses(before, replacement)) {
      replacement = " " + replacement;
    }
    if (fuses(replacement, after)) {
      replacement = replacement + " ";
    }
    return before + replacement + after;
  }

  private static boolean fuses(String left, String right) {
    return !left.isEmpty()
        && !right.isEmpty()
        && Character.isJavaIdentifierPart(left.charAt(left.length() - 1))
        && Character.isJavaIdentifierPart(right.charAt(0));
  }
}

package rolepolicy.sql;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.statement.select.AllColumns;
import net.sf.jsqlparser.statement.select.AllTableColumns;
import net.sf.jsqlparser.statement.select.ParenthesedSelect;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.select.SelectItem;
import net.sf.jsqlparser.statement.select.SetOperationList;
import net.sf.jsqlparser.statement.select.WithItem;
import rolepolicy.spider.Schema;

/**
 * The names of the columns a query outputs, as SQLite names them: what a derived table or a common
 * table expression offers the query that reads it. An item's name is its alias, else the column's
 * name, else the item's text; {@code *} and {@code T.*} stand for the columns of their tables; a
 * set operation is named by its first part; {@code WITH x(a, b)} names the columns of x.
 */
final class OutputColumns {
  private OutputColumns() {}

  static List<String> of(
      Select select, Schema schema, CommonTables tables, TextPositions positions) {
    CommonTables visible = declare(select, schema, tables, positions);
    if (select instanceof ParenthesedSelect parenthesed) {
      return of(parenthesed.getSelect(), schema, visible, positions);
    }
    if (select instanceof SetOperationList setOperations) {
      return of(setOperations.getSelects().get(0), schema, visible, positions);
    }
    if (select instanceof PlainSelect plain) {
      return items(plain, schema, visible, positions);
    }
    throw new SqlAnalysisException("unsupported query form: " + select.getClass().getSimpleName());
  }

  /** {@code tables} and the query's own WITH definitions, each with its columns. */
  static CommonTables declare(
      Select select, Schema schema, CommonTables tables, TextPositions positions) {
    CommonTables visible = tables;
    if (select.getWithItemsList() != null) {
      for (WithItem<?> item : select.getWithItemsList()) {
        visible = visible.with(name(item), of(item, schema, visible, positions));
      }
    }
    return visible;
  }

  /** The name a WITH definition is read by. */
  static String name(WithItem<?> item) {
    return QueryScope.unquote(item.getAlias().getName());
  }

  /** The columns of one WITH definition; {@code tables} are those defined before it. */
  static List<String> of(
      WithItem<?> item, Schema schema, CommonTables tables, TextPositions positions) {
    if (item.getSelect() == null) {
      throw new SqlAnalysisException("WITH " + name(item) + " is not a query");
    }
    List<String> body = of(item.getSelect(), schema, tables, positions);
    if (item.getWithItemList() == null || item.getWithItemList().isEmpty()) {
      return body;
    }
    List<String> named = new ArrayList<>();
    for (SelectItem<?> column : item.getWithItemList()) {
      named.add(QueryScope.unquote(column.toString().trim()));
    }
    if (named.size() != body.size()) {
      throw new SqlAnalysisException(
          String.format(
              Locale.ROOT,
              "WITH %s names %d columns but its query has %d",
              name(item), named.size(), body.size()));
    }
    return named;
  }

  private static List<String> items(
      PlainSelect select, Schema schema, CommonTables tables, TextPositions positions) {
    List<String> names = new ArrayList<>();
    QueryScope scope = null;
    for (SelectItem<?> item : select.getSelectItems()) {
      Expression expression = item.getExpression();
      if (expression instanceof AllColumns) {
        if (scope == null) {
          scope = QueryScope.of(select, schema, null, tables, positions);
        }
        names.addAll(
            expression instanceof AllTableColumns table
                ? scope.columnsOf(QueryScope.unquote(table.getTable().getName()))
                : scope.allColumns());
      } else if (item.getAlias() != null) {
        names.add(QueryScope.unquote(item.getAlias().getName()));
      } else if (expression instanceof Column column) {
        names.add(QueryScope.unquote(column.getColumnName()));
      } else {
        names.add(text(expression, positions));
      }
    }
    return names;
  }

  private static String text(Expression expression, TextPositions positions) {
    return expression.getASTNode() == null
        ? expression.toString()
        : positions.node(expression).text(positions.text());
  }
}

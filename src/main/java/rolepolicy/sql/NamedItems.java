package rolepolicy.sql;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.statement.select.AllColumns;
import net.sf.jsqlparser.statement.select.FromItem;
import net.sf.jsqlparser.statement.select.Join;
import net.sf.jsqlparser.statement.select.ParenthesedFromItem;
import net.sf.jsqlparser.statement.select.ParenthesedSelect;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.select.SelectItem;
import net.sf.jsqlparser.statement.select.SetOperationList;
import net.sf.jsqlparser.statement.select.WithItem;

/**
 * The SELECT items, at any depth, whose output name another query reads: the items without alias
 * of a FROM subquery or of a common table without a column list (the first part of a set
 * operation names it), and of the first part of a set operation with ORDER BY, which reads them.
 * An edit that changes such an item must keep its name.
 */
final class NamedItems {
  private final TextPositions positions;
  private final Set<Span> unaliased = new HashSet<>();

  private NamedItems(TextPositions positions) {
    this.positions = positions;
  }

  /** The spans of the named items without alias in a query text, which must parse. */
  static Set<Span> unaliased(String sql) {
    SqlAnalyzer.Parsed parsed = SqlAnalyzer.parseFastFirst(sql);
    NamedItems items = new NamedItems(parsed.positions());
    items.query(parsed.select(), false);
    return items.unaliased;
  }

  /** One query; {@code named} when its items name the columns of a table that is read. */
  private void query(Select select, boolean named) {
    if (select.getWithItemsList() != null) {
      for (WithItem<?> item : select.getWithItemsList()) {
        if (item.getSelect() != null) {
          query(
              item.getSelect(),
              item.getWithItemList() == null || item.getWithItemList().isEmpty());
        }
      }
    }
    if (select instanceof ParenthesedSelect parenthesed) {
      query(parenthesed.getSelect(), named);
    } else if (select instanceof SetOperationList setOperations) {
      // the ORDER BY of a set operation reads the first part's output names
      boolean ordered =
          setOperations.getOrderByElements() != null && !setOperations.getOrderByElements().isEmpty();
      List<Select> parts = setOperations.getSelects();
      for (int k = 0; k < parts.size(); k++) {
        query(parts.get(k), (named || ordered) && k == 0);
      }
    } else if (select instanceof PlainSelect plain) {
      plainSelect(plain, named);
    }
    // JSqlParser reads no nested query in LIMIT itself, only in OFFSET.
    List<Expression> tail = new ArrayList<>();
    if (select.getOrderByElements() != null) {
      select.getOrderByElements().forEach(o -> tail.add(o.getExpression()));
    }
    if (select.getOffset() != null) {
      tail.add(select.getOffset().getOffset());
    }
    tail.forEach(this::nested);
  }

  private void plainSelect(PlainSelect select, boolean named) {
    for (SelectItem<?> item : select.getSelectItems()) {
      if (named && item.getAlias() == null && !(item.getExpression() instanceof AllColumns)) {
        unaliased.add(positions.node(item));
      }
      nested(item.getExpression());
    }
    from(select.getFromItem(), select.getJoins());
    nested(select.getWhere());
    if (select.getGroupBy() != null && select.getGroupBy().getGroupByExpressionList() != null) {
      for (Object expression : select.getGroupBy().getGroupByExpressionList()) {
        nested((Expression) expression);
      }
    }
    nested(select.getHaving());
  }

  private void from(FromItem first, List<Join> joins) {
    fromItem(first);
    if (joins != null) {
      for (Join join : joins) {
        fromItem(join.getRightItem());
        join.getOnExpressions().forEach(this::nested);
      }
    }
  }

  private void fromItem(FromItem item) {
    if (item instanceof ParenthesedSelect query) {
      query(query, true);
    } else if (item instanceof ParenthesedFromItem group) {
      from(group.getFromItem(), group.getJoins());
    }
  }

  /** The queries nested in an expression, whose items are read by position, not by name. */
  private void nested(Expression expression) {
    for (Operand operand : ExpressionOperands.of(expression)) {
      if (operand instanceof Operand.NestedQuery query) {
        query(query.query(), false);
      }
    }
  }
}

package rolepolicy.sql;

import java.util.Locale;
import java.util.Set;
import net.sf.jsqlparser.expression.AnalyticExpression;
import net.sf.jsqlparser.expression.ExpressionVisitorAdapter;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.expression.MySQLGroupConcat;
import net.sf.jsqlparser.statement.select.ParenthesedSelect;
import net.sf.jsqlparser.statement.select.Select;

/**
 * Whether a SELECT item's expression calls an aggregate or window function outside nested queries:
 * wrapping such an item in another aggregate nests them, which SQLite refuses.
 */
final class ItemAggregates extends ExpressionVisitorAdapter<Void> {
  /** SQLite's aggregates beyond Spider's five (which {@link ExpressionOperands} knows). */
  private static final Set<String> OTHER_AGGREGATES =
      Set.of("total", "group_concat", "string_agg", "json_group_array", "json_group_object");

  private boolean found;

  private ItemAggregates() {}

  /** Whether the item text (an expression, without alias) holds an aggregate or window call. */
  static boolean holdsAggregate(String itemText) {
    Select select = SqlAnalyzer.parseSelect("SELECT " + itemText);
    ItemAggregates visitor = new ItemAggregates();
    select.getPlainSelect().getSelectItems().forEach(i -> i.getExpression().accept(visitor, null));
    return visitor.found;
  }

  @Override
  public <S> Void visit(Function function, S context) {
    String name = function.getName() == null ? "" : function.getName().toLowerCase(Locale.ROOT);
    found |= !ExpressionOperands.aggregate(function).none() || OTHER_AGGREGATES.contains(name);
    return super.visit(function, context);
  }

  /** JSqlParser reads {@code group_concat(...)} as MySQL's own form. */
  @Override
  public <S> Void visit(MySQLGroupConcat function, S context) {
    found = true;
    return null;
  }

  @Override
  public <S> Void visit(AnalyticExpression function, S context) {
    found = true;
    return null;
  }

  @Override
  public <S> Void visit(ParenthesedSelect query, S context) {
    return null; // a nested query's aggregates are its own
  }

  @Override
  public <S> Void visit(Select query, S context) {
    return null;
  }
}

package rolepolicy.sql;

import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.statement.select.Select;

/** What an expression holds that the walk cares about, in text order. */
sealed interface Operand {
  /**
   * A column, with the outermost aggregate call around it in the expression.
   *
   * @param aggregate that call (a function, or a window function with OVER or FILTER), or null
   * @param kind its aggregate, or {@link rolepolicy.model.Aggregate#NONE}
   */
  record ColumnUse(Column column, Expression aggregate, rolepolicy.model.Aggregate kind) implements Operand {}

  /** A nested query, walked where it stands. */
  record NestedQuery(Select query) implements Operand {}
}

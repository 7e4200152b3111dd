package rolepolicy.sql;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.ExpressionVisitorAdapter;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.statement.select.ParenthesedSelect;
import net.sf.jsqlparser.statement.select.Select;

/**
 * Lists the columns and nested queries of an expression, left to right. An unqualified
 * double-quoted name is a string literal, as Spider writes them ({@code name = "Bob"}); JSqlParser
 * 5.3 has no option to read it so and gives a quoted column name.
 */
final class ExpressionOperands extends ExpressionVisitorAdapter<Void> {
  /** Spider's aggregate ids (SPEC §2). */
  private static final Map<String, Integer> AGGREGATES =
      Map.of("max", 1, "min", 2, "count", 3, "sum", 4, "avg", 5);

  private final List<Operand> operands = new ArrayList<>();
  private Function aggregate;

  private ExpressionOperands() {}

  static List<Operand> of(Expression expression) {
    ExpressionOperands visitor = new ExpressionOperands();
    if (expression != null) {
      expression.accept(visitor, null);
    }
    return visitor.operands;
  }

  /** The aggregate id of a call, or 0 when it is not one of Spider's aggregates. */
  static int aggregateId(Function function) {
    String name = function.getName() == null ? "" : function.getName().toLowerCase(Locale.ROOT);
    return AGGREGATES.getOrDefault(name, 0);
  }

  static boolean isStringLiteral(Column column) {
    String name = column.getColumnName();
    return column.getTable() == null
        && name.length() >= 2
        && name.startsWith("\"")
        && name.endsWith("\"");
  }

  @Override
  public <S> Void visit(Column column, S context) {
    if (!isStringLiteral(column)) {
      operands.add(
          new Operand.ColumnUse(column, aggregate, aggregate == null ? 0 : aggregateId(aggregate)));
    }
    return null;
  }

  @Override
  public <S> Void visit(Function function, S context) {
    Function outer = aggregate;
    if (outer == null && aggregateId(function) != 0) {
      aggregate = function;
    }
    try {
      return super.visit(function, context);
    } finally {
      aggregate = outer;
    }
  }

  @Override
  public <S> Void visit(ParenthesedSelect query, S context) {
    operands.add(new Operand.NestedQuery(query));
    return null;
  }

  @Override
  public <S> Void visit(Select query, S context) {
    operands.add(new Operand.NestedQuery(query));
    return null;
  }
}

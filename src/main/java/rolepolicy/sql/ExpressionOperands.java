package rolepolicy.sql;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import net.sf.jsqlparser.expression.AnalyticExpression;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.ExpressionVisitorAdapter;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.expression.WindowDefinition;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.statement.select.OrderByElement;
import net.sf.jsqlparser.statement.select.ParenthesedSelect;
import net.sf.jsqlparser.statement.select.Select;

/**
 * Lists the columns and nested queries of an expression, left to right, each column with the
 * outermost of Spider's aggregates around it. A window function's PARTITION BY and ORDER BY are
 * left out (not judged, like GROUP BY and ORDER BY); its arguments and FILTER (WHERE ...) are under
 * it. Whether a bare double-quoted name is a column or a string is for {@link QueryScope} to say.
 */
final class ExpressionOperands extends ExpressionVisitorAdapter<Void> {
  /** Spider's aggregate ids (SPEC §2). */
  private static final Map<String, Integer> AGGREGATES =
      Map.of("max", 1, "min", 2, "count", 3, "sum", 4, "avg", 5);

  private final List<Operand> operands = new ArrayList<>();
  private Expression aggregate;
  private int aggregateId;

  private ExpressionOperands() {}

  static List<Operand> of(Expression expression) {
    ExpressionOperands visitor = new ExpressionOperands();
    if (expression != null) {
      expression.accept(visitor, null);
    }
    return visitor.operands;
  }

  /**
   * The aggregate id of a call, or 0 when it is not one of Spider's aggregates; {@code max} and
   * {@code min} with more than one argument are SQLite's scalar functions, not aggregates.
   */
  static int aggregateId(String name, int arguments) {
    int id = AGGREGATES.getOrDefault(name == null ? "" : name.toLowerCase(Locale.ROOT), 0);
    return (id == 1 || id == 2) && arguments > 1 ? 0 : id;
  }

  static int aggregateId(Function function) {
    int arguments = function.getParameters() == null ? 0 : function.getParameters().size();
    return aggregateId(function.getName(), arguments);
  }

  @Override
  public <S> Void visit(Column column, S context) {
    operands.add(new Operand.ColumnUse(column, aggregate, aggregateId));
    return null;
  }

  @Override
  public <S> Void visit(Function function, S context) {
    Expression outer = aggregate;
    int outerId = aggregateId;
    if (outer == null && aggregateId(function) != 0) {
      aggregate = function;
      aggregateId = aggregateId(function);
    }
    try {
      return super.visit(function, context);
    } finally {
      aggregate = outer;
      aggregateId = outerId;
    }
  }

  /** A window function ({@code OVER}) or an aggregate with {@code FILTER (WHERE ...)}. */
  @Override
  public <S> Void visit(AnalyticExpression function, S context) {
    Expression outer = aggregate;
    int outerId = aggregateId;
    int arguments = function.getExpression() == null ? 0 : 1;
    int id = aggregateId(function.getName(), arguments);
    if (outer == null && id != 0) {
      aggregate = function;
      aggregateId = id;
    }
    try {
      for (Expression argument :
          new Expression[] {
            function.getExpression(),
            function.getOffset(),
            function.getDefaultValue(),
            function.getFilterExpression()
          }) {
        if (argument != null) {
          argument.accept(this, context);
        }
      }
    } finally {
      aggregate = outer;
      aggregateId = outerId;
    }
    rejectNestedQueries(function.getPartitionExpressionList(), function.getOrderByElements());
    return null;
  }

  /** Nested queries in a window's PARTITION BY or ORDER BY are not supported. */
  static void rejectNestedQueries(WindowDefinition window) {
    rejectNestedQueries(window.getPartitionExpressionList(), window.getOrderByElements());
  }

  private static void rejectNestedQueries(
      List<? extends Expression> partitionBy, List<OrderByElement> orderBy) {
    List<Expression> expressions = new ArrayList<>();
    if (partitionBy != null) {
      expressions.addAll(partitionBy);
    }
    if (orderBy != null) {
      orderBy.forEach(o -> expressions.add(o.getExpression()));
    }
    for (Expression expression : expressions) {
      if (of(expression).stream().anyMatch(o -> o instanceof Operand.NestedQuery)) {
        throw new SqlAnalysisException(
            "a nested query in a window's PARTITION BY or ORDER BY is not supported: "
                + SqlAnalysisException.excerpt(expression));
      }
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

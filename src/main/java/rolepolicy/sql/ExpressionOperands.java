package rolepolicy.sql;

import java.util.ArrayList;
import java.util.List;
import rolepolicy.model.Aggregate;
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
  private final List<Operand> operands = new ArrayList<>();
  private Expression aggregate;
  private Aggregate aggregateKind = Aggregate.NONE;

  private ExpressionOperands() {}

  static List<Operand> of(Expression expression) {
    ExpressionOperands visitor = new ExpressionOperands();
    if (expression != null) {
      expression.accept(visitor, null);
    }
    return visitor.operands;
  }

  /**
   * The aggregate of a call, {@link Aggregate#NONE} when it is not one of Spider's aggregates;
   * {@code max} and {@code min} with more than one argument are SQLite's scalar functions.
   */
  static Aggregate aggregate(String name, int arguments) {
    Aggregate named = name == null ? null : Aggregate.named(name);
    if (named == null || (named == Aggregate.MAX || named == Aggregate.MIN) && arguments > 1) {
      return Aggregate.NONE;
    }
    return named;
  }

  static Aggregate aggregate(Function function) {
    int arguments = function.getParameters() == null ? 0 : function.getParameters().size();
    return aggregate(function.getName(), arguments);
  }

  @Override
  public <S> Void visit(Column column, S context) {
    operands.add(new Operand.ColumnUse(column, aggregate, aggregateKind));
    return null;
  }

  @Override
  public <S> Void visit(Function function, S context) {
    Expression outer = aggregate;
    Aggregate outerKind = aggregateKind;
    if (outer == null && !aggregate(function).none()) {
      aggregate = function;
      aggregateKind = aggregate(function);
    }
    try {
      return super.visit(function, context);
    } finally {
      aggregate = outer;
      aggregateKind = outerKind;
    }
  }

  /** A window function ({@code OVER}) or an aggregate with {@code FILTER (WHERE ...)}. */
  @Override
  public <S> Void visit(AnalyticExpression function, S context) {
    Expression outer = aggregate;
    Aggregate outerKind = aggregateKind;
    int arguments = function.getExpression() == null ? 0 : 1;
    Aggregate kind = aggregate(function.getName(), arguments);
    if (outer == null && !kind.none()) {
      aggregate = function;
      aggregateKind = kind;
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
      aggregateKind = outerKind;
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

package rolepolicy.sql;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import rolepolicy.model.Aggregate;
import java.util.Set;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.parser.Token;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.expression.WindowDefinition;
import net.sf.jsqlparser.statement.select.AllColumns;
import net.sf.jsqlparser.statement.select.SetOperation;
import net.sf.jsqlparser.statement.select.Join;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.select.SelectItem;
import net.sf.jsqlparser.statement.select.WithItem;
import rolepolicy.model.Role;
import rolepolicy.spider.Schema;

/**
 * The facts' visitor of the {@link ClauseWalker}: collects a query's column references in the order
 * of SPEC §4 — the query's common table expressions (WITH), SELECT items, JOIN conditions (ON,
 * USING, NATURAL), nested queries of FROM, WHERE, nested queries of GROUP BY, HAVING, ORDER BY and
 * LIMIT, then the set-operation parts.
 */
final class QueryWalker extends ClauseWalker<QueryWalker.In, QueryWalker.Level> {
  /**
   * What a query is walked in.
   *
   * @param predicateRole the role of a query that is a condition operand, else null
   * @param topLevel whether this is the top-level query (its first part, under a set operation)
   * @param outer the scope of the enclosing query, or null
   * @param tables the common tables the query can read
   */
  record In(Role predicateRole, boolean topLevel, QueryScope outer, CommonTables tables) {}

  /** A plain query's scope, and what it was walked in. */
  record Level(QueryScope scope, In in) {}

  private final Schema schema;
  private final TextPositions positions;
  final List<TextRef> refs = new ArrayList<>();
  /** References in GROUP BY, HAVING and ORDER BY, of every query at any depth; they follow {@link #refs}. */
  final List<TextRef> clauseRefs = new ArrayList<>();
  final List<TextTable> fromTables = new ArrayList<>();
  /** The top-level SELECT items, as the negative rules see them. */
  final List<rolepolicy.model.SelectItem> selectItems = new ArrayList<>();
  /** Every schema table the query reads, at any depth, in first-seen order. */
  final Set<String> tables = new java.util.LinkedHashSet<>();
  boolean selectStar;
  /** The schema tables whose every column a {@code *} reads, at any depth, in first-seen order. */
  final Set<String> starTables = new java.util.LinkedHashSet<>();
  boolean setOperation;
  int selectListEnd = -1;

  QueryWalker(Schema schema, TextPositions positions) {
    this.schema = schema;
    this.positions = positions;
  }

  /** Walks one query in {@code new In(predicateRole, topLevel, outer, tables)}. */
  void query(
      Select select, Role predicateRole, boolean topLevel, QueryScope outer, CommonTables tables) {
    query(select, new In(predicateRole, topLevel, outer, tables));
  }

  /**
   * A WITH definition's body, walked as a nested query of FROM (its items produce output). A body
   * can read the definitions before it and itself (WITH RECURSIVE).
   */
  @Override
  protected In commonTable(WithItem<?> item, In in) {
    CommonTables visible =
        in.tables().with(OutputColumns.name(item), OutputColumns.of(item, schema, in.tables(), positions));
    query(item.getSelect(), null, false, in.outer(), visible);
    return new In(in.predicateRole(), in.topLevel(), in.outer(), visible);
  }

  @Override
  protected void setOperation(SetOperation operation, In in) {
    setOperation |= in.topLevel();
  }

  @Override
  protected In part(In in, int k) {
    return new In(in.predicateRole(), in.topLevel() && k == 0, in.outer(), in.tables());
  }

  @Override
  protected Level level(PlainSelect select, In in) {
    QueryScope scope = QueryScope.of(select, schema, in.outer(), in.tables(), positions);
    scope.entries().stream()
        .filter(e -> !e.derived())
        .forEach(e -> this.tables.add(e.schemaTable()));
    if (in.topLevel()) {
      scope.entries().stream()
          .filter(e -> !e.derived())
          .forEach(e -> fromTables.add(new TextTable(e.written(), e.alias(), e.schemaTable())));
    }
    return new Level(scope, in);
  }

  /** The join conditions, then the nested queries of FROM. */
  @Override
  protected void endFrom(PlainSelect select, Level level) {
    QueryScope scope = level.scope();
    scope.aliasesVisible(true);
    for (QueryScope.JoinStep step : scope.joinSteps()) {
      Join join = step.join();
      for (Expression on : join.getOnExpressions()) {
        condition(on, Role.JoinCond, Role.JoinCond, scope);
      }
      if (join.getUsingColumns() != null) {
        for (Column column : join.getUsingColumns()) {
          using(column, step, scope);
        }
      }
      if (join.isNatural()) {
        natural(step, scope);
      }
    }
    scope.aliasesVisible(false);
    for (QueryScope.Entry entry : scope.entries()) {
      if (entry.query() != null) {
        query(entry.query(), null, false, level.in().outer(), level.in().tables());
      }
    }
  }

  @Override
  protected void expression(Clause clause, Expression expression, Level level) {
    QueryScope scope = level.scope();
    switch (clause) {
      case WHERE -> {
        scope.aliasesVisible(true);
        condition(expression, Role.WherePred, Role.WherePred, scope);
        scope.aliasesVisible(false);
      }
      case GROUP_BY -> condition(expression, Role.WherePred, Role.GroupKey, scope);
      case HAVING -> condition(expression, Role.WherePred, Role.HavingPred, scope);
      default -> {} // JOIN conditions: endFrom; the tail: tail; QUALIFY is not SQLite's
    }
  }

  @Override
  protected void windows(List<WindowDefinition> windows, Level level) {
    windows.forEach(ExpressionOperands::rejectNestedQueries);
  }

  /**
   * A plain query's tail reads its own scope; a set operation's or parenthesised query's reads its
   * last part's for ORDER BY, and its nested queries are the enclosing query's.
   */
  @Override
  protected void tail(Select select, In in, Level level) {
    QueryScope orderScope = level == null ? null : level.scope();
    QueryScope scope = select instanceof PlainSelect ? orderScope : in.outer();
    unjudgedTail(select, scope, orderScope, in.tables());
  }

  /**
   * ORDER BY, LIMIT and OFFSET, which feed no result column: their nested queries are walked as
   * condition operands with role WherePred, like those of HAVING; the columns of ORDER BY are
   * OrderKey references, resolved in {@code orderScope} with result aliases visible.
   */
  private void unjudgedTail(Select select, QueryScope scope, QueryScope orderScope, CommonTables tables) {
    List<Expression> tail = new ArrayList<>();
    if (select.getOrderByElements() != null) {
      select.getOrderByElements().forEach(o -> tail.add(o.getExpression()));
      if (orderScope != null) {
        orderScope.aliasesVisible(true);
        for (var order : select.getOrderByElements()) {
          for (Operand operand : ExpressionOperands.of(order.getExpression())) {
            if (operand instanceof Operand.ColumnUse use) {
              try {
                add(use, Role.OrderKey, -1, null, orderScope, true);
              } catch (SqlAnalysisException e) {
                if (orderScope == scope) {
                  throw e;
                }
                // a set operation's ORDER BY may name a result column that the last part's tables do
                // not have: that column's uses are its parts' SELECT items, judged there
              }
            }
          }
        }
        orderScope.aliasesVisible(false);
      }
    }
    if (select.getLimit() != null) {
      tail.add(select.getLimit().getRowCount());
      tail.add(select.getLimit().getOffset());
    }
    if (select.getOffset() != null) {
      tail.add(select.getOffset().getOffset());
    }
    for (Expression expression : tail) {
      for (Operand operand : ExpressionOperands.of(expression)) {
        if (operand instanceof Operand.NestedQuery nested) {
          query(nested.query(), Role.WherePred, false, scope, tables);
        }
      }
    }
  }

  @Override
  protected void selectItem(SelectItem<?> item, int i, Level level) {
    QueryScope scope = level.scope();
    Role predicateRole = level.in().predicateRole();
    boolean topLevel = level.in().topLevel();
    Expression expression = item.getExpression();
    if (topLevel) {
      selectListEnd = positions.node(item).end();
    }
    if (expression instanceof AllColumns all) {
      selectStar = true;
      starTables.addAll(
          scope.starTables(
              all instanceof net.sf.jsqlparser.statement.select.AllTableColumns table
                  ? QueryScope.unquote(table.getTable().getName())
                  : null));
      if (topLevel) {
        selectItems.add(new rolepolicy.model.SelectItem(i, Aggregate.NONE, null, null));
      }
      return;
    }
    int firstRef = refs.size();
    Span itemSpan = withoutAlias(item);
    for (Operand operand : ExpressionOperands.of(expression)) {
      if (operand instanceof Operand.ColumnUse use) {
        Role role =
            !use.kind().none()
                ? Role.AggArg
                : predicateRole != null ? predicateRole : Role.SelectExpr;
        add(use, role, topLevel ? i : -1, itemSpan, scope, true);
      } else if (operand instanceof Operand.NestedQuery nested) {
        query(nested.query(), predicateRole, false, scope, scope.commonTables());
      }
    }
    if (topLevel) {
      selectItems.add(selectItem(i, expression, refs.subList(firstRef, refs.size())));
    }
  }

  /**
   * A top-level SELECT item as the AST walker gives it: the aggregate of the item (or of its first
   * column), and the column key when the item is one column, aggregated or not.
   */
  private static rolepolicy.model.SelectItem selectItem(
      int index, Expression expression, List<TextRef> itemRefs) {
    Expression single = unparenthesised(expression);
    Aggregate aggregate = Aggregate.NONE;
    if (single instanceof net.sf.jsqlparser.expression.Function function
        && !ExpressionOperands.aggregate(function).none()) {
      aggregate = ExpressionOperands.aggregate(function);
      List<?> parameters = function.getParameters();
      single =
          parameters != null && parameters.size() == 1
              ? unparenthesised((Expression) parameters.get(0))
              : null;
    } else if (!itemRefs.isEmpty()) {
      aggregate = itemRefs.get(0).aggregate();
    }
    String column =
        single instanceof Column && itemRefs.size() == 1 ? itemRefs.get(0).column() : null;
    return new rolepolicy.model.SelectItem(index, aggregate, column, null);
  }

  /** The expression inside any parentheses around it: {@code distinct(x)} selects {@code x}. */
  private static Expression unparenthesised(Expression expression) {
    Expression e = expression;
    while (true) {
      if (e instanceof net.sf.jsqlparser.expression.Parenthesis p) {
        e = p.getExpression();
      } else if (e instanceof net.sf.jsqlparser.expression.operators.relational.ParenthesedExpressionList<?> list
          && list.size() == 1) {
        e = list.get(0);
      } else {
        return e;
      }
    }
  }

  /**
   * A condition's columns, in {@code columnRole}, and nested queries, with the predicate role
   * {@code role}, left to right.
   */
  private void condition(Expression condition, Role role, Role columnRole, QueryScope scope) {
    for (Operand operand : ExpressionOperands.of(condition)) {
      if (operand instanceof Operand.ColumnUse use && columnRole.unjudgedInSpec()) {
        scope.aliasesVisible(true); // GROUP BY and HAVING may name a result column
        add(use, columnRole, -1, null, scope, true);
        scope.aliasesVisible(false);
      } else if (operand instanceof Operand.ColumnUse use) {
        add(use, columnRole, -1, null, scope, true);
      } else if (operand instanceof Operand.NestedQuery nested) {
        query(nested.query(), role, false, scope, scope.commonTables());
      }
    }
  }

  /**
   * {@code JOIN t USING (c)}: the column c of the first table before the join that has it and of
   * the joined table, both JoinCond, as {@code left.c = t.c} would give.
   */
  private void using(Column column, QueryScope.JoinStep step, QueryScope scope) {
    String name = QueryScope.unquote(column.getColumnName());
    Span span = positions.node(column);
    String what = "cannot resolve USING column " + name + " at offset " + span.start();
    QueryScope.Resolution left =
        first(step.left(), name, scope)
            .orElseThrow(() -> new SqlAnalysisException(what + ": no table before the JOIN has it"));
    QueryScope.Resolution right =
        first(step.right(), name, scope)
            .orElseThrow(
                () -> new SqlAnalysisException(what + ": the joined table has no such column"));
    addJoinColumn(left, span);
    addJoinColumn(right, span);
  }

  /**
   * {@code NATURAL JOIN t}: every column of t (in t's column order) that a table before the join
   * also has, as if written in USING; the references' spans are the joined table's text.
   */
  private void natural(QueryScope.JoinStep step, QueryScope scope) {
    Span span = positions.node(step.join().getRightItem());
    Set<String> seen = new HashSet<>();
    for (QueryScope.Entry entry : step.right()) {
      for (String name : scope.columnsOf(entry)) {
        if (!seen.add(name.toLowerCase(Locale.ROOT))) {
          continue;
        }
        Optional<QueryScope.Resolution> left = first(step.left(), name, scope);
        if (left.isPresent()) {
          addJoinColumn(left.get(), span);
          addJoinColumn(first(step.right(), name, scope).orElseThrow(), span);
        }
      }
    }
  }

  private static Optional<QueryScope.Resolution> first(
      List<QueryScope.Entry> entries, String name, QueryScope scope) {
    for (QueryScope.Entry entry : entries) {
      Optional<QueryScope.Resolution> found = scope.column(entry, name);
      if (found.isPresent()) {
        return found;
      }
    }
    return Optional.empty();
  }

  private void addJoinColumn(QueryScope.Resolution resolution, Span span) {
    if (resolution instanceof QueryScope.Base base) {
      refs.add(
          new TextRef(
              base.column(), base.qualifier(), Role.JoinCond, Aggregate.NONE, -1, span, span, null, null));
    }
  }

  /**
   * Adds the reference a column use resolves to: a schema column is one reference; an output column
   * of a derived or common table, a row id or a string is none; a visible result column alias
   * stands for the columns and nested queries of its item, which take the role.
   *
   * @param aliases false inside an alias's own expression, where no alias is read
   */
  private void add(
      Operand.ColumnUse use,
      Role role,
      int selectItem,
      Span itemSpan,
      QueryScope scope,
      boolean aliases) {
    QueryScope.Resolution resolution = scope.resolve(use.column(), aliases);
    if (resolution instanceof QueryScope.Alias alias) {
      QueryScope owner = alias.owner();
      for (Operand operand : ExpressionOperands.of(alias.item().getExpression())) {
        if (operand instanceof Operand.ColumnUse inner) {
          add(inner, role, -1, null, owner, false);
        } else if (operand instanceof Operand.NestedQuery nested && !role.unjudgedInSpec()) {
          query(nested.query(), role, false, owner, owner.commonTables());
        }
      }
      return;
    }
    if (!(resolution instanceof QueryScope.Base base)) {
      return;
    }
    Span columnSpan = positions.node(use.column());
    Span nameSpan = positions.token(use.column().getASTNode().jjtGetLastToken());
    Span aggregateSpan = use.aggregate() == null ? null : positions.node(use.aggregate());
    (role.unjudgedInSpec() ? clauseRefs : refs).add(
        new TextRef(
            base.column(),
            base.qualifier(),
            role,
            use.kind(),
            selectItem,
            columnSpan,
            nameSpan,
            itemSpan,
            aggregateSpan));
  }

  /** The SELECT item's text without its alias ({@code AS x} or {@code x}). */
  private Span withoutAlias(SelectItem<?> item) {
    Span whole = positions.node(item);
    if (item.getAlias() == null) {
      return whole;
    }
    List<Token> tokens = new ArrayList<>();
    Token last = item.getASTNode().jjtGetLastToken();
    for (Token t = item.getASTNode().jjtGetFirstToken(); t != null; t = t.next) {
      tokens.add(t);
      if (t == last) {
        break;
      }
    }
    int end = tokens.size() - 1; // the alias name
    if (end > 0 && tokens.get(end - 1).image.equalsIgnoreCase("AS")) {
      end--;
    }
    if (end < 1) {
      throw new SqlAnalysisException(
          "cannot find the expression of SELECT item " + SqlAnalysisException.excerpt(item));
    }
    return positions.between(tokens.get(0), tokens.get(end - 1));
  }
}

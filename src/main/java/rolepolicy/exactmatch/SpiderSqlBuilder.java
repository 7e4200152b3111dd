package rolepolicy.exactmatch;

import static rolepolicy.exactmatch.SpiderSqlException.beyond;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import net.sf.jsqlparser.expression.AnalyticExpression;
import net.sf.jsqlparser.expression.AnyComparisonExpression;
import net.sf.jsqlparser.expression.BinaryExpression;
import net.sf.jsqlparser.expression.CaseExpression;
import net.sf.jsqlparser.expression.CastExpression;
import net.sf.jsqlparser.expression.DoubleValue;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.expression.LongValue;
import net.sf.jsqlparser.expression.NotExpression;
import net.sf.jsqlparser.expression.NullValue;
import net.sf.jsqlparser.expression.SignedExpression;
import net.sf.jsqlparser.expression.StringValue;
import net.sf.jsqlparser.expression.operators.arithmetic.Addition;
import net.sf.jsqlparser.expression.operators.arithmetic.Concat;
import net.sf.jsqlparser.expression.operators.arithmetic.Division;
import net.sf.jsqlparser.expression.operators.arithmetic.Multiplication;
import net.sf.jsqlparser.expression.operators.arithmetic.Subtraction;
import net.sf.jsqlparser.expression.operators.conditional.AndExpression;
import net.sf.jsqlparser.expression.operators.conditional.OrExpression;
import net.sf.jsqlparser.expression.operators.relational.Between;
import net.sf.jsqlparser.expression.operators.relational.EqualsTo;
import net.sf.jsqlparser.expression.operators.relational.ExistsExpression;
import net.sf.jsqlparser.expression.operators.relational.GreaterThan;
import net.sf.jsqlparser.expression.operators.relational.GreaterThanEquals;
import net.sf.jsqlparser.expression.operators.relational.InExpression;
import net.sf.jsqlparser.expression.operators.relational.IsNullExpression;
import net.sf.jsqlparser.expression.operators.relational.LikeExpression;
import net.sf.jsqlparser.expression.operators.relational.MinorThan;
import net.sf.jsqlparser.expression.operators.relational.MinorThanEquals;
import net.sf.jsqlparser.expression.operators.relational.NotEqualsTo;
import net.sf.jsqlparser.expression.operators.relational.ParenthesedExpressionList;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.select.AllColumns;
import net.sf.jsqlparser.statement.select.AllTableColumns;
import net.sf.jsqlparser.statement.select.ExceptOp;
import net.sf.jsqlparser.statement.select.FromItem;
import net.sf.jsqlparser.statement.select.GroupByElement;
import net.sf.jsqlparser.statement.select.IntersectOp;
import net.sf.jsqlparser.statement.select.Join;
import net.sf.jsqlparser.statement.select.Limit;
import net.sf.jsqlparser.statement.select.OrderByElement;
import net.sf.jsqlparser.statement.select.ParenthesedSelect;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.select.SetOperation;
import net.sf.jsqlparser.statement.select.SetOperationList;
import net.sf.jsqlparser.statement.select.UnionOp;
import rolepolicy.exactmatch.SpiderSql.ColUnit;
import rolepolicy.exactmatch.SpiderSql.CondUnit;
import rolepolicy.exactmatch.SpiderSql.Condition;
import rolepolicy.exactmatch.SpiderSql.Literal;
import rolepolicy.exactmatch.SpiderSql.OrderBy;
import rolepolicy.exactmatch.SpiderSql.SelectItem;
import rolepolicy.exactmatch.SpiderSql.TableUnit;
import rolepolicy.exactmatch.SpiderSql.ValUnit;
import rolepolicy.exactmatch.SpiderSql.Value;
import rolepolicy.model.SchemaColumn;
import rolepolicy.spider.Schema;
import net.sf.jsqlparser.statement.select.WithItem;
import rolepolicy.sql.ClauseWalker;
import rolepolicy.sql.SqlAnalysisException;
import rolepolicy.sql.SqlAnalyzer;

/**
 * Builds {@link SpiderSql} from the parse tree of {@link SqlAnalyzer#parseSelect}, resolving names
 * against the schema as Spider's {@code process_sql.py} does: a qualified column through its
 * table's alias or name, an unqualified one to the first FROM table that has it. Decisions where
 * this reads more or less than {@code process_sql.py}: docs/decisions.md, "Exact set match".
 */
final class SpiderSqlBuilder extends ClauseWalker<SpiderSqlBuilder.In, SpiderSqlBuilder.Scope> {
  private final Schema schema;

  /** What the last query walked was built to. */
  private SpiderSql built;

  private SpiderSqlBuilder(Schema schema) {
    this.schema = schema;
  }

  static SpiderSql build(String sql, Schema schema) {
    return build(sql, schema, true);
  }

  /** As {@link #build(String, Schema)}; without {@code fastPath}, from JSqlParser's parse only. */
  static SpiderSql build(String sql, Schema schema, boolean fastPath) {
    if (sql == null || sql.isBlank()) {
      throw new SpiderSqlException("empty SQL text");
    }
    if (hasWord(sql, "GLOB")) { // the parse reads GLOB as LIKE (SqliteOperators)
      throw beyond("GLOB");
    }
    Select select;
    try {
      select = fastPath ? SqlAnalyzer.parseSelectFastFirst(sql) : SqlAnalyzer.parseSelect(sql);
    } catch (SqlAnalysisException e) {
      throw new SpiderSqlException(e.getMessage());
    }
    return new SpiderSqlBuilder(schema).build(select, (Scope) null);
  }

  /**
   * What a query is built in.
   *
   * @param outer the level around it (a correlated query's), or null
   * @param tail the ORDER BY and LIMIT of a set operation, for its last part; null for a query's own
   */
  record In(Scope outer, Tail tail) {}

  record Tail(List<OrderByElement> orderBy, Limit limit) {}

  /** One query level: its FROM entries, the level around it, and its parts as they are built. */
  static final class Scope {
    final Scope outer;
    final List<Entry> entries = new ArrayList<>();
    /** SELECT item aliases, visible in GROUP BY, HAVING and ORDER BY; null before those. */
    Map<String, SelectItem> aliases;

    final Map<String, SelectItem> itemAliases = new HashMap<>();
    final List<TableUnit> tables = new ArrayList<>();
    Condition joinConditions;
    final List<SelectItem> items = new ArrayList<>();
    Condition where = Condition.NONE;
    List<ColUnit> groupBy = List.of();
    Condition having = Condition.NONE;
    OrderBy orderBy;
    Integer limit;

    Scope(Scope outer) {
      this.outer = outer;
    }

    /** From GROUP BY on, a name may be a SELECT item's alias. */
    void aliasesVisible() {
      if (aliases == null) {
        aliases = itemAliases;
      }
    }
  }

  /**
   * One FROM entry: its alias (or name) and table, lower-cased; table -1 for a nested query.
   */
  private record Entry(String alias, String name, int table) {}

  /** Builds a query read in {@code outer}. */
  private SpiderSql build(Select select, Scope outer) {
    return build(select, new In(outer, null));
  }

  private SpiderSql build(Select select, In in) {
    query(select, in);
    return built;
  }

  @Override
  protected In commonTables(List<WithItem<?>> items, In in) {
    throw beyond("WITH");
  }

  @Override
  protected void otherQuery(Select select, In in) {
    throw beyond(select.getClass().getSimpleName());
  }

  @Override
  protected void parenthesed(ParenthesedSelect parenthesed, In in) {
    if (hasTail(parenthesed)) {
      throw beyond("ORDER BY or LIMIT outside a parenthesised query");
    }
    built = build(parenthesed.getSelect(), in.outer());
  }

  private static boolean hasTail(Select select) {
    return (select.getOrderByElements() != null && !select.getOrderByElements().isEmpty())
        || select.getLimit() != null
        || select.getOffset() != null
        || select.getFetch() != null;
  }

  /**
   * {@code A op1 B op2 C}: Spider nests the rest of the chain under the first part (A.op1 = B, with
   * B.op2 = C); an ORDER BY or LIMIT after the chain belongs to its last part.
   */
  @Override
  protected void setOperations(SetOperationList list, In in) {
    Scope outer = in.outer();
    if (list.getOffset() != null || list.getFetch() != null
        || (list.getLimit() != null && list.getLimit().getOffset() != null)) {
      throw beyond("OFFSET / FETCH");
    }
    List<Select> parts = list.getSelects();
    int last = parts.size() - 1;
    SpiderSql chain = part(parts.get(last), outer, list.getOrderByElements(), list.getLimit());
    for (int i = last - 1; i >= 0; i--) {
      chain = part(parts.get(i), outer, null, null).withSetOperation(operation(list.getOperations().get(i)), chain);
    }
    built = chain;
  }

  private SpiderSql part(Select select, Scope outer, List<OrderByElement> orderBy, Limit limit) {
    boolean tail = (orderBy != null && !orderBy.isEmpty()) || limit != null;
    Select inner = select;
    if (select instanceof ParenthesedSelect parenthesed) {
      if (select.getWithItemsList() != null && !select.getWithItemsList().isEmpty()) {
        throw beyond("WITH");
      }
      inner = parenthesed.getSelect();
      if (hasTail(parenthesed)) {
        throw beyond("ORDER BY or LIMIT outside a parenthesised query");
      }
    }
    if (!(inner instanceof PlainSelect plain)) {
      throw beyond("a parenthesised set operation inside a set operation");
    }
    if (plain.getWithItemsList() != null && !plain.getWithItemsList().isEmpty()) {
      throw beyond("WITH");
    }
    if (tail && hasTail(plain)) {
      throw beyond("two ORDER BY or LIMIT clauses on one query");
    }
    return build(plain, new In(outer, tail ? new Tail(orderBy, limit) : null));
  }

  private static String operation(SetOperation operation) {
    if (operation instanceof UnionOp union) {
      if (union.isAll()) {
        throw beyond("UNION ALL");
      }
      return "union";
    }
    if (operation instanceof IntersectOp intersect) {
      if (intersect.isAll()) {
        throw beyond("INTERSECT ALL");
      }
      return "intersect";
    }
    if (operation instanceof ExceptOp except) {
      if (except.isAll()) {
        throw beyond("EXCEPT ALL");
      }
      return "except";
    }
    throw beyond(operation.toString());
  }

  /** A plain query's FROM clause, its join conditions included, before its items read it. */
  @Override
  protected Scope level(PlainSelect select, In in) {
    unsupportedClauses(select);
    if (select.getFromItem() == null) {
      throw beyond("SELECT without FROM");
    }
    Scope scope = new Scope(in.outer());
    scope.tables.add(tableUnit(select.getFromItem(), scope));
    List<Expression> on = new ArrayList<>();
    if (select.getJoins() != null) {
      for (Join join : select.getJoins()) {
        checkJoin(join);
        scope.tables.add(tableUnit(join.getRightItem(), scope));
        on.addAll(join.getOnExpressions());
      }
    }
    Conditions joinConditions = new Conditions();
    for (Expression expression : on) {
      if (!joinConditions.units.isEmpty()) {
        joinConditions.connectors.add("and");
      }
      flatten(expression, scope, joinConditions);
    }
    scope.joinConditions = joinConditions.build();
    return scope;
  }

  @Override
  protected void selectItem(net.sf.jsqlparser.statement.select.SelectItem<?> item, int index, Scope scope) {
    SelectItem built = selectItem(item.getExpression(), scope);
    scope.items.add(built);
    if (item.getAlias() != null) {
      scope.itemAliases.putIfAbsent(lower(unquote(item.getAlias().getName())), built);
    }
  }

  /** FROM and JOIN were read with the level. */
  @Override
  protected void fromItem(FromItem item, Scope scope) {}

  @Override
  protected void join(Join join, Scope scope) {}

  @Override
  protected void expression(Clause clause, Expression expression, Scope scope) {
    if (clause == Clause.WHERE) {
      scope.where = condition(expression, scope);
    } else if (clause == Clause.HAVING) {
      scope.aliasesVisible();
      scope.having = condition(expression, scope);
    }
  }

  @Override
  protected void groupBy(GroupByElement groupBy, Scope scope) {
    scope.aliasesVisible();
    scope.groupBy = groupUnits(groupBy, scope);
  }

  /** ORDER BY and LIMIT: the query's own, or for a set operation's last part, the operation's. */
  @Override
  protected void tail(Select select, In in, Scope scope) {
    scope.aliasesVisible();
    Tail tail = in.tail() != null ? in.tail() : new Tail(select.getOrderByElements(), select.getLimit());
    scope.orderBy = orderUnits(tail.orderBy(), scope);
    scope.limit = limit(tail.limit());
  }

  @Override
  protected void endLevel(PlainSelect select, Scope scope) {
    built = new SpiderSql(
        select.getDistinct() != null,
        List.copyOf(scope.items),
        List.copyOf(scope.tables),
        scope.joinConditions,
        scope.where,
        scope.groupBy,
        scope.having,
        scope.orderBy,
        scope.limit,
        null,
        null,
        null);
  }

  private static void unsupportedClauses(PlainSelect select) {
    if (select.getDistinct() != null
        && (select.getDistinct().getOnSelectItems() != null || select.getDistinct().isUseUnique())) {
      throw beyond("DISTINCT ON / UNIQUE");
    }
    if (select.getOffset() != null || select.getFetch() != null) {
      throw beyond("OFFSET / FETCH");
    }
    if (select.getWindowDefinitions() != null && !select.getWindowDefinitions().isEmpty()) {
      throw beyond("window function");
    }
    if (select.getTop() != null || select.getIntoTables() != null || select.getQualify() != null
        || select.getLateralViews() != null || select.getOracleHierarchical() != null) {
      throw beyond("a clause of another SQL dialect");
    }
  }

  private static void checkJoin(Join join) {
    String kind =
        join.isLeft() ? "LEFT JOIN"
            : join.isRight() ? "RIGHT JOIN"
            : join.isFull() ? "FULL JOIN"
            : join.isOuter() ? "OUTER JOIN"
            : join.isNatural() ? "NATURAL JOIN"
            : join.isCross() ? "CROSS JOIN"
            : join.isSemi() || join.isStraight() || join.isApply() || join.isWindowJoin() ? join.toString().strip()
            : null;
    if (kind != null) {
      throw beyond(kind);
    }
    if (join.getUsingColumns() != null && !join.getUsingColumns().isEmpty()) {
      throw beyond("JOIN ... USING");
    }
  }

  private TableUnit tableUnit(FromItem item, Scope scope) {
    String alias = item.getAlias() == null ? null : lower(unquote(item.getAlias().getName()));
    if (item instanceof Table table) {
      if (table.getSchemaName() != null) {
        throw new SpiderSqlException("unknown table " + table.getFullyQualifiedName());
      }
      String written = unquote(table.getName());
      String name = schema.tableNamed(written)
          .orElseThrow(() -> new SpiderSqlException("unknown table " + written));
      int index = schema.tables().indexOf(name);
      scope.entries.add(new Entry(alias, lower(name), index));
      return new TableUnit(index, null);
    }
    if (item instanceof ParenthesedSelect nested) {
      SpiderSql query = build(nested, scope.outer);
      scope.entries.add(new Entry(alias, null, -1));
      return new TableUnit(null, query);
    }
    throw beyond("FROM " + item.getClass().getSimpleName());
  }

  private SelectItem selectItem(Expression expression, Scope scope) {
    if (expression instanceof AllTableColumns) {
      throw beyond("T.* in SELECT");
    }
    if (expression instanceof AllColumns) {
      return new SelectItem(0, new ValUnit(0, new ColUnit(0, 0, false), null));
    }
    Expression unwrapped = unwrap(expression);
    int agg = aggregate(unwrapped);
    if (agg == 0) {
      return new SelectItem(0, valUnit(unwrapped, scope));
    }
    Function function = (Function) unwrapped;
    Expression argument = function.getParameters().get(0);
    if (function.isDistinct() || argument instanceof AllColumns) {
      // count(DISTINCT x) and count(*): the column unit carries DISTINCT, the item the aggregate
      return new SelectItem(agg, new ValUnit(0, column(argument, scope, function.isDistinct()), null));
    }
    return new SelectItem(agg, valUnit(argument, scope));
  }

  /** A val_unit: one column unit, or two joined by {@code - + * /}. */
  private ValUnit valUnit(Expression expression, Scope scope) {
    Expression e = unwrap(expression);
    int op = unitOp(e);
    if (op != 0) {
      BinaryExpression binary = (BinaryExpression) e;
      return new ValUnit(op, colUnit(binary.getLeftExpression(), scope), colUnit(binary.getRightExpression(), scope));
    }
    if (e instanceof Column column && scope.aliases != null) {
      SelectItem item = alias(column, scope);
      if (item != null) {
        return aliasValUnit(item);
      }
    }
    return new ValUnit(0, colUnit(e, scope), null);
  }

  private static int unitOp(Expression e) {
    return e instanceof Subtraction ? 1
        : e instanceof Addition ? 2
        : e instanceof Multiplication ? 3
        : e instanceof Division ? 4
        : 0;
  }

  /** A col_unit: a column, {@code *}, or an aggregate of one ({@code count(DISTINCT x)}). */
  private ColUnit colUnit(Expression expression, Scope scope) {
    Expression e = unwrap(expression);
    int agg = aggregate(e);
    if (agg != 0) {
      Function function = (Function) e;
      return new ColUnit(agg, column(function.getParameters().get(0), scope, function.isDistinct()).column(), function.isDistinct());
    }
    if (unitOp(e) != 0) {
      throw beyond("arithmetic on more than two operands");
    }
    if (e instanceof Column column && scope.aliases != null) {
      SelectItem item = alias(column, scope);
      if (item != null) {
        ValUnit value = aliasValUnit(item);
        if (value.op() != 0) {
          throw beyond("arithmetic on more than two operands");
        }
        return value.left();
      }
    }
    return column(e, scope, false);
  }

  /** A plain column or {@code *}, as an aggregate's argument or on its own. */
  private ColUnit column(Expression expression, Scope scope, boolean distinct) {
    Expression e = unwrap(expression);
    if (e instanceof AllTableColumns) {
      throw beyond("T.* in an aggregate");
    }
    if (e instanceof AllColumns) {
      return new ColUnit(0, 0, distinct);
    }
    if (e instanceof Column column) {
      Integer index = resolve(column, scope);
      if (index == null) {
        throw new SpiderSqlException("unknown column " + column.getFullyQualifiedName());
      }
      return new ColUnit(0, index, distinct);
    }
    if (aggregate(e) != 0) {
      throw beyond("an aggregate inside an aggregate");
    }
    throw beyond(describe(e));
  }

  /**
   * Spider's aggregate id of an aggregate call of one argument, else 0. Any other function, a
   * window or a FILTER is beyond the grammar.
   */
  private static int aggregate(Expression e) {
    if (e instanceof AnalyticExpression) {
      throw beyond("window function");
    }
    if (!(e instanceof Function function)) {
      return 0;
    }
    String name = lower(function.getName());
    rolepolicy.model.Aggregate aggregate = rolepolicy.model.Aggregate.named(name);
    int agg = aggregate == null ? 0 : aggregate.id();
    if (agg <= 0) {
      throw beyond("function " + name + "()");
    }
    if (function.getParameters() == null || function.getParameters().size() != 1
        || function.getNamedParameters() != null || function.getOrderByElements() != null
        || function.getKeep() != null || function.getHavingClause() != null
        || function.getNullHandling() != null || function.getLimit() != null
        || function.getAttribute() != null || function.isUnique()) {
      throw beyond(name + "() with other than one argument");
    }
    return agg;
  }

  /** A SELECT item alias named in GROUP BY, HAVING or ORDER BY, when no FROM column has the name. */
  private SelectItem alias(Column column, Scope scope) {
    if (column.getTable() != null && column.getTable().getName() != null) {
      return null;
    }
    if (resolve(column, scope) != null) {
      return null;
    }
    return scope.aliases.get(lower(unquote(column.getColumnName())));
  }

  /** An aliased item's value where a val_unit stands: its aggregate moves to its column unit. */
  private static ValUnit aliasValUnit(SelectItem item) {
    ValUnit value = item.value();
    if (item.agg() == 0) {
      return value;
    }
    if (value.op() != 0 || value.left().agg() != 0) {
      throw beyond("an alias of an aggregate of an expression");
    }
    ColUnit col = value.left();
    return new ValUnit(0, new ColUnit(item.agg(), col.column(), col.distinct()), null);
  }

  /**
   * The column index a name stands for: a qualified name through its table's alias or name (this
   * level, then the levels around it); an unqualified one in the first FROM table that has it,
   * this level first. Null for an unqualified name no table has.
   */
  private Integer resolve(Column column, Scope scope) {
    String name = unquote(column.getColumnName());
    Table table = column.getTable();
    if (table != null && table.getName() != null) {
      if (table.getSchemaName() != null) {
        throw new SpiderSqlException("unknown column " + column.getFullyQualifiedName());
      }
      String qualifier = lower(unquote(table.getName()));
      for (Scope s = scope; s != null; s = s.outer) {
        Entry entry = entry(s, qualifier);
        if (entry != null) {
          if (entry.table() < 0) {
            throw beyond("a column of a FROM subquery");
          }
          return columnOf(entry, name)
              .orElseThrow(() -> new SpiderSqlException("unknown column " + column.getFullyQualifiedName()));
        }
      }
      throw new SpiderSqlException("unknown table or alias " + unquote(table.getName()));
    }
    for (Scope s = scope; s != null; s = s.outer) {
      boolean derived = false;
      for (Entry entry : s.entries) {
        if (entry.table() < 0) {
          derived = true;
          continue;
        }
        var found = columnOf(entry, name);
        if (found.isPresent()) {
          return found.get();
        }
      }
      if (derived) {
        throw beyond("a column of a FROM subquery");
      }
    }
    return null;
  }

  private static Entry entry(Scope scope, String qualifier) {
    for (Entry entry : scope.entries) {
      if (qualifier.equals(entry.alias())) {
        return entry;
      }
    }
    for (Entry entry : scope.entries) {
      if (qualifier.equals(entry.name())) {
        return entry;
      }
    }
    return null;
  }

  private java.util.Optional<Integer> columnOf(Entry entry, String name) {
    return schema.columnByKey(schema.tables().get(entry.table()) + "." + name).map(SchemaColumn::index);
  }

  /** Conditions being collected: units and the connectors between them. */
  private static final class Conditions {
    final List<CondUnit> units = new ArrayList<>();
    final List<String> connectors = new ArrayList<>();

    Condition build() {
      return units.isEmpty() ? Condition.NONE : new Condition(List.copyOf(units), List.copyOf(connectors));
    }
  }

  private Condition condition(Expression expression, Scope scope) {
    if (expression == null) {
      return Condition.NONE;
    }
    Conditions conditions = new Conditions();
    flatten(expression, scope, conditions);
    return conditions.build();
  }

  /**
   * A condition as Spider's flat list, in text order. JSqlParser reads {@code x IN (…) AND y = 1}
   * as an IN whose right operand is {@code (…) AND y = 1}: its first operand is the IN's, the rest
   * goes on the list.
   */
  private void flatten(Expression expression, Scope scope, Conditions out) {
    if (expression instanceof AndExpression || expression instanceof OrExpression) {
      BinaryExpression binary = (BinaryExpression) expression;
      flatten(binary.getLeftExpression(), scope, out);
      out.connectors.add(expression instanceof AndExpression ? "and" : "or");
      flatten(binary.getRightExpression(), scope, out);
      return;
    }
    if (expression instanceof InExpression in
        && (in.getRightExpression() instanceof AndExpression || in.getRightExpression() instanceof OrExpression)) {
      List<Expression> operands = new ArrayList<>();
      List<String> connectors = new ArrayList<>();
      split(in.getRightExpression(), operands, connectors);
      out.units.add(new CondUnit(in.isNot(), SpiderSql.IN, valUnit(in.getLeftExpression(), scope),
          inValue(operands.get(0), scope), null));
      for (int i = 1; i < operands.size(); i++) {
        out.connectors.add(connectors.get(i - 1));
        flatten(operands.get(i), scope, out);
      }
      return;
    }
    out.units.add(condUnit(expression, scope));
  }

  private static void split(Expression expression, List<Expression> operands, List<String> connectors) {
    if (expression instanceof AndExpression || expression instanceof OrExpression) {
      BinaryExpression binary = (BinaryExpression) expression;
      split(binary.getLeftExpression(), operands, connectors);
      connectors.add(expression instanceof AndExpression ? "and" : "or");
      split(binary.getRightExpression(), operands, connectors);
    } else {
      operands.add(expression);
    }
  }

  private CondUnit condUnit(Expression e, Scope scope) {
    int op = comparison(e);
    if (op != 0) {
      BinaryExpression binary = (BinaryExpression) e;
      return new CondUnit(false, op, valUnit(binary.getLeftExpression(), scope), value(binary.getRightExpression(), scope), null);
    }
    if (e instanceof Between between) {
      return new CondUnit(between.isNot(), SpiderSql.BETWEEN, valUnit(between.getLeftExpression(), scope),
          value(between.getBetweenExpressionStart(), scope), value(between.getBetweenExpressionEnd(), scope));
    }
    if (e instanceof InExpression in) {
      return new CondUnit(in.isNot(), SpiderSql.IN, valUnit(in.getLeftExpression(), scope), inValue(in.getRightExpression(), scope), null);
    }
    if (e instanceof LikeExpression like) {
      if (like.getLikeKeyWord() != LikeExpression.KeyWord.LIKE) {
        throw beyond(like.getLikeKeyWord().toString());
      }
      if (like.getEscape() != null) {
        throw beyond("LIKE ... ESCAPE");
      }
      return new CondUnit(like.isNot(), SpiderSql.LIKE, valUnit(like.getLeftExpression(), scope), value(like.getRightExpression(), scope), null);
    }
    if (e instanceof IsNullExpression isNull) {
      return new CondUnit(isNull.isNot(), SpiderSql.IS, valUnit(isNull.getLeftExpression(), scope), Literal.NULL, null);
    }
    throw beyond(describe(e));
  }

  /** Spider's op id of a comparison, else 0. */
  private static int comparison(Expression e) {
    return e instanceof EqualsTo ? 2
        : e instanceof GreaterThan ? 3
        : e instanceof MinorThan ? 4
        : e instanceof GreaterThanEquals ? 5
        : e instanceof MinorThanEquals ? 6
        : e instanceof NotEqualsTo ? 7
        : 0;
  }

  /** The right operand of IN: a query, or a list of literals. */
  private Value inValue(Expression expression, Scope scope) {
    if (expression instanceof ParenthesedExpressionList<?> list && list.size() != 1) {
      List<Object> values = new ArrayList<>();
      for (Expression item : list) {
        if (!(value(item, scope) instanceof Literal literal)) {
          throw beyond("IN with a list of other than values");
        }
        values.add(literal.value());
      }
      return new Literal(List.copyOf(values));
    }
    return value(expression, scope);
  }

  /**
   * What a condition compares with: a nested query, a number, a string ({@code "x"} too, as Spider
   * reads it), NULL, or a column unit.
   */
  private Value value(Expression expression, Scope scope) {
    Expression e = unwrap(expression);
    if (e instanceof ParenthesedSelect nested) {
      return new SpiderSql.Nested(build(nested, scope));
    }
    if (e instanceof LongValue || e instanceof DoubleValue) {
      return new Literal(number(e));
    }
    if (e instanceof SignedExpression signed && (unwrap(signed.getExpression()) instanceof LongValue
        || unwrap(signed.getExpression()) instanceof DoubleValue)) {
      double number = number(unwrap(signed.getExpression()));
      return new Literal(signed.getSign() == '-' ? -number : number);
    }
    if (e instanceof StringValue string) {
      return new Literal(string.getValue().replace("''", "'"));
    }
    if (e instanceof NullValue) {
      return Literal.NULL;
    }
    if (e instanceof Column column && column.getTable() == null && column.getColumnName().startsWith("\"")) {
      return new Literal(unquote(column.getColumnName()));
    }
    if (unitOp(e) != 0) {
      throw beyond("arithmetic in a value");
    }
    return colUnit(e, scope);
  }

  private static double number(Expression e) {
    return e instanceof LongValue l ? l.getValue() : ((DoubleValue) e).getValue();
  }

  private List<ColUnit> groupUnits(GroupByElement groupBy, Scope scope) {
    if (groupBy == null) {
      return List.of();
    }
    if (groupBy.getGroupingSets() != null && !groupBy.getGroupingSets().isEmpty()) {
      throw beyond("GROUPING SETS");
    }
    List<ColUnit> units = new ArrayList<>();
    if (groupBy.getGroupByExpressionList() != null) {
      for (Object expression : groupBy.getGroupByExpressionList()) {
        if (expression instanceof LongValue) {
          throw beyond("GROUP BY a column position");
        }
        units.add(colUnit((Expression) expression, scope));
      }
    }
    return List.copyOf(units);
  }

  private OrderBy orderUnits(List<OrderByElement> elements, Scope scope) {
    if (elements == null || elements.isEmpty()) {
      return null;
    }
    String direction = "asc";
    List<ValUnit> items = new ArrayList<>();
    for (OrderByElement element : elements) {
      if (element.getNullOrdering() != null) {
        throw beyond("NULLS FIRST / LAST");
      }
      if (element.getExpression() instanceof LongValue) {
        throw beyond("ORDER BY a column position");
      }
      items.add(valUnit(element.getExpression(), scope));
      if (element.isAscDescPresent()) {
        direction = element.isAsc() ? "asc" : "desc";
      }
    }
    return new OrderBy(direction, List.copyOf(items));
  }

  private static Integer limit(Limit limit) {
    if (limit == null) {
      return null;
    }
    if (limit.getOffset() != null) {
      throw beyond("OFFSET / FETCH");
    }
    if (!(limit.getRowCount() instanceof LongValue count)) {
      throw beyond("LIMIT of other than a number");
    }
    return (int) count.getValue();
  }

  /** A single parenthesised expression's content; anything else as it is. */
  private static Expression unwrap(Expression e) {
    Expression inner = e;
    while (inner instanceof ParenthesedExpressionList<?> list && list.size() == 1) {
      inner = list.get(0);
    }
    return inner;
  }

  /** What a construct beyond Spider's grammar is called in a reason. */
  private static String describe(Expression e) {
    if (e instanceof CaseExpression) {
      return "CASE";
    }
    if (e instanceof CastExpression) {
      return "CAST";
    }
    if (e instanceof ExistsExpression) {
      return "EXISTS";
    }
    if (e instanceof ParenthesedSelect) {
      return "a nested query outside FROM and conditions";
    }
    if (e instanceof NotExpression) {
      return "NOT before a condition";
    }
    if (e instanceof ParenthesedExpressionList) {
      return "a parenthesised condition or list";
    }
    if (e instanceof Concat) {
      return "||";
    }
    if (e instanceof AnyComparisonExpression) {
      return "ANY / ALL";
    }
    if (e instanceof AndExpression || e instanceof OrExpression) {
      return "AND / OR inside an expression";
    }
    if (comparison(e) != 0 || e instanceof Between || e instanceof InExpression
        || e instanceof LikeExpression || e instanceof IsNullExpression) {
      return "a condition inside an expression";
    }
    if (e instanceof LongValue || e instanceof DoubleValue || e instanceof StringValue
        || e instanceof NullValue || e instanceof SignedExpression) {
      return "a value where Spider has a column";
    }
    return e.getClass().getSimpleName();
  }

  private static String unquote(String name) {
    if (name.length() >= 2
        && ((name.startsWith("\"") && name.endsWith("\""))
            || (name.startsWith("`") && name.endsWith("`"))
            || (name.startsWith("[") && name.endsWith("]")))) {
      return name.substring(1, name.length() - 1);
    }
    return name;
  }

  private static String lower(String text) {
    return text.toLowerCase(Locale.ROOT);
  }

  /** Whether a word occurs in the text outside quoted strings and names. */
  static boolean hasWord(String text, String word) {
    int i = 0;
    int n = text.length();
    while (i < n) {
      char c = text.charAt(i);
      if (c == '\'' || c == '"' || c == '`' || c == '[') {
        char close = c == '[' ? ']' : c;
        int end = text.indexOf(close, i + 1);
        i = end < 0 ? n : end + 1;
      } else if (Character.isLetterOrDigit(c) || c == '_') {
        int start = i;
        while (i < n && (Character.isLetterOrDigit(text.charAt(i)) || text.charAt(i) == '_')) {
          i++;
        }
        if (text.regionMatches(true, start, word, 0, word.length()) && i - start == word.length()) {
          return true;
        }
      } else {
        i++;
      }
    }
    return false;
  }
}

package rolepolicy.skeleton;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.EnumSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import net.sf.jsqlparser.expression.AnalyticExpression;
import net.sf.jsqlparser.expression.AnalyticType;
import net.sf.jsqlparser.expression.CaseExpression;
import net.sf.jsqlparser.expression.CastExpression;
import net.sf.jsqlparser.expression.DateTimeLiteralExpression;
import net.sf.jsqlparser.expression.DateValue;
import net.sf.jsqlparser.expression.DoubleValue;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.ExpressionVisitorAdapter;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.expression.HexValue;
import net.sf.jsqlparser.expression.IntervalExpression;
import net.sf.jsqlparser.expression.LongValue;
import net.sf.jsqlparser.expression.StringValue;
import net.sf.jsqlparser.expression.TimeValue;
import net.sf.jsqlparser.expression.TimestampValue;
import net.sf.jsqlparser.expression.WindowDefinition;
import net.sf.jsqlparser.expression.WindowElement;
import net.sf.jsqlparser.expression.WindowOffset;
import net.sf.jsqlparser.expression.WindowRange;
import net.sf.jsqlparser.expression.operators.relational.ExistsExpression;
import net.sf.jsqlparser.expression.operators.relational.LikeExpression;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.create.table.ColDataType;
import net.sf.jsqlparser.statement.select.AllTableColumns;
import net.sf.jsqlparser.statement.select.ExceptOp;
import net.sf.jsqlparser.statement.select.FromItem;
import net.sf.jsqlparser.statement.select.IntersectOp;
import net.sf.jsqlparser.statement.select.Join;
import net.sf.jsqlparser.statement.select.MinusOp;
import net.sf.jsqlparser.statement.select.OrderByElement;
import net.sf.jsqlparser.statement.select.ParenthesedFromItem;
import net.sf.jsqlparser.statement.select.ParenthesedSelect;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.select.SelectItem;
import net.sf.jsqlparser.statement.select.SetOperation;
import net.sf.jsqlparser.statement.select.UnionOp;
import net.sf.jsqlparser.statement.select.WithItem;
import net.sf.jsqlparser.statement.select.Fetch;
import net.sf.jsqlparser.statement.select.GroupByElement;
import net.sf.jsqlparser.statement.select.Limit;
import net.sf.jsqlparser.statement.select.Offset;
import rolepolicy.sql.ClauseWalker;
import rolepolicy.sql.Identifiers;

/**
 * The skeleton's visitor of the {@link ClauseWalker}: in the order of the query's text, nested
 * queries where they stand, it records
 * every name and literal the skeleton replaces ({@link Use}), the scopes columns resolve in and the
 * parts of the op signature. It also writes function names in upper case. Whatever it does not know
 * (a FROM form, a clause or a literal type the skeleton has no rule for) it rejects with {@link
 * UnsupportedOperationException}, so that nothing passes through unreplaced.
 */
final class QueryWalk extends ClauseWalker<Scope, Scope> {
  final List<Use> uses = new ArrayList<>();
  final Set<Op> ops = EnumSet.noneOf(Op.class);

  private final Map<FromItem, FromEntry> entries = new IdentityHashMap<>();

  /** The WITH definitions visible where the walk is, innermost last. */
  private final Deque<Map<String, WithItem<?>>> commonTables = new ArrayDeque<>();

  private final Expressions expressions = new Expressions();
  private Scope scope;
  private int derivedTables;

  @Override
  protected void otherQuery(Select select, Scope outer) {
    throw unsupported("query form " + select.getClass().getSimpleName());
  }

  @Override
  protected void setOperation(SetOperation operation, Scope outer) {
    ops.add(setOperation(operation));
  }

  /** A set operation's ORDER BY reads its first plain part's scope. */
  @Override
  protected Scope orderLevel(Select select) {
    return firstLevel(select);
  }

  private static Op setOperation(SetOperation operation) {
    if (operation instanceof UnionOp) {
      return Op.UNION;
    } else if (operation instanceof IntersectOp) {
      return Op.INTERSECT;
    } else if (operation instanceof ExceptOp || operation instanceof MinusOp) {
      return Op.EXCEPT;
    }
    throw unsupported("set operation " + operation.getClass().getSimpleName());
  }

  /**
   * Records the query's WITH definitions and walks their bodies (their names are then visible until
   * the query's walk ends). A body sees the definitions before it and itself (WITH RECURSIVE).
   */
  @Override
  protected Scope commonTables(List<WithItem<?>> items, Scope outer) {
    ops.add(Op.CTE);
    Map<String, WithItem<?>> visible = new LinkedHashMap<>();
    commonTables.addLast(visible);
    for (WithItem<?> item : items) {
      if (item.getSelect() == null) {
        throw unsupported("a WITH definition that is not a query");
      }
      String name = lower(item.getAliasName());
      visible.put(name, item);
      Name table = commonTable(name);
      uses.add(new Use.CommonTableName(item, table));
      if (item.getWithItemList() != null) {
        for (SelectItem<?> declared : item.getWithItemList()) {
          if (!(declared.getExpression() instanceof Column column) || declared.getAlias() != null) {
            throw unsupported("a WITH column list item that is not a name");
          }
          uses.add(
              new Use.DeclaredColumn(column, Name.columnOf(table, lower(column.getColumnName()))));
        }
      }
      query(item.getSelect(), outer);
    }
    return outer;
  }

  @Override
  protected void endQuery(Select select, Scope outer) {
    if (select.getWithItemsList() != null && !select.getWithItemsList().isEmpty()) {
      commonTables.removeLast();
    }
  }

  private static Name commonTable(String name) {
    return Name.table("w:" + name, "with " + name);
  }

  /** A plain query's scope: its FROM entries and item aliases, before the items read them. */
  @Override
  protected Scope level(PlainSelect select, Scope outer) {
    rejectUnsupportedClauses(select);
    scope = new Scope(outer);
    if (select.getFromItem() != null) {
      entries(select.getFromItem());
    }
    if (select.getJoins() != null) {
      select.getJoins().forEach(join -> entries(join.getFromItem()));
    }
    for (SelectItem<?> item : select.getSelectItems()) {
      if (item.getAlias() != null) {
        scope.itemAliases.add(lower(item.getAlias().getName()));
      }
    }
    return scope;
  }

  @Override
  protected void selectItem(SelectItem<?> item, int index, Scope level) {
    scope = level;
    scope.inItems = true;
    expression(item.getExpression());
    if (item.getAlias() != null) {
      if (item.getAlias().getAliasColumns() != null) {
        throw unsupported("an alias with a column list");
      }
      uses.add(new Use.ItemAlias(item));
    }
    scope.inItems = false;
  }

  @Override
  protected void groupBy(GroupByElement groupBy, Scope level) {
    ops.add(Op.GROUPBY);
    super.groupBy(groupBy, level);
  }

  @Override
  protected void groupingSets(List<?> sets, Scope level) {
    scope = level;
    sets.forEach(set -> expression((Expression) set));
  }

  @Override
  protected void expression(Clause clause, Expression expression, Scope level) {
    if (clause == Clause.HAVING) {
      ops.add(Op.HAVING);
    }
    scope = level;
    expression(expression);
  }

  @Override
  protected void windows(List<WindowDefinition> windows, Scope level) {
    ops.add(Op.WINDOW);
    scope = level;
    for (WindowDefinition window : windows) {
      window(window.getPartitionExpressionList(), window.getOrderByElements());
      windowElement(window.getWindowElement());
    }
  }

  /** Clauses of other dialects: the skeleton has no rule for them, so it fails. */
  private static void rejectUnsupportedClauses(PlainSelect select) {
    if (select.getTop() != null
        || select.getFirst() != null
        || select.getSkip() != null
        || select.getFetch() != null
        || select.getIntoTables() != null
        || select.getLateralViews() != null
        || select.getPivot() != null
        || select.getUnPivot() != null
        || select.getOracleHierarchical() != null
        || select.getKsqlWindow() != null
        || select.getForClause() != null
        || select.getLimitBy() != null
        || select.getPreferringClause() != null
        || (select.getDistinct() != null && select.getDistinct().getOnSelectItems() != null)) {
      throw unsupported("a clause of another SQL dialect");
    }
  }

  @Override
  protected void orderBy(List<OrderByElement> elements, Scope level) {
    ops.add(Op.ORDER);
    super.orderBy(elements, level);
  }

  @Override
  protected void limit(Limit limit, Scope level) {
    ops.add(Op.LIMIT);
    super.limit(limit, level);
  }

  @Override
  protected void offset(Offset offset, Scope level) {
    ops.add(Op.LIMIT);
    super.offset(offset, level);
  }

  @Override
  protected void fetch(Fetch fetch, Scope level) {
    throw unsupported("FETCH");
  }

  /** Makes the FROM entries of one FROM item (before the SELECT items, which read them). */
  private void entries(FromItem item) {
    if (item instanceof Table table) {
      String name = lower(table.getName());
      Set<String> qualifiers = new LinkedHashSet<>();
      if (table.getAlias() != null) {
        qualifiers.add(lower(table.getAlias().getName()));
      }
      qualifiers.add(name);
      WithItem<?> common = table.getSchemaName() == null ? commonTable(name, commonTables) : null;
      FromEntry entry =
          common == null
              ? new FromEntry(Name.table("t:" + name, name), qualifiers, null, List.of())
              : new FromEntry(commonTable(name), qualifiers, common.getSelect(), declared(common));
      add(item, entry);
    } else if (item instanceof ParenthesedSelect query) {
      derivedTables++;
      String alias = query.getAlias() == null ? null : lower(query.getAlias().getName());
      Name table =
          Name.table(
              "d:" + derivedTables,
              String.format(Locale.ROOT, "(derived %d %s)", derivedTables, alias));
      Set<String> qualifiers = alias == null ? Set.of() : Set.of(alias);
      add(item, new FromEntry(table, qualifiers, query, List.of()));
    } else if (item instanceof ParenthesedFromItem group && group.getAlias() == null) {
      entries(group.getFromItem());
      if (group.getJoins() != null) {
        group.getJoins().forEach(join -> entries(join.getFromItem()));
      }
    } else {
      throw unsupported("FROM item " + item.getClass().getSimpleName());
    }
  }

  private void add(FromItem item, FromEntry entry) {
    if (item.getPivot() != null || item.getUnPivot() != null) {
      throw unsupported("PIVOT");
    }
    if (item.getAlias() != null && item.getAlias().getAliasColumns() != null) {
      throw unsupported("an alias with a column list");
    }
    entries.put(item, entry);
    scope.entries.add(entry);
  }

  private static WithItem<?> commonTable(String name, Deque<Map<String, WithItem<?>>> visible) {
    for (var frames = visible.descendingIterator(); frames.hasNext(); ) {
      WithItem<?> item = frames.next().get(name);
      if (item != null) {
        return item;
      }
    }
    return null;
  }

  private static List<String> declared(WithItem<?> item) {
    if (item.getWithItemList() == null) {
      return List.of();
    }
    return item.getWithItemList().stream()
        .map(i -> lower(((Column) i.getExpression()).getColumnName()))
        .toList();
  }

  @Override
  protected void table(Table table, Scope level) {
    uses.add(new Use.TableName(table, entries.get(table)));
  }

  /** A derived table's body, which does not see its own level's tables, then its alias. */
  @Override
  protected void derivedTable(ParenthesedSelect query, Scope level) {
    ops.add(Op.SUBQUERY);
    query(query, level.outer);
    scope = level;
    if (query.getAlias() != null) {
      uses.add(new Use.DerivedAlias(query, entries.get(query)));
    }
  }

  @Override
  protected void join(Join join, Scope level) {
    ops.add(Op.JOIN);
    super.join(join, level);
  }

  private void expression(Expression expression) {
    if (expression != null) {
      expression.accept(expressions, null);
    }
  }

  private void window(List<? extends Expression> partitionBy, List<OrderByElement> orderBy) {
    if (partitionBy != null) {
      partitionBy.forEach(this::expression);
    }
    if (orderBy != null) {
      orderBy.forEach(o -> expression(o.getExpression()));
    }
  }

  /** ROWS / RANGE BETWEEN n PRECEDING AND ...: the offsets are expressions too. */
  private void windowElement(WindowElement element) {
    if (element == null) {
      return;
    }
    List<WindowOffset> offsets = new ArrayList<>();
    offsets.add(element.getOffset());
    WindowRange range = element.getRange();
    if (range != null) {
      offsets.add(range.getStart());
      offsets.add(range.getEnd());
    }
    for (WindowOffset offset : offsets) {
      if (offset != null) {
        expression(offset.getExpression());
      }
    }
  }

  /** Identifiers are compared unquoted and lower-cased. */
  static String lower(String identifier) {
    return Identifiers.unquote(identifier).toLowerCase(Locale.ROOT);
  }

  private static UnsupportedOperationException unsupported(String what) {
    return new UnsupportedOperationException("the skeleton has no rule for " + what);
  }

  /** Records the columns and literals of expressions and walks their nested queries. */
  private final class Expressions extends ExpressionVisitorAdapter<Void> {
    @Override
    public <S> Void visit(Column column, S context) {
      uses.add(new Use.ColumnName(column, scope, scope.inItems));
      return null;
    }

    @Override
    public <S> Void visit(AllTableColumns columns, S context) {
      String qualifier = lower(columns.getTable().getName());
      FromEntry entry = scope.qualified(qualifier);
      Name table = entry != null ? entry.table() : Name.table("t:" + qualifier, qualifier);
      uses.add(new Use.TableColumns(columns, table));
      return null;
    }

    @Override
    public <S> Void visit(StringValue value, S context) {
      uses.add(new Use.Text(value));
      return null;
    }

    @Override
    public <S> Void visit(LongValue value, S context) {
      uses.add(new Use.WholeNumber(value));
      return null;
    }

    @Override
    public <S> Void visit(DoubleValue value, S context) {
      uses.add(new Use.DecimalNumber(value));
      return null;
    }

    @Override
    public <S> Void visit(HexValue value, S context) {
      throw unsupported("hexadecimal literal");
    }

    @Override
    public <S> Void visit(DateValue value, S context) {
      throw unsupported("date literal");
    }

    @Override
    public <S> Void visit(TimeValue value, S context) {
      throw unsupported("time literal");
    }

    @Override
    public <S> Void visit(TimestampValue value, S context) {
      throw unsupported("timestamp literal");
    }

    @Override
    public <S> Void visit(DateTimeLiteralExpression value, S context) {
      throw unsupported("date/time literal");
    }

    @Override
    public <S> Void visit(IntervalExpression value, S context) {
      throw unsupported("INTERVAL");
    }

    @Override
    public <S> Void visit(Function function, S context) {
      if (function.getName() != null) {
        function.setName(function.getName().toUpperCase(Locale.ROOT));
      }
      return super.visit(function, context);
    }

    /** A window function, or an aggregate with FILTER (WHERE ...) or WITHIN GROUP. */
    @Override
    public <S> Void visit(AnalyticExpression function, S context) {
      if (function.getType() == AnalyticType.OVER
          || function.getType() == AnalyticType.WITHIN_GROUP_OVER) {
        ops.add(Op.WINDOW);
      }
      function.setName(function.getName().toUpperCase(Locale.ROOT));
      expression(function.getExpression());
      expression(function.getOffset());
      expression(function.getDefaultValue());
      window(null, function.getFuncOrderBy());
      expression(function.getFilterExpression());
      window(function.getPartitionExpressionList(), function.getOrderByElements());
      windowElement(function.getWindowElement());
      if (function.getKeep() != null || function.getLimit() != null) {
        throw unsupported("KEEP or LIMIT in a window function");
      }
      return null;
    }

    /** The ESCAPE character of LIKE is a string too. */
    @Override
    public <S> Void visit(LikeExpression like, S context) {
      super.visit(like, context);
      expression(like.getEscape());
      return null;
    }

    /** The numbers of a type, {@code CAST(x AS VARCHAR(10))}, are numbers too. */
    @Override
    public <S> Void visit(CastExpression cast, S context) {
      super.visit(cast, context);
      ColDataType type = cast.getColDataType();
      boolean array = type != null && type.getArrayData() != null && !type.getArrayData().isEmpty();
      if (cast.getFormat() != null || array) {
        throw unsupported("CAST with FORMAT or an array type");
      }
      if (type != null) {
        uses.add(new Use.CastType(type));
      }
      return null;
    }

    @Override
    public <S> Void visit(CaseExpression expression, S context) {
      ops.add(Op.CASE);
      return super.visit(expression, context);
    }

    @Override
    public <S> Void visit(ExistsExpression expression, S context) {
      ops.add(Op.EXISTS);
      return super.visit(expression, context);
    }

    @Override
    public <S> Void visit(ParenthesedSelect query, S context) {
      return nested(query);
    }

    @Override
    public <S> Void visit(Select query, S context) {
      return nested(query);
    }

    private Void nested(Select query) {
      ops.add(Op.SUBQUERY);
      Scope saved = scope;
      query(query, scope);
      scope = saved;
      return null;
    }
  }
}

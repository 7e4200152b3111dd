package rolepolicy.sql;

import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.WindowDefinition;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.select.Fetch;
import net.sf.jsqlparser.statement.select.FromItem;
import net.sf.jsqlparser.statement.select.GroupByElement;
import net.sf.jsqlparser.statement.select.Join;
import net.sf.jsqlparser.statement.select.Limit;
import net.sf.jsqlparser.statement.select.Offset;
import net.sf.jsqlparser.statement.select.OrderByElement;
import net.sf.jsqlparser.statement.select.ParenthesedFromItem;
import net.sf.jsqlparser.statement.select.ParenthesedSelect;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.select.SelectItem;
import net.sf.jsqlparser.statement.select.SetOperation;
import net.sf.jsqlparser.statement.select.SetOperationList;
import net.sf.jsqlparser.statement.select.WithItem;

/**
 * The one walk over a parsed query, clause by clause in the order of its text: the WITH
 * definitions; then a plain query's level (built from its FROM clause before anything reads it),
 * SELECT items, FROM items and joins, WHERE, GROUP BY, HAVING, QUALIFY, WINDOW and the tail (ORDER
 * BY, LIMIT, OFFSET, FETCH); a set operation's parts and then its tail; a parenthesised query and
 * then its tail.
 *
 * <p>Its visitors extend it and override the clauses they read: the facts of the rules
 * ({@link SqlAnalyzer}), the skeleton of few-shot retrieval, Spider's structure for exact match,
 * the result-table query reader and column-level matching. The walk does not enter nested queries
 * (derived tables, WITH bodies, subqueries in expressions): a visitor walks one by calling {@link
 * #query} where its reading of the clause meets it. Expressions are the visitor's to read.
 *
 * @param <C> what a query is walked in, handed down by the visitor (the enclosing level, say)
 * @param <L> the visitor's level: what it knows of one plain query (its FROM entries, say)
 */
public abstract class ClauseWalker<C, L> {
  /** The clauses whose expressions {@link #clause} is given. */
  public enum Clause {
    ON,
    USING,
    WHERE,
    GROUP_BY,
    HAVING,
    QUALIFY,
    ORDER_BY,
    LIMIT,
    OFFSET
  }

  private final Map<PlainSelect, L> levels = new IdentityHashMap<>();

  /** Walks a query: its WITH definitions, then its form. */
  public void query(Select select, C context) {
    C inner = context;
    if (select.getWithItemsList() != null && !select.getWithItemsList().isEmpty()) {
      inner = commonTables(select.getWithItemsList(), context);
    }
    if (select instanceof PlainSelect plain) {
      plainSelect(plain, inner);
    } else if (select instanceof SetOperationList setOperations) {
      setOperations(setOperations, inner);
    } else if (select instanceof ParenthesedSelect parenthesed) {
      parenthesed(parenthesed, inner);
    } else {
      otherQuery(select, inner);
    }
    endQuery(select, context);
  }

  /** A query form other than a plain query, a set operation or a parenthesised query. */
  protected void otherQuery(Select select, C context) {
    throw new SqlAnalysisException("unsupported query form: " + select.getClass().getSimpleName());
  }

  /** A query's WITH definitions, in order; returns what the query itself is walked in. */
  protected C commonTables(List<WithItem<?>> items, C context) {
    C visible = context;
    for (WithItem<?> item : items) {
      visible = commonTable(item, visible);
    }
    return visible;
  }

  /** One WITH definition: returns what the later definitions and the query are walked in. */
  protected C commonTable(WithItem<?> item, C context) {
    return context;
  }

  /** After a query's walk, its WITH definitions included. */
  protected void endQuery(Select select, C context) {}

  /** {@code A op B op C}: each operator, each part, then the tail in {@link #orderLevel}. */
  protected void setOperations(SetOperationList list, C context) {
    for (SetOperation operation : list.getOperations()) {
      setOperation(operation, context);
    }
    List<Select> parts = list.getSelects();
    for (int k = 0; k < parts.size(); k++) {
      query(parts.get(k), part(context, k));
    }
    tail(list, context, orderLevel(list));
  }

  protected void setOperation(SetOperation operation, C context) {}

  /** What the {@code k}-th part of a set operation is walked in. */
  protected C part(C context, int k) {
    return context;
  }

  /** {@code (SELECT ...)} with its own ORDER BY or LIMIT after the parenthesis. */
  protected void parenthesed(ParenthesedSelect select, C context) {
    query(select.getSelect(), context);
    tail(select, context, orderLevel(select));
  }

  /**
   * The level a set operation's or parenthesised query's ORDER BY reads: its last plain part's, as
   * Spider's parser reads it.
   */
  protected L orderLevel(Select select) {
    return lastLevel(select);
  }

  /** The level of a plain query walked so far, or null. */
  public final L levelOf(PlainSelect select) {
    return levels.get(select);
  }

  /** The level of a query's first plain part. */
  protected final L firstLevel(Select select) {
    return partLevel(select, false);
  }

  /** The level of a query's last plain part. */
  protected final L lastLevel(Select select) {
    return partLevel(select, true);
  }

  private L partLevel(Select select, boolean last) {
    PlainSelect part = plainPart(select, last);
    return part == null ? null : levels.get(part);
  }

  /** A query's first plain part ({@code last} false) or last; null for another query form. */
  public static PlainSelect plainPart(Select select, boolean last) {
    if (select instanceof PlainSelect plain) {
      return plain;
    } else if (select instanceof SetOperationList setOperations) {
      List<Select> parts = setOperations.getSelects();
      return plainPart(parts.get(last ? parts.size() - 1 : 0), last);
    } else if (select instanceof ParenthesedSelect parenthesed) {
      return plainPart(parenthesed.getSelect(), last);
    }
    return null;
  }

  /** One plain query, clause by clause. */
  protected void plainSelect(PlainSelect select, C context) {
    L level = level(select, context);
    levels.put(select, level);
    List<SelectItem<?>> items = select.getSelectItems();
    for (int i = 0; i < items.size(); i++) {
      selectItem(items.get(i), i, level);
    }
    if (select.getFromItem() != null) {
      fromItem(select.getFromItem(), level);
    }
    joins(select.getJoins(), level);
    endFrom(select, level);
    clause(Clause.WHERE, select.getWhere(), level);
    if (select.getGroupBy() != null) {
      groupBy(select.getGroupBy(), level);
    }
    clause(Clause.HAVING, select.getHaving(), level);
    clause(Clause.QUALIFY, select.getQualify(), level);
    if (select.getWindowDefinitions() != null) {
      windows(select.getWindowDefinitions(), level);
    }
    tail(select, context, level);
    endLevel(select, level);
  }

  /** The level of a plain query, made before its SELECT items are walked. */
  protected abstract L level(PlainSelect select, C context);

  /** After a plain query's walk. */
  protected void endLevel(PlainSelect select, L level) {}

  protected void selectItem(SelectItem<?> item, int index, L level) {}

  /** A FROM item where it stands: a table, a derived table, or a parenthesised group of joins. */
  protected void fromItem(FromItem item, L level) {
    if (item instanceof Table table) {
      table(table, level);
    } else if (item instanceof ParenthesedSelect query) {
      derivedTable(query, level);
    } else if (item instanceof ParenthesedFromItem group) {
      fromItem(group.getFromItem(), level);
      joins(group.getJoins(), level);
    } else {
      otherFromItem(item, level);
    }
  }

  protected void table(Table table, L level) {}

  /** {@code (SELECT ...) AS t}; its body is walked if the visitor calls {@link #query}. */
  protected void derivedTable(ParenthesedSelect query, L level) {}

  /** A FROM form other than a table, a derived table or a group (a table function, say). */
  protected void otherFromItem(FromItem item, L level) {}

  private void joins(List<Join> joins, L level) {
    if (joins != null) {
      for (Join join : joins) {
        join(join, level);
      }
    }
  }

  /** One JOIN: its table, then its ON conditions and USING columns. */
  protected void join(Join join, L level) {
    fromItem(join.getFromItem(), level);
    for (Expression on : join.getOnExpressions()) {
      clause(Clause.ON, on, level);
    }
    if (join.getUsingColumns() != null) {
      for (Column column : join.getUsingColumns()) {
        clause(Clause.USING, column, level);
      }
    }
  }

  /** After the FROM clause of a plain query, its joins included. */
  protected void endFrom(PlainSelect select, L level) {}

  /** GROUP BY: each expression, then its grouping sets. */
  protected void groupBy(GroupByElement groupBy, L level) {
    if (groupBy.getGroupByExpressionList() != null) {
      for (Object expression : groupBy.getGroupByExpressionList()) {
        clause(Clause.GROUP_BY, (Expression) expression, level);
      }
    }
    if (groupBy.getGroupingSets() != null) {
      groupingSets(groupBy.getGroupingSets(), level);
    }
  }

  /** {@code GROUP BY GROUPING SETS (...)}, which SQLite does not have; read only by who says so. */
  protected void groupingSets(List<?> sets, L level) {}

  protected void windows(List<WindowDefinition> windows, L level) {}

  /**
   * ORDER BY, LIMIT, OFFSET and FETCH of a query.
   *
   * @param context what the query was walked in
   * @param level the level its ORDER BY reads (for a plain query, its own)
   */
  protected void tail(Select select, C context, L level) {
    if (select.getOrderByElements() != null && !select.getOrderByElements().isEmpty()) {
      orderBy(select.getOrderByElements(), level);
    }
    if (select.getLimit() != null) {
      limit(select.getLimit(), level);
    }
    if (select.getOffset() != null) {
      offset(select.getOffset(), level);
    }
    if (select.getFetch() != null) {
      fetch(select.getFetch(), level);
    }
  }

  protected void orderBy(List<OrderByElement> elements, L level) {
    for (OrderByElement element : elements) {
      clause(Clause.ORDER_BY, element.getExpression(), level);
    }
  }

  protected void limit(Limit limit, L level) {
    clause(Clause.LIMIT, limit.getRowCount(), level);
    clause(Clause.LIMIT, limit.getOffset(), level);
  }

  protected void offset(Offset offset, L level) {
    clause(Clause.OFFSET, offset.getOffset(), level);
  }

  protected void fetch(Fetch fetch, L level) {}

  /** One expression of a clause; never null. */
  protected void expression(Clause clause, Expression expression, L level) {}

  private void clause(Clause clause, Expression expression, L level) {
    if (expression != null) {
      expression(clause, expression, level);
    }
  }
}

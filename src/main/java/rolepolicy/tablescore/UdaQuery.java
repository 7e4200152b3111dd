package rolepolicy.tablescore;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import net.sf.jsqlparser.JSQLParserException;
import net.sf.jsqlparser.expression.Alias;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.select.FromItem;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.select.SelectItem;
import net.sf.jsqlparser.util.TablesNamesFinder;
import rolepolicy.sql.SqlAnalysisException;
import rolepolicy.sql.SqlAnalyzer;
import rolepolicy.sql.ClauseWalker;
import rolepolicy.sql.Identifiers;

/**
 * What scoring needs of one benchmark query, read from its parse tree: the selected columns (their
 * tables, attributes and whether they aggregate), the tables of FROM and JOIN, the GROUP BY keys;
 * and the SQL run on the ground truth: the query with every item named and, unless it aggregates,
 * each table's document id (and entity key) added as key columns.
 */
public final class UdaQuery {
  /**
   * One column of the gold result.
   *
   * @param name its name in the gold result and in result.csv
   * @param table the table its attribute belongs to (as written in FROM), or null ({@code COUNT(*)})
   * @param attribute the attribute selected or aggregated, or null
   * @param function the aggregate function, or null
   * @param added a key column the scorer added (the query did not select it)
   */
  public record OutputColumn(
      String name, ColumnRole role, String table, String attribute, String function, boolean added) {}

  private final String sql;
  private final String goldSql;
  private final List<OutputColumn> columns;
  private final List<String> tables;
  private final boolean aggregation;

  private UdaQuery(String sql, String goldSql, List<OutputColumn> columns, List<String> tables, boolean aggregation) {
    this.sql = sql;
    this.goldSql = goldSql;
    this.columns = List.copyOf(columns);
    this.tables = List.copyOf(tables);
    this.aggregation = aggregation;
  }

  /** Why a query cannot be scored: said in the summary, the other queries go on. */
  public static final class Unscorable extends Exception {
    public Unscorable(String message) {
      super(message);
    }
  }

  /** The tables a query names in FROM and JOIN, as written (for the names of a one-file dataset). */
  public static List<String> tableNames(String sql) {
    try {
      return new ArrayList<>(TablesNamesFinder.findTables(sql));
    } catch (JSQLParserException e) {
      return List.of();
    }
  }

  /**
   * Analyses a query.
   *
   * @param keys the document id and entity key columns by table
   * @param attributes the dataset's attributes; every selected attribute must be described there
   * @param truth the ground truth, for the tables' columns
   */
  public static UdaQuery analyse(String sql, KeyColumns keys, Attributes attributes, GroundTruth truth)
      throws Unscorable {
    PlainSelect select = parse(sql);
    Reader reader = new Reader();
    reader.query(select, null);
    if (reader.problem != null) {
      throw new Unscorable(reader.problem);
    }
    Map<String, String> tableByQualifier = reader.tableByQualifier;
    List<String> tables = reader.tables;
    List<String> qualifiers = reader.qualifiers;
    boolean aggregation = select.getGroupBy() != null;
    for (SelectItem<?> item : select.getSelectItems()) {
      aggregation |= aggregateOf(item.getExpression()) != null;
    }
    List<OutputColumn> columns = new ArrayList<>();
    List<String> groupBy = reader.groupBy;
    for (SelectItem<?> item : select.getSelectItems()) {
      Expression expression = item.getExpression();
      if (expression instanceof net.sf.jsqlparser.statement.select.AllColumns) {
        throw new Unscorable("SELECT * names no attribute to score");
      }
      String name = item.getAlias() != null ? Identifiers.unquote(item.getAlias().getName()) : expression.toString();
      Function aggregate = aggregateOf(expression);
      Column column = aggregate == null ? columnOf(expression) : argumentOf(aggregate);
      String table = column == null ? null : tableOf(column, tableByQualifier, tables, truth);
      String attribute = column == null ? null : Identifiers.unquote(column.getColumnName());
      if (column != null && truth.columnsOf(table) != null && !hasColumn(truth, table, attribute)) {
        throw new Unscorable("the ground truth of " + table + " has no column '" + attribute + "'");
      }
      ColumnRole role;
      if (aggregate != null) {
        role = ColumnRole.AGGREGATE;
      } else if (groupBy.contains(normal(expression.toString())) || !aggregation && keys.isEntityKey(table, attribute)) {
        role = ColumnRole.KEY;
      } else if (aggregation) {
        throw new Unscorable("'" + expression + "' is selected but neither aggregated nor in GROUP BY");
      } else {
        Attributes.Attribute described = attributes.get(table, attribute);
        role = described != null && described.valueType().equals("multi_str") ? ColumnRole.MULTI_VALUE : ColumnRole.VALUE;
      }
      if (column != null && role != ColumnRole.KEY && attributes.get(table, attribute) == null) {
        throw new Unscorable(attributes.file() + " has no description of " + table + "." + attribute);
      }
      columns.add(new OutputColumn(name, role, table, attribute, aggregate == null ? null : aggregate.getName().toUpperCase(Locale.ROOT), false));
      item.setAlias(new Alias(quote(name), true));
    }
    if (aggregation) {
      for (String key : groupBy) {
        boolean selected = select.getSelectItems().stream()
            .anyMatch(i -> normal(i.getExpression().toString()).equals(key));
        if (!selected) {
          throw new Unscorable("GROUP BY " + key + " is not in the SELECT list: rows cannot be matched on it");
        }
      }
    } else {
      boolean single = tables.size() == 1;
      for (int t = 0; t < tables.size(); t++) {
        String table = tables.get(t);
        String id = keys.idColumn(table);
        if (!hasColumn(truth, table, id)) {
          throw new Unscorable("table " + table + " has no '" + id + "' column to match rows on;"
              + " name its document key with --id-column " + table + "=COLUMN");
        }
        String idName = single ? "id" : table + ".id";
        addKey(select, qualifiers.get(t), id, idName);
        columns.add(new OutputColumn(idName, ColumnRole.KEY, table, id, null, true));
        String entity = keys.entityKey(table);
        if (entity != null && columns.stream().noneMatch(c -> table.equalsIgnoreCase(c.table())
            && entity.equalsIgnoreCase(c.attribute()) && c.role() == ColumnRole.KEY)) {
          if (!hasColumn(truth, table, entity)) {
            throw new Unscorable("table " + table + " has no entity key column '" + entity + "'");
          }
          String entityName = single ? entity : table + "." + entity;
          addKey(select, qualifiers.get(t), entity, entityName);
          columns.add(new OutputColumn(entityName, ColumnRole.KEY, table, entity, null, true));
        }
      }
    }
    Set<String> names = new java.util.HashSet<>();
    for (OutputColumn c : columns) {
      if (!names.add(c.name().toLowerCase(Locale.ROOT))) {
        throw new Unscorable("two result columns are named '" + c.name() + "'");
      }
    }
    return new UdaQuery(sql, select.toString(), columns, tables, aggregation);
  }

  /** The query, parsed by the one SQL parser ({@link SqlAnalyzer#parseSelect}). */
  private static PlainSelect parse(String sql) throws Unscorable {
    Select statement;
    try {
      statement = SqlAnalyzer.parseSelect(sql);
    } catch (SqlAnalysisException e) {
      String message = e.getMessage();
      throw new Unscorable("SQL does not parse: " + (message == null ? "" : message.lines().findFirst().orElse("")));
    }
    if (!(statement instanceof PlainSelect select)) {
      throw new Unscorable("not a single SELECT (set operations and other statements are not scored)");
    }
    return select;
  }

  /**
   * The clause walker's visitor of the query (a plain one): the tables of FROM and JOIN as written,
   * and the GROUP BY keys; the first FROM item that is not a table is the problem.
   */
  private static final class Reader extends ClauseWalker<Void, Void> {
    final Map<String, String> tableByQualifier = new LinkedHashMap<>();
    final List<String> tables = new ArrayList<>();
    final List<String> qualifiers = new ArrayList<>();
    final List<String> groupBy = new ArrayList<>();
    String problem;

    @Override
    protected Void level(PlainSelect select, Void context) {
      if (select.getFromItem() == null) {
        problem = "FROM reads 'null', not a table: rows cannot be matched on document ids";
      }
      return null;
    }

    @Override
    protected void fromItem(FromItem item, Void level) {
      if (problem != null) {
        return;
      }
      if (!(item instanceof Table table)) {
        problem = "FROM reads '" + item + "', not a table: rows cannot be matched on document ids";
        return;
      }
      String name = Identifiers.unquote(table.getName());
      String qualifier = table.getAlias() != null ? Identifiers.unquote(table.getAlias().getName()) : name;
      tableByQualifier.put(qualifier.toLowerCase(Locale.ROOT), name);
      tables.add(name);
      qualifiers.add(qualifier);
    }

    @Override
    protected void expression(Clause clause, Expression expression, Void level) {
      if (clause == Clause.GROUP_BY) {
        groupBy.add(normal(expression.toString()));
      }
    }
  }

  private static String tableOf(Column column, Map<String, String> byQualifier, List<String> tables, GroundTruth truth)
      throws Unscorable {
    if (column.getTable() != null && column.getTable().getName() != null) {
      String qualifier = Identifiers.unquote(column.getTable().getName());
      String table = byQualifier.get(qualifier.toLowerCase(Locale.ROOT));
      if (table == null) {
        throw new Unscorable("'" + column + "' names " + qualifier + ", which is not a table of its FROM");
      }
      return table;
    }
    String name = Identifiers.unquote(column.getColumnName());
    List<String> having = tables.stream().filter(t -> hasColumn(truth, t, name)).toList();
    if (having.size() == 1 || tables.size() == 1) {
      return having.isEmpty() ? tables.get(0) : having.get(0);
    }
    throw new Unscorable("'" + name + "' is " + (having.isEmpty() ? "in no table" : "in several tables") + " of its FROM");
  }

  private static boolean hasColumn(GroundTruth truth, String table, String column) {
    List<String> columns = truth.columnsOf(table);
    return columns != null && columns.stream().anyMatch(c -> c.equalsIgnoreCase(column));
  }

  private static void addKey(PlainSelect select, String qualifier, String column, String name) {
    select.addSelectItem(new Column(new Table(quote(qualifier)), quote(column)), new Alias(quote(name), true));
  }

  /**
   * The aggregate function (COUNT, SUM, AVG, MIN, MAX) an item is, or null: a query with one, or
   * with GROUP BY, is matched on its groups (an aggregate nested in other arithmetic is not unwrapped).
   */
  private static Function aggregateOf(Expression expression) {
    if (expression instanceof Function f && f.getName() != null
        && rolepolicy.model.Aggregate.named(f.getName()) != null) {
      return f;
    }
    return null;
  }

  private static Column argumentOf(Function aggregate) {
    if (aggregate.isAllColumns() || aggregate.getParameters() == null || aggregate.getParameters().size() != 1) {
      return null;
    }
    return columnOf((Expression) aggregate.getParameters().get(0));
  }

  private static Column columnOf(Expression expression) {
    return expression instanceof Column c ? c : null;
  }

  private static String normal(String expression) {
    return expression.replace("\"", "").replace("`", "").toLowerCase(Locale.ROOT).strip();
  }

  private static String quote(String name) {
    return "\"" + name.replace("\"", "\"\"") + "\"";
  }

  public String sql() {
    return sql;
  }

  /** The SQL run on the ground truth. */
  public String goldSql() {
    return goldSql;
  }

  public List<OutputColumn> columns() {
    return columns;
  }

  public List<String> tables() {
    return tables;
  }

  public boolean aggregation() {
    return aggregation;
  }
}

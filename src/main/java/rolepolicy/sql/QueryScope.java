package rolepolicy.sql;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.select.FromItem;
import net.sf.jsqlparser.statement.select.Join;
import net.sf.jsqlparser.statement.select.ParenthesedFromItem;
import net.sf.jsqlparser.statement.select.ParenthesedSelect;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.SelectItem;
import rolepolicy.model.SchemaColumn;
import rolepolicy.spider.Schema;

/**
 * The tables one query level reads, and how its column references resolve: a qualifier names an
 * alias or a table of this level, else of an enclosing level; an unqualified column belongs to the
 * first FROM entry of this level, in FROM order, that has a column of that name (Spider's rule),
 * else to one of an enclosing level. A FROM entry is a schema table, a derived table ({@code
 * (SELECT ...) AS t}) or a common table expression; only a schema table's columns are references.
 */
final class QueryScope {
  /** The names SQLite reads as a table's row id when no real column has the name. */
  private static final Set<String> ROW_IDS = Set.of("rowid", "oid", "_rowid_");

  /**
   * One FROM entry.
   *
   * @param written the table or common table name as written; null for a derived table
   * @param alias the alias as written, or null
   * @param schemaTable the schema table's original name; null for a derived or common table
   * @param derivedColumns the output columns of a derived or common table; null for a schema table
   * @param query the query of a derived table, walked as a nested query of FROM; else null
   */
  record Entry(
      String written,
      String alias,
      String schemaTable,
      List<String> derivedColumns,
      ParenthesedSelect query) {
    /** What qualifies a column of this entry: the alias if any, else the name as written. */
    String qualifier() {
      return alias != null ? alias : written;
    }

    boolean derived() {
      return schemaTable == null;
    }
  }

  /**
   * One JOIN in text order, with the entries on either side of it (for USING and NATURAL).
   *
   * @param left the entries before it in its FROM list (or parenthesised group)
   * @param right the entries it joins: its table, or all tables of a parenthesised group
   */
  record JoinStep(Join join, List<Entry> left, List<Entry> right) {}

  /** What a column reference resolved to. */
  sealed interface Resolution {}

  /**
   * A schema column.
   *
   * @param column the key, {@code table.column} lower-cased
   * @param qualifier the alias, else the table name as written, of the FROM entry it belongs to
   */
  record Base(String column, String qualifier) implements Resolution {}

  /**
   * Not a schema column, so no reference: an output column of a derived or common table (its base
   * columns are judged inside its query), a row id, or a double-quoted string.
   */
  record NoColumn(String what) implements Resolution {}

  /**
   * A result column alias, standing for the item's expression.
   *
   * @param item the SELECT item with that alias
   * @param owner the scope of the query the item belongs to, where its expression resolves
   */
  record Alias(SelectItem<?> item, QueryScope owner) implements Resolution {}

  private final Schema schema;
  private final TextPositions positions;
  private final QueryScope outer;
  private final CommonTables commonTables;
  private final PlainSelect select;
  private final List<Entry> entries = new ArrayList<>();
  private final List<JoinStep> joinSteps = new ArrayList<>();
  private boolean aliasesVisible;

  private QueryScope(
      Schema schema,
      TextPositions positions,
      QueryScope outer,
      CommonTables commonTables,
      PlainSelect select) {
    this.schema = schema;
    this.positions = positions;
    this.outer = outer;
    this.commonTables = commonTables;
    this.select = select;
  }

  /**
   * The scope of one plain query.
   *
   * @param outer the scope of the enclosing query, or null
   * @param commonTables the common tables the query can read
   */
  static QueryScope of(
      PlainSelect select,
      Schema schema,
      QueryScope outer,
      CommonTables commonTables,
      TextPositions positions) {
    QueryScope scope = new QueryScope(schema, positions, outer, commonTables, select);
    if (select.getFromItem() != null) {
      scope.entries.addAll(scope.group(select.getFromItem(), select.getJoins()));
    }
    return scope;
  }

  /** One FROM list: its first item and its joins; records the join steps. */
  private List<Entry> group(FromItem first, List<Join> joins) {
    List<Entry> list = new ArrayList<>(expand(first));
    if (joins != null) {
      for (Join join : joins) {
        List<Entry> right = expand(join.getRightItem());
        joinSteps.add(new JoinStep(join, List.copyOf(list), right));
        list.addAll(right);
      }
    }
    return list;
  }

  private List<Entry> expand(FromItem item) {
    if (item instanceof ParenthesedFromItem group) {
      if (group.getAlias() != null) {
        throw new SqlAnalysisException(
            "an alias on a parenthesised join is not supported: "
                + SqlAnalysisException.excerpt(item));
      }
      return group(group.getFromItem(), group.getJoins());
    }
    return List.of(entry(item));
  }

  private Entry entry(FromItem item) {
    String alias = item.getAlias() == null ? null : item.getAlias().getName();
    if (item instanceof Table table) {
      if (table.getSchemaName() != null && !ownSchema(table.getSchemaName())) {
        throw new SqlAnalysisException("unknown table " + table.getFullyQualifiedName() + " (not in " + schema.dbId()
            + ", whose tables are in schema " + schema.dbId() + ")");
      }
      String name = unquote(table.getName());
      Optional<List<String>> common = commonTables.columns(name);
      if (common.isPresent()) {
        return new Entry(table.getName(), alias, null, common.get(), null);
      }
      String schemaTable =
          schema
              .tableNamed(name)
              .orElseThrow(
                  () ->
                      new SqlAnalysisException(
                          "unknown table " + table.getName() + " (not in " + schema.dbId() + ")"));
      return new Entry(table.getName(), alias, schemaTable, null, null);
    }
    if (item instanceof ParenthesedSelect query) {
      return new Entry(
          null, alias, null, OutputColumns.of(query, schema, commonTables, positions), query);
    }
    throw new SqlAnalysisException("unsupported FROM item: " + SqlAnalysisException.excerpt(item));
  }

  /**
   * Whether a table's schema qualifier names the database's own schema, the database's name, as
   * PostgreSQL reads it: folded to lower case unless double-quoted.
   */
  private boolean ownSchema(String qualifier) {
    String dbId = schema.dbId();
    String name = unquote(qualifier);
    return name.equals(qualifier) ? name.equalsIgnoreCase(dbId)
        : name.equals(dbId) || name.equals(dbId.toLowerCase(java.util.Locale.ROOT));
  }

  /** The FROM entries, parenthesised groups flattened, in text order. */
  List<Entry> entries() {
    return entries;
  }

  /** The joins, in text order (a parenthesised group's before the join that holds it). */
  List<JoinStep> joinSteps() {
    return joinSteps;
  }

  CommonTables commonTables() {
    return commonTables;
  }

  /**
   * Makes this query's result column aliases visible (while its WHERE and JOIN ... ON are walked,
   * nested queries there included, as SQLite resolves them) or not.
   */
  void aliasesVisible(boolean visible) {
    aliasesVisible = visible;
  }

  /** The columns of one entry, as the schema or its query names them. */
  List<String> columnsOf(Entry entry) {
    return entry.derived()
        ? entry.derivedColumns()
        : schema.columnsOf(entry.schemaTable()).stream().map(SchemaColumn::name).toList();
  }

  /** The columns of the entry a qualifier names ({@code T.*}). */
  List<String> columnsOf(String qualifier) {
    return columnsOf(
        named(qualifier)
            .orElseThrow(
                () -> new SqlAnalysisException("no table or alias " + qualifier + " in FROM")));
  }

  /**
   * The schema tables whose every column a {@code *} reads: all of this level's schema tables, or
   * for {@code T.*} the one {@code T} names (none where it names a derived table).
   */
  List<String> starTables(String qualifier) {
    if (qualifier == null) {
      return entries.stream().filter(e -> !e.derived()).map(Entry::schemaTable).toList();
    }
    Entry entry =
        named(qualifier)
            .orElseThrow(() -> new SqlAnalysisException("no table or alias " + qualifier + " in FROM"));
    return entry.derived() ? List.of() : List.of(entry.schemaTable());
  }

  /** The columns of all entries in FROM order ({@code *}). */
  List<String> allColumns() {
    List<String> all = new ArrayList<>();
    entries.forEach(e -> all.addAll(columnsOf(e)));
    return all;
  }

  /** What the named column of an entry resolves to, if the entry has it. */
  Optional<Resolution> column(Entry entry, String name) {
    if (entry.derived()) {
      return entry.derivedColumns().stream().anyMatch(c -> c.equalsIgnoreCase(name))
          ? Optional.of(new NoColumn("output column " + name + " of a derived table"))
          : Optional.empty();
    }
    return schema
        .columnByKey(entry.schemaTable() + "." + name)
        .map(c -> new Base(c.key(), entry.qualifier()));
  }

  /**
   * The column, derived column, row id, string or alias a reference resolves to. At each level,
   * inner to outer, a FROM entry's column comes before a visible result column alias.
   *
   * @param aliases false when resolving inside an alias's own expression, where no alias is read
   */
  Resolution resolve(Column column, boolean aliases) {
    String name = unquote(column.getColumnName());
    Table qualifier = column.getTable();
    if (qualifier != null && qualifier.getName() != null) {
      Entry entry = qualified(unquote(qualifier.getName()), column);
      return column(entry, name)
          .or(() -> rowId(name))
          .orElseThrow(
              () ->
                  unresolved(
                      column,
                      (entry.derived()
                              ? "derived table " + entry.qualifier()
                              : "table " + entry.schemaTable())
                          + " has no column "
                          + name));
    }
    for (QueryScope scope = this; scope != null; scope = scope.outer) {
      for (Entry entry : scope.entries) {
        Optional<Resolution> found = scope.column(entry, name);
        if (found.isPresent()) {
          return found.get();
        }
      }
      if (aliases && scope.aliasesVisible) {
        Optional<SelectItem<?>> item = scope.alias(name);
        if (item.isPresent()) {
          return new Alias(item.get(), scope);
        }
      }
    }
    Optional<Resolution> rowId = rowId(name);
    if (rowId.isPresent()) {
      return rowId.get();
    }
    if (column.getColumnName().startsWith("\"")) {
      return new NoColumn("string " + column.getColumnName());
    }
    throw unresolved(column, "no table in FROM has a column " + name);
  }

  private static Optional<Resolution> rowId(String name) {
    return ROW_IDS.contains(name.toLowerCase(Locale.ROOT))
        ? Optional.of(new NoColumn("row id " + name))
        : Optional.empty();
  }

  /** The SELECT item of this query whose alias is {@code name}. */
  private Optional<SelectItem<?>> alias(String name) {
    return select.getSelectItems().stream()
        .filter(i -> i.getAlias() != null && unquote(i.getAlias().getName()).equalsIgnoreCase(name))
        .findFirst();
  }

  private Entry qualified(String qualifier, Column column) {
    for (QueryScope scope = this; scope != null; scope = scope.outer) {
      Optional<Entry> entry = scope.named(qualifier);
      if (entry.isPresent()) {
        return entry.get();
      }
    }
    throw unresolved(column, "no table or alias " + qualifier + " in FROM");
  }

  /** The entry an alias names, else the first entry of the table so named. */
  private Optional<Entry> named(String qualifier) {
    Optional<Entry> byAlias =
        entries.stream()
            .filter(e -> e.alias() != null && unquote(e.alias()).equalsIgnoreCase(qualifier))
            .findFirst();
    if (byAlias.isPresent()) {
      return byAlias;
    }
    return entries.stream()
        .filter(
            e ->
                e.derived()
                    ? e.written() != null && unquote(e.written()).equalsIgnoreCase(qualifier)
                    : e.schemaTable().equalsIgnoreCase(qualifier))
        .findFirst();
  }

  /** The error for a column that does not resolve: its text, where it stands, and why. */
  private SqlAnalysisException unresolved(Column column, String why) {
    String where =
        column.getASTNode() == null ? "" : " at offset " + positions.node(column).start();
    return new SqlAnalysisException("cannot resolve column " + column + where + ": " + why);
  }

  static String unquote(String identifier) {
    return Identifiers.unquote(identifier);
  }
}

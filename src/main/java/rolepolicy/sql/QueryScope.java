package rolepolicy.sql;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.select.FromItem;
import net.sf.jsqlparser.statement.select.Join;
import net.sf.jsqlparser.statement.select.ParenthesedSelect;
import net.sf.jsqlparser.statement.select.PlainSelect;
import rolepolicy.model.SchemaColumn;
import rolepolicy.spider.Schema;

/**
 * The tables one query level reads, and how its column references resolve against the schema: a
 * qualifier names an alias or a table of this level, else of an enclosing level; an unqualified
 * column belongs to the first table of this level's FROM, in FROM order, that has a column of that
 * name (Spider's rule), else to one of an enclosing level.
 */
final class QueryScope {
  /** One FROM entry; {@code schemaTable} is null for a nested query. */
  record Entry(String written, String alias, String schemaTable) {
    /** What qualifies a column of this entry: the alias if any, else the name as written. */
    String qualifier() {
      return alias != null ? alias : written;
    }
  }

  /**
   * What a column reference resolved to.
   *
   * @param column the key, {@code table.column} lower-cased
   * @param qualifier the alias, else the table name as written, of the FROM entry it belongs to
   */
  record Resolution(String column, String qualifier) {}

  private final Schema schema;
  private final QueryScope outer;
  private final List<Entry> entries = new ArrayList<>();

  private QueryScope(Schema schema, QueryScope outer) {
    this.schema = schema;
    this.outer = outer;
  }

  static QueryScope of(PlainSelect select, Schema schema, QueryScope outer) {
    QueryScope scope = new QueryScope(schema, outer);
    for (FromItem item : fromItems(select)) {
      scope.entries.add(scope.entry(item));
    }
    return scope;
  }

  /** The FROM item and the joined items, in text order. */
  static List<FromItem> fromItems(PlainSelect select) {
    List<FromItem> items = new ArrayList<>();
    if (select.getFromItem() != null) {
      items.add(select.getFromItem());
    }
    if (select.getJoins() != null) {
      for (Join join : select.getJoins()) {
        items.add(join.getRightItem());
      }
    }
    return items;
  }

  List<Entry> entries() {
    return entries;
  }

  /** The column and FROM entry a reference resolves to. */
  Resolution resolve(Column column) {
    String name = unquote(column.getColumnName());
    Table qualifier = column.getTable();
    if (qualifier != null && qualifier.getName() != null) {
      Entry entry = qualified(unquote(qualifier.getName()), column);
      return schema
          .columnByKey(entry.schemaTable() + "." + name)
          .map(c -> new Resolution(c.key(), entry.qualifier()))
          .orElseThrow(
              () -> unresolved(column, "table " + entry.schemaTable() + " has no column " + name));
    }
    for (QueryScope scope = this; scope != null; scope = scope.outer) {
      for (Entry entry : scope.entries) {
        if (entry.schemaTable() != null) {
          Optional<SchemaColumn> found = schema.columnByKey(entry.schemaTable() + "." + name);
          if (found.isPresent()) {
            return new Resolution(found.get().key(), entry.qualifier());
          }
        }
      }
    }
    throw unresolved(column, "no table in FROM has a column " + name);
  }

  private Entry qualified(String qualifier, Column column) {
    for (QueryScope scope = this; scope != null; scope = scope.outer) {
      Optional<Entry> entry = scope.named(qualifier);
      if (entry.isPresent()) {
        if (entry.get().schemaTable() == null) {
          throw unresolved(column, qualifier + " is a nested query, not a table");
        }
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
        .filter(e -> e.schemaTable() != null && e.schemaTable().equalsIgnoreCase(qualifier))
        .findFirst();
  }

  private Entry entry(FromItem item) {
    String alias = item.getAlias() == null ? null : item.getAlias().getName();
    if (item instanceof Table table) {
      String name = unquote(table.getName());
      String schemaTable =
          schema
              .tableNamed(name)
              .orElseThrow(
                  () ->
                      new SqlAnalysisException(
                          "unknown table " + table.getName() + " (not in " + schema.dbId() + ")"));
      return new Entry(table.getName(), alias, schemaTable);
    }
    if (item instanceof ParenthesedSelect) {
      return new Entry(null, alias, null);
    }
    throw new SqlAnalysisException("unsupported FROM item: " + item);
  }

  private static SqlAnalysisException unresolved(Column column, String why) {
    return new SqlAnalysisException("cannot resolve column " + column + ": " + why);
  }

  /** An identifier without its quotes ({@code "x"}, {@code `x`}, {@code [x]}). */
  static String unquote(String identifier) {
    if (identifier.length() >= 2) {
      char first = identifier.charAt(0);
      char last = identifier.charAt(identifier.length() - 1);
      if ((first == '"' && last == '"')
          || (first == '`' && last == '`')
          || (first == '[' && last == ']')) {
        return identifier.substring(1, identifier.length() - 1);
      }
    }
    return identifier;
  }
}

package rolepolicy.spider;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import rolepolicy.model.SchemaColumn;

/**
 * One Spider database schema. Column index 0 is Spider's {@code *}; tables and columns keep the
 * schema's order.
 */
public final class Schema {
  private final String dbId;
  private final List<String> tables;
  private final List<SchemaColumn> columns;
  private final Map<String, SchemaColumn> byKey = new LinkedHashMap<>();
  private final String[] keys;
  private final Map<String, String> tableByLowerName = new LinkedHashMap<>();
  private final List<ForeignKey> foreignKeys;

  /**
   * One entry of Spider's {@code foreign_keys}: a column and the column it references, both as
   * indexes into {@code column_names_original}.
   */
  public record ForeignKey(int column, int references) {}

  public Schema(String dbId, List<String> tables, List<SchemaColumn> columns) {
    this(dbId, tables, columns, List.of());
  }

  public Schema(
      String dbId, List<String> tables, List<SchemaColumn> columns, List<ForeignKey> foreignKeys) {
    this.dbId = dbId;
    this.tables = List.copyOf(tables);
    this.columns = List.copyOf(columns);
    this.foreignKeys = List.copyOf(foreignKeys);
    for (String table : tables) {
      tableByLowerName.putIfAbsent(table.toLowerCase(Locale.ROOT), table);
    }
    this.keys = new String[this.columns.size()];
    for (int i = 0; i < keys.length; i++) {
      SchemaColumn column = this.columns.get(i);
      keys[i] = column.key();
      if (column.index() > 0) {
        byKey.putIfAbsent(keys[i], column);
      }
    }
  }

  public String dbId() {
    return dbId;
  }

  /** Original table names in schema order. */
  public List<String> tables() {
    return tables;
  }

  /** All columns in schema order, {@code *} first. */
  public List<SchemaColumn> columns() {
    return columns;
  }

  /** The real columns (without {@code *}) in schema order. */
  public List<SchemaColumn> realColumns() {
    return columns.subList(Math.min(1, columns.size()), columns.size());
  }

  public boolean hasColumnIndex(int index) {
    return index >= 0 && index < columns.size();
  }

  public SchemaColumn column(int index) {
    return columns.get(index);
  }

  /** The key of the column at this index: {@link SchemaColumn#key()}, computed once. */
  public String key(int index) {
    return keys[index];
  }

  /** The column with this {@code table.column} key (case-insensitive). */
  public Optional<SchemaColumn> columnByKey(String key) {
    return Optional.ofNullable(byKey.get(key.toLowerCase(Locale.ROOT)));
  }

  /** The original name of a table, looked up case-insensitively. */
  public Optional<String> tableNamed(String name) {
    return Optional.ofNullable(tableByLowerName.get(name.toLowerCase(Locale.ROOT)));
  }

  /** The columns of one table (original name, any case), in schema order. */
  public List<SchemaColumn> columnsOf(String table) {
    return realColumns().stream().filter(c -> c.table().equalsIgnoreCase(table)).toList();
  }

  /** Spider's {@code foreign_keys}, in file order (empty for a schema built without them). */
  public List<ForeignKey> foreignKeys() {
    return foreignKeys;
  }

  /** Whether the column at this index references another, or is referenced, in {@code foreign_keys}. */
  public boolean inForeignKey(int index) {
    return foreignKeys.stream().anyMatch(fk -> fk.column() == index || fk.references() == index);
  }

  /** Columns keyed by {@code table.column}, lower-cased, in schema order. */
  public Map<String, SchemaColumn> columnsByKey() {
    return Collections.unmodifiableMap(byKey);
  }
}

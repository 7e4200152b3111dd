package rolepolicy.engine;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import rolepolicy.model.PolicedColumn;

/** The policies of every column of one database, in schema order. */
public final class DatabasePolicies {
  private final String dbId;
  private final List<ColumnPolicy> columns;
  private final Map<String, List<ColumnPolicy>> byTable = new LinkedHashMap<>();
  private final Map<String, List<PolicedColumn>> policedByTable = new LinkedHashMap<>();

  public DatabasePolicies(String dbId, List<ColumnPolicy> columns) {
    this.dbId = dbId;
    this.columns = List.copyOf(columns);
    for (ColumnPolicy column : columns) {
      byTable
          .computeIfAbsent(column.column().table().toLowerCase(java.util.Locale.ROOT), t -> new java.util.ArrayList<>())
          .add(column);
    }
    byTable.forEach(
        (table, ofTable) -> policedByTable.put(table, ofTable.stream().map(ColumnPolicy::policed).toList()));
  }

  public String dbId() {
    return dbId;
  }

  public List<ColumnPolicy> columns() {
    return columns;
  }

  /** The columns of one table (any case), in schema order; empty for an unknown table. */
  public List<ColumnPolicy> ofTable(String table) {
    return byTable.getOrDefault(table.toLowerCase(java.util.Locale.ROOT), List.of());
  }

  /** The policed columns of these tables (lower-cased names), table by table, in schema order. */
  public List<PolicedColumn> policed(java.util.Collection<String> tables) {
    List<PolicedColumn> columns = new java.util.ArrayList<>();
    for (String table : tables) {
      columns.addAll(policedByTable.getOrDefault(table.toLowerCase(java.util.Locale.ROOT), List.of()));
    }
    return columns;
  }
}

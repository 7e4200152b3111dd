package rolepolicy.tablescore;

import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The columns result rows are matched on, by table (names without regard to case): a table's
 * document id ({@code id} unless named otherwise) and, for tables with several entities per
 * document, an entity key that tells apart the rows of one id.
 */
public record KeyColumns(Map<String, String> idColumns, Map<String, String> entityKeys) {
  public KeyColumns {
    idColumns = lowerKeys(idColumns);
    entityKeys = lowerKeys(entityKeys);
  }

  public static KeyColumns none() {
    return new KeyColumns(Map.of(), Map.of());
  }

  public String idColumn(String table) {
    return idColumns.getOrDefault(table.toLowerCase(Locale.ROOT), "id");
  }

  public String entityKey(String table) {
    return entityKeys.get(table.toLowerCase(Locale.ROOT));
  }

  boolean isEntityKey(String table, String column) {
    String key = table == null ? null : entityKey(table);
    return key != null && key.equalsIgnoreCase(column);
  }

  private static Map<String, String> lowerKeys(Map<String, String> map) {
    Map<String, String> lower = new TreeMap<>();
    map.forEach((k, v) -> lower.put(k.toLowerCase(Locale.ROOT), v));
    return java.util.Collections.unmodifiableMap(lower);
  }
}

package rolepolicy.model;

import java.util.Locale;

/**
 * One column of a Spider schema, as the policy-assignment rules see it.
 *
 * @param dbId the database
 * @param index the column's position in {@code column_names_original} (0 is {@code *})
 * @param table the table's original name
 * @param name the column's original name
 * @param type Spider's column type
 * @param primaryKey whether Spider lists it in {@code primary_keys}
 */
public record SchemaColumn(
    String dbId, int index, String table, String name, String type, boolean primaryKey) {

  /** The output key: {@code table.column}, lower-cased (SPEC §3). */
  public String key() {
    return keyOf(table, name);
  }

  /** The name lower-cased: the policy rules match names case-insensitively. */
  public String lowerName() {
    return name.toLowerCase(Locale.ROOT);
  }

  public static String keyOf(String table, String column) {
    return (table + "." + column).toLowerCase(Locale.ROOT);
  }
}

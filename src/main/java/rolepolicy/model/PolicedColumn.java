package rolepolicy.model;

import java.util.Locale;

/**
 * A column with its final policy, as the permission, rewrite and negative rules see it.
 *
 * @param key {@code table.column}, lower-cased
 * @param table the table's original name
 * @param name the column's original name
 * @param index the column's position in the schema (column order)
 * @param primaryKey whether the schema lists it as a primary key
 * @param policy the final policy (after overrides)
 */
public record PolicedColumn(
    String key, String table, String name, int index, boolean primaryKey, Policy policy) {

  public String lowerName() {
    return name.toLowerCase(Locale.ROOT);
  }

  public String lowerTable() {
    return table.toLowerCase(Locale.ROOT);
  }
}

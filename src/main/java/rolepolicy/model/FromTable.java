package rolepolicy.model;

/**
 * A table of the top-level FROM clause.
 *
 * @param table the table's original name
 * @param position its place in the FROM clause, from 0
 */
public record FromTable(String table, int position) {
  public String lowerTable() {
    return table.toLowerCase(java.util.Locale.ROOT);
  }
}

package rolepolicy.sql;

/**
 * A table of the top-level FROM clause, as the SQL text writes it.
 *
 * @param table the table name as written
 * @param alias the alias as written, or null
 * @param schemaTable the table's original name in the schema
 */
public record TextTable(String table, String alias, String schemaTable) {
  /** What qualifies a column of this table in the text: the alias if any, else the name. */
  public String qualifier() {
    return alias != null ? alias : table;
  }
}

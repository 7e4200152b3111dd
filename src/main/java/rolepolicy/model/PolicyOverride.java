package rolepolicy.model;

/**
 * One entry of {@code data/overrides.json} (SPEC §3).
 *
 * @param entry the entry's 1-based position in the file, for error messages
 */
public record PolicyOverride(
    int entry,
    String dbId,
    String table,
    String column,
    Policy autoPolicy,
    Policy finalPolicy,
    String reason) {

  /** The key of the column it names: {@code table.column}, lower-cased. */
  public String key() {
    return SchemaColumn.keyOf(table, column);
  }

  public String describe() {
    return "override #" + entry + " (" + dbId + " " + table + "." + column + ")";
  }
}

package rolepolicy.tablescore;

/**
 * One column of the gold result as the scorer sees it.
 *
 * @param name the column's name in the gold result
 * @param role how it is scored
 * @param description what the attribute means (for the judge), or null
 * @param valueType the attribute's {@code value_type}, or null
 */
public record ScoredColumn(String name, ColumnRole role, String description, String valueType) {
  public static ScoredColumn of(String name, ColumnRole role) {
    return new ScoredColumn(name, role, null, null);
  }
}

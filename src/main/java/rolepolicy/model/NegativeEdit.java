package rolepolicy.model;

/**
 * Conclusion of a negative rule: the one edit that makes the violating example.
 *
 * @param code the spec's rule code, {@code N1}, {@code N2} or {@code N3}
 * @param rule the rule that chose it
 * @param appendColumn N1/N3: the column to append to the SELECT list; else null
 * @param fromTable N1/N3: the FROM table it belongs to; else null
 * @param dropAggregateOf N2: the SELECT item that loses its aggregate; else null
 * @param introduces the policy the edit must break: its column, selected bare, violates it
 */
public record NegativeEdit(
    String code,
    String rule,
    PolicedColumn appendColumn,
    FromTable fromTable,
    SelectItem dropAggregateOf,
    Policy introduces) {
  /** The column key of the column the edit selects bare. */
  public String column() {
    return appendColumn != null ? appendColumn.key() : dropAggregateOf.column();
  }
}

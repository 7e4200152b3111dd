package rolepolicy.model;

/**
 * Conclusion of a negative rule: the one edit that makes the violating example.
 *
 * @param code the spec's rule code, {@code N1}, {@code N2} or {@code N3}
 * @param rule the rule that chose it
 * @param appendColumn N1/N3: the column to append to the SELECT list; else null
 * @param fromTable N1/N3: the FROM table it belongs to; else null
 * @param dropAggregateOf N2: the SELECT item that loses its aggregate; else null
 */
public record NegativeEdit(
    String code,
    String rule,
    PolicedColumn appendColumn,
    FromTable fromTable,
    SelectItem dropAggregateOf) {}

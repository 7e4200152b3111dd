package rolepolicy.model;

/**
 * Conclusion of a permission rule about what a query reads beyond its named references: a column
 * that a {@code *} reads, or a table read with no column it may read.
 *
 * @param table the table, lower-cased
 * @param column the column's name, or null where the table as a whole is at fault
 * @param reason the reason code, e.g. {@code STAR_READS_HIDDEN}
 * @param rule the rule that concluded it
 */
public record ReadViolation(String table, String column, String reason, String rule) {}

package rolepolicy.model;

/**
 * Conclusion of a permission rule about a query as a whole, not one reference: {@code SELECT *}
 * reads every column of its tables, whatever their policies.
 *
 * @param reason the reason code, e.g. {@code SELECT_STAR}
 * @param description why, in words
 * @param rule the rule that concluded it
 */
public record QueryViolation(String reason, String description, String rule) {}

package rolepolicy.model;

/**
 * Conclusion of a review rule: a column's final policy looks suspicious. A flag never changes a
 * policy; it asks the reviewer to look.
 *
 * @param column the column key
 * @param text why, in words
 * @param rule the rule that flagged it
 */
public record ReviewFlag(String column, String text, String rule) {}

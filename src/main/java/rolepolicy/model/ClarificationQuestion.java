package rolepolicy.model;

/**
 * A policy clarification question, worded by a rule.
 *
 * @param violation the violation asked about, or null when the query breaks no column's policy
 *     (SELECT *)
 * @param text the question as the user reads it
 * @param rule the rule that asked it
 */
public record ClarificationQuestion(Violation violation, String text, String rule) {}

package rolepolicy.model;

/**
 * One answer a policy clarification offers, produced by a rule.
 *
 * @param code {@code R1}, {@code R2} (the rewrite the rules chose), {@code REFUSE} or {@code OTHER}
 * @param text the option as the user reads it
 * @param rule the rule that offered it
 * @param step the rewrite to apply when it is chosen, or null
 */
public record ClarificationOption(String code, String text, String rule, RewriteStep step) {}

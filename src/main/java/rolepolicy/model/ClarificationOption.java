package rolepolicy.model;

/**
 * One answer a policy clarification offers, produced by a rule.
 *
 * @param code {@code R1}, {@code R2} (the rewrite the rules chose), {@code COUNT(*)}, {@code
 *     REFUSE} or {@code OTHER}
 * @param text the option as the user reads it
 * @param rule the rule that offered it
 * @param edit the checked edit to apply when it is chosen, or null
 */
public record ClarificationOption(String code, String text, String rule, CheckedEdit edit) {
  /** The rewrite step of an R1 or R2 option, else null. */
  public RewriteStep step() {
    return edit == null ? null : edit.edit().step();
  }
}

package rolepolicy.model;

/**
 * An edit the clarification rules consider offering; it is offered only once checked ({@link
 * CheckedEdit}).
 *
 * @param code the option's code: {@code R1}, {@code R2} (the rewrite the rules chose) or {@code
 *     COUNT(*)}
 * @param rule the rule that proposed it
 * @param ref the violating reference the edit mends
 * @param step R1, R2: the rewrite to apply; else null
 * @param notNullFilter {@code COUNT(*)}: whether the edit also filters on {@code ref IS NOT NULL}
 * @param keepsResult whether the edited SQL must give the same result as the original on the
 *     database
 */
public record ProposedEdit(
    String code, String rule, ColumnRef ref, RewriteStep step, boolean notNullFilter, boolean keepsResult) {}

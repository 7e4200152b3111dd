package rolepolicy.model;

/**
 * Rewrite one violating reference (SPEC §6, point 3).
 *
 * @param code the spec's rule code, {@code R1} or {@code R2}
 * @param rule the rule that decided it
 * @param ref the reference to rewrite
 * @param replacement R1: the column that replaces it; else null
 * @param wrapAggId R2: the aggregate to wrap its SELECT item in; else 0
 */
public record RewriteStep(
    String code, String rule, ColumnRef ref, PolicedColumn replacement, int wrapAggId)
    implements Decision {}

package rolepolicy.model;

/**
 * Rewrite one violating reference (SPEC §6, point 3).
 *
 * @param code the spec's rule code, {@code R1} or {@code R2}
 * @param rule the rule that decided it
 * @param ref the reference to rewrite
 * @param replacement R1: the column that replaces it; else null
 * @param wrap R2: the aggregate to wrap its SELECT item in; else {@link Aggregate#NONE}
 */
public record RewriteStep(
    String code, String rule, ColumnRef ref, PolicedColumn replacement, Aggregate wrap)
    implements Decision {}

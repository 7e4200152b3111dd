package rolepolicy.model;

/**
 * Rewrite one violating reference (SPEC §6, point 3; a profile may add rewrites).
 *
 * @param code the rule's code, {@code R1}, {@code R2}, ...
 * @param rule the rule that decided it
 * @param ref the reference to rewrite
 * @param replacement R1: the column that replaces it; else null
 * @param wrap R2: the aggregate to wrap its SELECT item in; else {@link Aggregate#NONE}
 * @param counting what the step makes of the reference's {@code COUNT(column)} ({@link Counting#NONE}: R1, R2)
 * @param keepsResult the rewrite may be used only where the query's result stays the same on the
 *     question's database (the driver runs both and tells the rules, {@link ResultDiffers})
 */
public record RewriteStep(
    String code, String rule, ColumnRef ref, PolicedColumn replacement, Aggregate wrap, Counting counting,
    boolean keepsResult)
    implements Decision {

  /** R1 or R2 of SPEC §6. */
  public RewriteStep(String code, String rule, ColumnRef ref, PolicedColumn replacement, Aggregate wrap) {
    this(code, rule, ref, replacement, wrap, Counting.NONE, false);
  }
}

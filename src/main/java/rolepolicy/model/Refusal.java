package rolepolicy.model;

/**
 * The gold label is REFUSE.
 *
 * @param reason the reason code (SPEC §6), e.g. {@code R3}
 * @param rule the rule that decided it, or whose conclusion it stands on (R3, a failed rewrite)
 * @param ref the reference that caused it, or null (SELECT *, unresolved)
 * @param detail what went wrong, for a refusal the program's checks caused; else null
 */
public record Refusal(String reason, String rule, ColumnRef ref, String detail) implements Decision {
  public Refusal(String reason, String rule, ColumnRef ref) {
    this(reason, rule, ref, null);
  }
}

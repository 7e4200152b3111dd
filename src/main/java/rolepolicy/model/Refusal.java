package rolepolicy.model;

/**
 * The gold label is REFUSE.
 *
 * @param reason the reason code (SPEC §6), e.g. {@code R3}
 * @param rule the rule that decided it
 * @param ref the reference that caused it, or null (SELECT *, unresolved)
 */
public record Refusal(String reason, String rule, ColumnRef ref) implements Decision {}

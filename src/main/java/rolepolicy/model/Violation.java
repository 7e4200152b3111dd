package rolepolicy.model;

/** Conclusion of a permission rule: a reference uses its column in a forbidden way (SPEC §5). */
public record Violation(ColumnRef ref, Policy policy, String rule) {}

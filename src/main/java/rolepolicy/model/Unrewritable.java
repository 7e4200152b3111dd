package rolepolicy.model;

/** Conclusion of a classification rule: no rewrite covers this violation (SPEC §6, point 2). */
public record Unrewritable(Violation violation, String reason, String rule) {}

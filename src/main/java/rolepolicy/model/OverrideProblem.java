package rolepolicy.model;

/** Conclusion of an override check: the entry cannot be applied, and why. */
public record OverrideProblem(PolicyOverride override, String problem, String rule) {}

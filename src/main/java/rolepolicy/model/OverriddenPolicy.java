package rolepolicy.model;

/** Conclusion of the override rule: a column's final policy differs from its automatic one. */
public record OverriddenPolicy(SchemaColumn column, PolicyOverride override, String rule) {}

package rolepolicy.model;

/**
 * Conclusion of a profile's policy layer (a user tier): the column's final policy for this tier,
 * which replaces the automatic policy and any override, and the rule that set it.
 */
public record LayeredPolicy(SchemaColumn column, Policy policy, String rule) {}

package rolepolicy.model;

/** Conclusion of a naming rule: the automatic policy of a column and the rule that chose it. */
public record AssignedPolicy(SchemaColumn column, Policy policy, String rule) {}

package rolepolicy.model;

/**
 * The role a column reference plays in a query (SPEC §2, §4). Constant names are the output
 * strings; the words for a role are here, in the forms the tool's texts use.
 */
public enum Role {
  SelectExpr("selects", "selected", "in the SELECT list", "selected", "the SELECT list"),
  AggArg("aggregates", null, null, "aggregated", "aggregates"),
  JoinCond("joins on", "to join", "in a JOIN condition", "in a join condition", "JOIN conditions"),
  WherePred("filters on", "to filter, group or order", "in a WHERE filter", "in a WHERE condition", "WHERE"),
  // The clauses SPEC §4 leaves unjudged; a profile's rules may judge them.
  GroupKey("groups by", "to group", "in GROUP BY", "a GROUP BY key", "GROUP BY"),
  HavingPred("filters groups on", "to filter groups", "in a HAVING condition", "in a HAVING condition", "HAVING"),
  OrderKey("orders by", "to order", "in ORDER BY", "an ORDER BY key", "ORDER BY");

  private final String verb;
  private final String purpose;
  private final String place;
  private final String kind;
  private final String clause;

  Role(String verb, String purpose, String place, String kind, String clause) {
    this.verb = verb;
    this.purpose = purpose;
    this.place = place;
    this.kind = kind;
    this.clause = clause;
  }

  /** The clause the role stands in, for a prompt: "GROUP BY", "JOIN conditions". */
  public String clause() {
    return clause;
  }

  /** What a query does with the column: "The query selects singer.age". */
  public String verb() {
    return verb;
  }

  /** What the column is used for: "singer.name (selected)", "singer.age (averaged)". */
  public String purpose(Aggregate aggregate) {
    return this == AggArg ? aggregate.participle() : purpose;
  }

  /** Where the column stands: "in the SELECT list", "inside COUNT(...)". */
  public String place(Aggregate aggregate) {
    if (this != AggArg) {
      return place;
    }
    return aggregate.none() ? "inside an aggregate" : "inside " + aggregate.name() + "(...)";
  }

  /** How a violating reference uses its column: "selected", "aggregated (agg 3)" (Spider's id). */
  public String kind(int aggregateId) {
    return this == AggArg ? kind + " (agg " + aggregateId + ")" : kind;
  }

  /**
   * Whether the role is that of a reference in GROUP BY, HAVING or ORDER BY (of any query, nested
   * or not; a nested query's own SELECT items keep SPEC §4's roles), which SPEC §4 leaves unjudged. These references follow SPEC §4's in walk order; under an
   * aggregate they keep this role and carry the aggregate.
   */
  public boolean unjudgedInSpec() {
    return this == GroupKey || this == HavingPred || this == OrderKey;
  }

  /** The role of an output string, or null for another string. */
  public static Role named(String name) {
    for (Role r : values()) {
      if (r.name().equals(name)) {
        return r;
      }
    }
    return null;
  }
}

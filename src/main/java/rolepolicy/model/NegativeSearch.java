package rolepolicy.model;

/** Asks the negative rules for one violating edit of the top-level query (SPEC §7). */
public record NegativeSearch() {}

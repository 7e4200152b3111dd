package rolepolicy.model;

/** Asks the rewrite rules for a gold-label decision; {@code step} rewrites have been made so far. */
public record RewriteRound(int step) {}

package rolepolicy.model;

/**
 * A rewrite that must keep the answer did not: on the question's database the rewritten query's
 * result is not the original's, or it could not be made or run ({@code detail} says which).
 */
public record ResultDiffers(RewriteStep step, String detail) {}

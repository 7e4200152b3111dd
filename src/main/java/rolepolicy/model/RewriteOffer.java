package rolepolicy.model;

/**
 * A profile's rewrite is available for a violation: the rules that say no rewrite exists stand back
 * ({@code rewrites.drl}), and the profile's rule decides the step.
 */
public record RewriteOffer(Violation violation, String code, String rule) {}

package rolepolicy.model;

/** Asks the clarification rules ({@code rules/clarify.drl}) to word a question; absent, they stay silent. */
public record ClarificationRequest() {}

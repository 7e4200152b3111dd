package rolepolicy.model;

/**
 * The query's SQL text does not analyse to the facts its Spider AST gives.
 *
 * @param problem how they differ
 * @param textViolations the violations the text has when analysed on its own; -1 when it cannot be
 *     analysed
 */
public record UnverifiedText(String problem, int textViolations) {}

package rolepolicy.model;

/**
 * The program could not make a rewrite step's edit on the query's SQL text, or the edited text
 * does not analyse to the edited facts: the step the rules decided cannot be taken.
 *
 * @param step the step the rules decided
 * @param detail why, in words
 */
public record UnverifiedEdit(RewriteStep step, String detail) {}

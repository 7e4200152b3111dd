package rolepolicy.model;

/**
 * What the rules need to know about a query as a whole.
 *
 * @param selectStar a bare {@code *} stands in a SELECT list, at any depth
 * @param unresolved a reference or part of the AST could not be resolved
 * @param setOperation the top-level query has INTERSECT, UNION or EXCEPT
 */
public record QueryShape(boolean selectStar, boolean unresolved, boolean setOperation) {}

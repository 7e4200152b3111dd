package rolepolicy.skeleton;

/**
 * The parts of a query that its op signature names, in the signature's fixed order (after {@code
 * SELECT}, which every signature starts with).
 */
enum Op {
  /** A join: JOIN ... ON, JOIN ... USING, or a comma between FROM items. */
  JOIN,
  GROUPBY,
  HAVING,
  /** ORDER BY of a query (a window's ORDER BY counts as WINDOW). */
  ORDER,
  /** LIMIT or OFFSET. */
  LIMIT,
  UNION,
  INTERSECT,
  /** EXCEPT, or its other spelling MINUS. */
  EXCEPT,
  EXISTS,
  /**
   * A query nested in an expression or in FROM (not a WITH definition, not a set-operation part).
   */
  SUBQUERY,
  /** WITH. */
  CTE,
  /** A window function (OVER) or a WINDOW clause. */
  WINDOW,
  CASE
}

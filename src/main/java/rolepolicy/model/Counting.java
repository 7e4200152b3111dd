package rolepolicy.model;

/** What a rewrite makes of a {@code COUNT(column)}: nothing, a count of rows, a count of groups. */
public enum Counting {
  /** The step does not change a count. */
  NONE,
  /** {@code COUNT(key)} becomes {@code COUNT(*)}. */
  ROWS,
  /**
   * {@code SELECT COUNT(DISTINCT key) FROM ... WHERE ...} becomes {@code SELECT COUNT(*) FROM
   * (SELECT COUNT(*) FROM ... WHERE ... GROUP BY key)}: the number of groups, no key shown.
   */
  GROUPS
}

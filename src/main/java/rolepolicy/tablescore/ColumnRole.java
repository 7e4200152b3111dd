package rolepolicy.tablescore;

/** How a column of a result table takes part in scoring. */
public enum ColumnRole {
  /** Matches result rows to gold rows (an id, an entity key, a GROUP BY column); never scored. */
  KEY,
  /** One value per cell, right or wrong. */
  VALUE,
  /** Several values per cell separated by {@code ||}: precision and recall over the values. */
  MULTI_VALUE,
  /** An aggregate: each cell scores 1 / (1 + relative error); precision = recall = F1. */
  AGGREGATE
}

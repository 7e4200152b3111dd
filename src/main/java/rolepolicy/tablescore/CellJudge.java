package rolepolicy.tablescore;

/** Decides whether a result cell says the same as the gold cell. */
public interface CellJudge {
  /** Whether {@code result} means the same as {@code gold} for {@code column}; either may be null. */
  boolean same(ScoredColumn column, Object gold, Object result);
}

package rolepolicy.tablescore;

/**
 * Two choices the seed's formula leaves open (precision = right cells / result rows, recall =
 * right cells / gold rows, matched rows ordered by id), read one way or the other.
 */
public enum Readings {
  /**
   * This project's: a gold and a result both empty agree (precision = recall = 1, where the
   * formula gives 0/0); rows sharing an id are paired in the order of their values.
   */
  OURS,
  /**
   * The UDA-Bench authors' evaluator's: both empty score 0 (0/0 counted as 0); rows sharing an id
   * are paired in file order.
   */
  AUTHORS;

  /** The score of a column when the gold or the result has no row. */
  double empty(int goldRows, int resultRows) {
    return goldRows == 0 && resultRows == 0 && this == OURS ? 1 : 0;
  }

  /** The name as given on the command line and in summary.json. */
  public String label() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }
}

package rolepolicy.interact;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.regex.Pattern;
import rolepolicy.db.Execution;
import rolepolicy.evaluate.ResultMatch;
import rolepolicy.tablescore.CellText;

/** How a round's result is compared with the gold result; the mode is named in every output. */
public enum ResultComparison {
  /**
   * The recorded runs' authors' comparison: equal row counts; rows in order when the gold SQL has
   * ORDER BY, else as sets (duplicates collapse); the values of a row regardless of column order.
   */
  AUTHORS,
  /** The evaluator's: rows as multisets (in order under ORDER BY), columns in order. */
  STRICT;

  private static final Pattern ORDER_BY = Pattern.compile("(?i)\\border\\s+by\\b");

  /** Whether two successful executions match. */
  public boolean matches(Execution gold, Execution predicted, String goldSql) {
    boolean ordered = ORDER_BY.matcher(goldSql).find();
    if (this == STRICT) {
      return predicted.message() == null && ResultMatch.matches(gold.rows(), predicted.rows(), ordered);
    }
    if (gold.rows().size() != predicted.rows().size()) {
      return false;
    }
    List<List<String>> a = rowsAsBags(gold.rows());
    List<List<String>> b = rowsAsBags(predicted.rows());
    return ordered ? a.equals(b) : new HashSet<>(a).equals(new HashSet<>(b));
  }

  /** Each row's values as canonical text, sorted: the order of the columns does not count. */
  private static List<List<String>> rowsAsBags(List<List<Object>> rows) {
    List<List<String>> result = new ArrayList<>(rows.size());
    for (List<Object> row : rows) {
      List<String> values = new ArrayList<>(row.size());
      row.forEach(v -> values.add(CellText.exact(v)));
      values.sort(null);
      result.add(values);
    }
    return result;
  }
}

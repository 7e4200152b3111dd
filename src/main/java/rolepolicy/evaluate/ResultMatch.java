package rolepolicy.evaluate;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import rolepolicy.db.Execution;
import rolepolicy.db.SqliteRunner;
import rolepolicy.engine.ResultCheck;
import rolepolicy.tablescore.CellText;

/**
 * Compares two query results as Spider's execution accuracy does: rows as multisets (as lists
 * when the gold query has ORDER BY), columns in order, numbers by value ({@code 1} equals {@code
 * 1.0}), NULL equal to NULL.
 */
public final class ResultMatch {
  private ResultMatch() {}

  /**
   * Whether a rewrite keeps the answer: both queries run on the question's database and give the
   * same result, compared as above (as a list when the query before has ORDER BY).
   */
  public static ResultCheck sameResult(SqliteRunner runner) {
    return (dbId, before, after) -> {
      Execution a = runner.run(dbId, before);
      if (a.status() != Execution.Status.OK) {
        return "the query before the rewrite does not run on " + dbId + ": " + a.status() + " " + a.message();
      }
      Execution b = runner.run(dbId, after);
      if (b.status() != Execution.Status.OK) {
        return "the rewritten query does not run on " + dbId + ": " + b.status() + " " + b.message();
      }
      return matches(a.rows(), b.rows(), ORDER_BY.matcher(before).find()) ? null
          : "the rewritten query's result on " + dbId + " is not the original's (" + a.rows().size() + " rows, "
              + b.rows().size() + " rows)";
    };
  }

  private static final java.util.regex.Pattern ORDER_BY = java.util.regex.Pattern.compile("(?i)\\border\\s+by\\b");

  public static boolean matches(List<List<Object>> gold, List<List<Object>> predicted, boolean ordered) {
    if (gold.size() != predicted.size()) {
      return false;
    }
    List<List<String>> a = normalise(gold);
    List<List<String>> b = normalise(predicted);
    if (!ordered) {
      a.sort(BY_VALUES);
      b.sort(BY_VALUES);
    }
    return a.equals(b);
  }

  /** Rows value by value: a row's joined text can tie rows that differ, breaking the sort. */
  private static final Comparator<List<String>> BY_VALUES = (x, y) -> {
    for (int i = 0; i < Math.min(x.size(), y.size()); i++) {
      int c = x.get(i).compareTo(y.get(i));
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(x.size(), y.size());
  };

  private static List<List<String>> normalise(List<List<Object>> rows) {
    List<List<String>> result = new ArrayList<>(rows.size());
    for (List<Object> row : rows) {
      List<String> values = new ArrayList<>(row.size());
      for (Object value : row) {
        values.add(canonical(value));
      }
      result.add(values);
    }
    return result;
  }

  /** A text that is equal for equal values: numbers by value, the rest as text, NULL apart. */
  static String canonical(Object value) {
    return CellText.exact(value);
  }
}

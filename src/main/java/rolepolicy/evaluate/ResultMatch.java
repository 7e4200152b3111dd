package rolepolicy.evaluate;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import rolepolicy.tablescore.CellText;

/**
 * Compares two query results as Spider's execution accuracy does: rows as multisets (as lists
 * when the gold query has ORDER BY), columns in order, numbers by value ({@code 1} equals {@code
 * 1.0}), NULL equal to NULL.
 */
public final class ResultMatch {
  private ResultMatch() {}

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

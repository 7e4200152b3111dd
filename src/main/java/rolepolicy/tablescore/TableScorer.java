package rolepolicy.tablescore;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Scores a result table against the gold result, column by column (docs/result-tables.md).
 *
 * <p>With key columns, result rows are matched to gold rows of the same key; rows that share a
 * key are paired in the order of their values (file order under {@link Readings#AUTHORS}). Each
 * scored column then gets precision = right
 * cells / result rows and recall = right cells / gold rows (multi-valued cells count fractions of
 * a cell; aggregates score 1 / (1 + relative error) per cell, over the larger row count). Without
 * key columns (only where the gold has none, as in Spider), each column's cells are compared as
 * multisets, or position by position when the gold is ordered.
 */
public final class TableScorer {
  /** Values of a multi-valued cell are separated by this. */
  public static final String MULTI_SEPARATOR = "||";

  private final CellJudge judge;
  private final Readings readings;

  public TableScorer(CellJudge judge) {
    this(judge, Readings.OURS);
  }

  public TableScorer(CellJudge judge, Readings readings) {
    this.judge = judge;
    this.readings = readings;
  }

  /**
   * @param columns the gold result's columns, in its order
   * @param resultIndex for each gold column, the result column that answers it, or -1
   * @param ordered whether the gold result is ordered (matters without keys only)
   */
  public TableScore score(
      List<ScoredColumn> columns, Table gold, Table result, int[] resultIndex, boolean ordered) {
    List<Integer> keys = new ArrayList<>();
    for (int c = 0; c < columns.size(); c++) {
      if (columns.get(c).role() == ColumnRole.KEY) {
        keys.add(c);
      }
    }
    int g = gold.rows().size();
    int r = result.rows().size();
    List<String> warnings = new ArrayList<>();
    List<int[]> pairs = keys.isEmpty() ? List.of() : pairByKey(gold, result, keys, resultIndex, warnings);
    List<ColumnScore> scores = new ArrayList<>();
    for (int c = 0; c < columns.size(); c++) {
      ScoredColumn column = columns.get(c);
      if (column.role() == ColumnRole.KEY) {
        continue;
      }
      int rc = resultIndex[c];
      if (rc < 0) {
        scores.add(ColumnScore.of(column.name(), column.role(), 0, 0));
      } else if (keys.isEmpty()) {
        scores.add(byValue(column, gold, result, c, rc, ordered));
      } else {
        scores.add(byPairs(column, gold, result, c, rc, pairs));
      }
    }
    if (scores.isEmpty()) {
      // every column is a key: the rows themselves are the answer
      scores.add(rowsAsAnswer(keys.isEmpty() ? 0 : pairs.size(), g, r));
    }
    List<List<Object>> matchedGold = new ArrayList<>();
    List<List<Object>> matchedResult = new ArrayList<>();
    for (int[] p : pairs) {
      matchedGold.add(gold.rows().get(p[0]));
      List<Object> row = new ArrayList<>();
      for (int c = 0; c < columns.size(); c++) {
        row.add(resultIndex[c] < 0 ? null : result.rows().get(p[1]).get(resultIndex[c]));
      }
      matchedResult.add(row);
    }
    return new TableScore(
        keys.stream().map(k -> columns.get(k).name()).toList(), g, r, pairs.size(), scores,
        mean(scores, ColumnScore::precision), mean(scores, ColumnScore::recall), mean(scores, ColumnScore::f1),
        matchedGold, matchedResult, warnings);
  }

  /** The pseudo-column "(rows)": matched rows over result rows and over gold rows. */
  private ColumnScore rowsAsAnswer(int matched, int g, int r) {
    if (g == 0 || r == 0) {
      double s = readings.empty(g, r);
      return ColumnScore.of(ROWS, ColumnRole.KEY, s, s);
    }
    return ColumnScore.of(ROWS, ColumnRole.KEY, (double) matched / r, (double) matched / g);
  }

  /** The name of the figures of a table whose columns are all keys. */
  public static final String ROWS = "(rows)";

  /** Gold and result row pairs with equal keys, sorted by key. */
  private List<int[]> pairByKey(
      Table gold, Table result, List<Integer> keys, int[] resultIndex, List<String> warnings) {
    Map<List<String>, List<Integer>> goldGroups = group(gold.rows(), keys, k -> k);
    Map<List<String>, List<Integer>> resultGroups = group(result.rows(), keys, k -> resultIndex[k]);
    List<List<String>> matchedKeys = new ArrayList<>();
    int repeated = 0;
    for (List<String> key : goldGroups.keySet()) {
      if (resultGroups.containsKey(key)) {
        matchedKeys.add(key);
        repeated += goldGroups.get(key).size() > 1 || resultGroups.get(key).size() > 1 ? 1 : 0;
      }
    }
    if (repeated > 0) {
      warnings.add(repeated + " key value(s) repeat among the matched rows; rows sharing a key are paired in "
          + (readings == Readings.OURS ? "the order of their values" : "file order"));
    }
    matchedKeys.sort(KEY_ORDER);
    List<int[]> pairs = new ArrayList<>();
    for (List<String> key : matchedKeys) {
      List<Integer> g = readings == Readings.OURS ? byValues(goldGroups.get(key), gold.rows()) : goldGroups.get(key);
      List<Integer> r = readings == Readings.OURS ? byValues(resultGroups.get(key), result.rows()) : resultGroups.get(key);
      for (int i = 0; i < Math.min(g.size(), r.size()); i++) {
        pairs.add(new int[] {g.get(i), r.get(i)});
      }
    }
    return pairs;
  }

  private static Map<List<String>, List<Integer>> group(
      List<List<Object>> rows, List<Integer> keys, Function<Integer, Integer> column) {
    Map<List<String>, List<Integer>> groups = new LinkedHashMap<>();
    for (int i = 0; i < rows.size(); i++) {
      List<String> key = new ArrayList<>(keys.size());
      for (int k : keys) {
        int c = column.apply(k);
        key.add(c < 0 ? "\u0000missing" : CellText.key(rows.get(i).get(c)));
      }
      groups.computeIfAbsent(key, x -> new ArrayList<>()).add(i);
    }
    return groups;
  }

  /** Rows in the order of their values' normal forms (ties: their order in the table). */
  private static List<Integer> byValues(List<Integer> indexes, List<List<Object>> rows) {
    if (indexes.size() < 2) {
      return indexes;
    }
    Map<Integer, List<String>> forms = new HashMap<>();
    for (int i : indexes) {
      forms.put(i, rows.get(i).stream().map(CellText::key).toList());
    }
    List<Integer> sorted = new ArrayList<>(indexes);
    sorted.sort(Comparator.comparing(forms::get, KEY_ORDER));
    return sorted;
  }

  /** Keys in order: numbers by value before text, text in code-point order. */
  static final Comparator<List<String>> KEY_ORDER = (a, b) -> {
    for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
      int c = compareKey(a.get(i), b.get(i));
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(a.size(), b.size());
  };

  private static int compareKey(String a, String b) {
    if (a.startsWith("n:") && b.startsWith("n:")) {
      int c = new java.math.BigDecimal(a.substring(2)).compareTo(new java.math.BigDecimal(b.substring(2)));
      if (c != 0) {
        return c;
      }
    }
    return a.compareTo(b);
  }

  private ColumnScore byPairs(ScoredColumn column, Table gold, Table result, int gc, int rc, List<int[]> pairs) {
    int g = gold.rows().size();
    int r = result.rows().size();
    double precisionSum = 0;
    double recallSum = 0;
    for (int[] p : pairs) {
      Object goldCell = gold.rows().get(p[0]).get(gc);
      Object resultCell = result.rows().get(p[1]).get(rc);
      switch (column.role()) {
        case VALUE -> {
          double right = judge.same(column, goldCell, resultCell) ? 1 : 0;
          precisionSum += right;
          recallSum += right;
        }
        case MULTI_VALUE -> {
          double[] pr = multiValue(column, goldCell, resultCell);
          precisionSum += pr[0];
          recallSum += pr[1];
        }
        case AGGREGATE -> {
          double s = aggregate(column, goldCell, resultCell);
          precisionSum += s;
          recallSum += s;
        }
        case KEY -> throw new IllegalStateException("keys are not scored");
      }
    }
    if (column.role() == ColumnRole.AGGREGATE) {
      double s = g == 0 && r == 0 ? readings.empty(g, r) : ratio(precisionSum, Math.max(g, r));
      return new ColumnScore(column.name(), column.role(), s, s, s);
    }
    if (g == 0 || r == 0) {
      double s = readings.empty(g, r);
      return ColumnScore.of(column.name(), column.role(), s, s);
    }
    return ColumnScore.of(column.name(), column.role(), precisionSum / r, recallSum / g);
  }

  /** Cell precision and recall of a multi-valued cell: gold values found among the result's. */
  double[] multiValue(ScoredColumn column, Object goldCell, Object resultCell) {
    List<String> gold = values(goldCell);
    List<String> result = values(resultCell);
    if (gold.isEmpty() || result.isEmpty()) {
      double s = gold.isEmpty() && result.isEmpty() ? 1 : 0;
      return new double[] {s, s};
    }
    boolean[] used = new boolean[result.size()];
    int matched = 0;
    for (String g : gold) {
      for (int i = 0; i < result.size(); i++) {
        if (!used[i] && judge.same(column, g, result.get(i))) {
          used[i] = true;
          matched++;
          break;
        }
      }
    }
    return new double[] {(double) matched / result.size(), (double) matched / gold.size()};
  }

  static List<String> values(Object cell) {
    String text = CellText.text(cell);
    if (text == null) {
      return List.of();
    }
    List<String> values = new ArrayList<>();
    for (String v : text.split(java.util.regex.Pattern.quote(MULTI_SEPARATOR), -1)) {
      if (!v.isBlank()) {
        values.add(v.strip());
      }
    }
    return values;
  }

  /** 1 / (1 + |x − gt| / |gt|); with gt = 0, 1 / (1 + |x|); text aggregates (MIN of a name) by the judge. */
  double aggregate(ScoredColumn column, Object goldCell, Object resultCell) {
    Double gt = CellText.number(goldCell);
    Double x = CellText.number(resultCell);
    if (gt != null && x != null) {
      double error = gt == 0 ? Math.abs(x) : Math.abs(x - gt) / Math.abs(gt);
      return 1 / (1 + error);
    }
    return judge.same(column, goldCell, resultCell) ? 1 : 0;
  }

  /** Without keys: each column's cells as multisets (or position by position when ordered). */
  private ColumnScore byValue(ScoredColumn column, Table gold, Table result, int gc, int rc, boolean ordered) {
    int g = gold.rows().size();
    int r = result.rows().size();
    if (g == 0 || r == 0) {
      double s = readings.empty(g, r);
      return ColumnScore.of(column.name(), column.role(), s, s);
    }
    int right = 0;
    if (ordered) {
      for (int i = 0; i < Math.min(g, r); i++) {
        right += exact(gold.rows().get(i).get(gc)).equals(exact(result.rows().get(i).get(rc))) ? 1 : 0;
      }
    } else {
      Map<String, Integer> counts = new HashMap<>();
      gold.rows().forEach(row -> counts.merge(exact(row.get(gc)), 1, Integer::sum));
      for (List<Object> row : result.rows()) {
        String v = exact(row.get(rc));
        Integer left = counts.get(v);
        if (left != null && left > 0) {
          counts.put(v, left - 1);
          right++;
        }
      }
    }
    return ColumnScore.of(column.name(), column.role(), (double) right / r, (double) right / g);
  }

  private static String exact(Object value) {
    return CellText.exact(value);
  }

  private static double mean(List<ColumnScore> scores, java.util.function.ToDoubleFunction<ColumnScore> f) {
    return scores.stream().mapToDouble(f).average().orElse(0);
  }

  private static double ratio(double part, double whole) {
    return whole == 0 ? 0 : part / whole;
  }
}

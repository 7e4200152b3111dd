package rolepolicy.report;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/** Small counting helpers with a fixed order and fixed rounding, so figures are reproducible. */
public final class Counts {
  private Counts() {}

  /** {@code 100 * count / total}, rounded half up to two decimals; 0 when total is 0. */
  static double percent(long count, long total) {
    if (total == 0) {
      return 0;
    }
    return BigDecimal.valueOf(count * 100L)
        .divide(BigDecimal.valueOf(total), 2, RoundingMode.HALF_UP)
        .doubleValue();
  }

  static double round2(double value) {
    return BigDecimal.valueOf(value).setScale(2, RoundingMode.HALF_UP).doubleValue();
  }

  /** A counter whose result lists the largest count first, ties by key. */
  static final class Counter {
    private final Map<String, Integer> counts = new TreeMap<>();

    void add(String key) {
      add(key, 1);
    }

    void add(String key, int n) {
      counts.merge(key == null ? "(none)" : key, n, Integer::sum);
    }

    int get(String key) {
      return counts.getOrDefault(key, 0);
    }

    Map<String, Integer> byCount() {
      Map<String, Integer> sorted = new LinkedHashMap<>();
      counts.entrySet().stream()
          .sorted(Map.Entry.<String, Integer>comparingByValue(Comparator.reverseOrder()).thenComparing(Map.Entry.comparingByKey()))
          .forEach(e -> sorted.put(e.getKey(), e.getValue()));
      return sorted;
    }

    /** The largest key, null when empty. */
    String top() {
      return byCount().keySet().stream().findFirst().orElse(null);
    }
  }
}

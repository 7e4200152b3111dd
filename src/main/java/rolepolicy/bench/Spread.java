package rolepolicy.bench;

import java.util.List;
import java.util.Locale;

/** Median, minimum and maximum of some measurements. */
public record Spread(double median, double min, double max, int n) {
  public static Spread of(List<Double> values) {
    if (values.isEmpty()) {
      return new Spread(Double.NaN, Double.NaN, Double.NaN, 0);
    }
    double[] v = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    int n = v.length;
    double median = n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    return new Spread(median, v[0], v[n - 1], n);
  }

  public String format(String unit, String pattern) {
    return String.format(Locale.ROOT, "median " + pattern + " %s (min " + pattern + ", max " + pattern + ", %d runs)",
        median, unit, min, max, n);
  }
}

package rolepolicy.compare;

import java.util.Locale;
import rolepolicy.compare.Bootstrap.Difference;
import rolepolicy.compare.Bootstrap.Interval;

/** Figures as the terminal and the page write them: "72.4 % [68.1, 76.5]", "p = 0.031". */
final class Cells {
  private Cells() {}

  static String interval(Measure m, Interval i) {
    if (i == null || i.estimate() == null) {
      return "-";
    }
    String value = number(m.percent(), i.estimate()) + (m.percent() ? " %" : "");
    return i.low() == null ? value : value + " [" + number(m.percent(), i.low()) + ", " + number(m.percent(), i.high()) + "]";
  }

  /** A difference in percentage points (pp), with its interval. */
  static String difference(Difference d) {
    if (d == null || d.difference() == null) {
      return "-";
    }
    String value = String.format(Locale.ROOT, "%+.1f pp", 100 * d.difference());
    return d.low() == null ? value : value + String.format(Locale.ROOT, " [%+.1f, %+.1f]", 100 * d.low(), 100 * d.high());
  }

  static String p(Double p) {
    if (p == null) {
      return "-";
    }
    return p >= 0.001 ? String.format(Locale.ROOT, "%.3f", p) : String.format(Locale.ROOT, "%.1e", p);
  }

  /** Only a / only b, the raw p and Holm's adjusted p. */
  static String mcnemar(McNemar t, Double holm) {
    return t == null ? "-" : t.aOnly() + " / " + t.bOnly() + ", p " + p(t.p()) + " (Holm " + p(holm) + ")";
  }

  private static String number(boolean percent, double v) {
    return percent ? String.format(Locale.ROOT, "%.1f", 100 * v) : String.format(Locale.ROOT, "%.3f", v);
  }
}

package rolepolicy.report;

import rolepolicy.html.Html;
import static rolepolicy.html.Charts.AMBER;
import static rolepolicy.html.Charts.BASE;
import static rolepolicy.html.Charts.EXPECTED;
import static rolepolicy.html.Charts.IN;
import static rolepolicy.html.Charts.NEUTRAL;
import static rolepolicy.html.Charts.OUT;
import static rolepolicy.html.Charts.category;
import static rolepolicy.html.Charts.dashed;
import static rolepolicy.html.Charts.rangeLines;
import static rolepolicy.html.Charts.render;
import static rolepolicy.html.Charts.style;

import java.awt.Color;
import java.awt.Font;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.knowm.xchart.AnnotationLine;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.HeatMapChart;
import org.knowm.xchart.HeatMapChartBuilder;
import rolepolicy.report.QaFigures.DatabaseFigures;
import rolepolicy.report.QaFigures.NegativeFigures;
import rolepolicy.report.QaFigures.PolicyFigures;
import rolepolicy.report.QaFigures.RefuseSpread;
import rolepolicy.report.QaFigures.SplitFigures;
import rolepolicy.html.Charts.Image;

/** The QA report's charts, drawn with the pages' chart kit ({@link rolepolicy.html.Charts}). */
final class QaCharts {
  private QaCharts() {}

  /** Q1 or Q2 for every split, bars green in range and red out of it, the range as dashed lines. */
  static Image shareBySplit(String title, List<SplitFigures> splits, boolean q1) {
    CategoryChart chart = category(title, 260 + 100 * splits.size(), 300, "split", "% of questions");
    List<String> names = splits.stream().map(SplitFigures::split).toList();
    List<Double> in = new ArrayList<>();
    List<Double> out = new ArrayList<>();
    double low = 0;
    double high = 0;
    double max = 0;
    StringBuilder alt = new StringBuilder(title);
    for (SplitFigures s : splits) {
      QaFigures.Check c = q1 ? s.q1() : s.q2();
      alt.append(", ").append(s.split()).append(' ').append(Html.pct(c.value())).append(c.inRange() ? " in range" : " out of range");
      in.add(c.inRange() ? c.value() : 0);
      out.add(c.inRange() ? 0 : c.value());
      low = c.low();
      high = c.high();
      max = Math.max(max, c.value());
    }
    chart.getStyler().setOverlapped(true);
    chart.getStyler().setYAxisMin(0.0);
    chart.getStyler().setYAxisMax(Math.ceil(Math.max(max, high) / 10 + 0.5) * 10);
    chart.addSeries("in range", names, in).setFillColor(IN);
    chart.addSeries("out of range", names, out).setFillColor(OUT);
    rangeLines(chart, low, high);
    QaFigures.Check first = q1 ? splits.get(0).q1() : splits.get(0).q2();
    return render(chart, alt + " (expected " + first.expected() + ")");
  }

  /** Width of a bin of the Q3 histogram, in percentage points of REFUSE rate. */
  static final int BIN = 5;

  /**
   * Q3: how many databases have each REFUSE rate, in bins of {@link #BIN} points, outliers stacked
   * in red; the mean and ±2 sd as vertical lines. Its size does not depend on the number of
   * databases; the outliers are named in the table below it.
   */
  static Image refuseByDatabase(String split, List<DatabaseFigures> databases, RefuseSpread spread) {
    return render(
        refuseHistogram(split, databases, spread),
        "Histogram of the REFUSE rate per database, " + databases.size() + " databases, mean " + Html.pct(spread.meanPercent())
            + ", standard deviation " + Html.pct(spread.sdPercent()) + ", " + spread.outliers().size() + " outliers");
  }

  static CategoryChart refuseHistogram(String split, List<DatabaseFigures> databases, RefuseSpread spread) {
    int bins = 100 / BIN;
    List<String> names = new ArrayList<>();
    Integer[] normal = new Integer[bins];
    Integer[] outlier = new Integer[bins];
    for (int b = 0; b < bins; b++) {
      names.add(b * BIN + "–" + (b + 1) * BIN);
      normal[b] = 0;
      outlier[b] = 0;
    }
    for (DatabaseFigures d : databases) {
      int b = Math.min(bins - 1, (int) Math.floor(d.refusePercent() / BIN));
      if (Math.abs(d.zScore()) > 2) {
        outlier[b]++;
      } else {
        normal[b]++;
      }
    }
    String count = databases.size() + (databases.size() == 1 ? " database" : " databases");
    CategoryChart chart = category("REFUSE rate per database (" + split + ", " + count + ")", 640, 360,
        "% of the database's questions labelled REFUSE", "databases");
    chart.getStyler().setStacked(true);
    chart.getStyler().setXAxisLabelRotation(45);
    chart.getStyler().setAxisTickLabelsFont(BASE.deriveFont(10f));
    chart.getStyler().setAvailableSpaceFill(0.95);
    int highest = 0;
    for (int b = 0; b < bins; b++) {
      highest = Math.max(highest, normal[b] + outlier[b]);
    }
    double top = Math.ceil(highest * 1.2) + 1; // room for the line labels above the bars
    chart.getStyler().setYAxisMin(0.0);
    chart.getStyler().setYAxisMax(top);
    chart.getStyler().setYAxisDecimalPattern("#,##0");
    chart.addSeries("database", names, List.of(normal)).setFillColor(NEUTRAL);
    chart.addSeries("outlier (> 2 sd from the mean)", names, List.of(outlier)).setFillColor(OUT);
    chart.getStyler().setAnnotationLineColor(Color.DARK_GRAY);
    chart.getStyler().setAnnotationLineStroke(dashed());
    chart.getStyler().setAnnotationTextFont(BASE.deriveFont(Font.BOLD, 11f));
    chart.getStyler().setAnnotationTextFontColor(Color.BLACK);
    double low = spread.meanPercent() - 2 * spread.sdPercent();
    double high = spread.meanPercent() + 2 * spread.sdPercent();
    verticalLine(chart, spread.meanPercent(), "mean " + Html.pct(spread.meanPercent()), top * 0.95, true);
    if (low > 0 && spread.sdPercent() > 0) {
      verticalLine(chart, low, "−2 sd " + Html.pct(low), top * 0.87, false);
    }
    if (high < 100 && spread.sdPercent() > 0) {
      verticalLine(chart, high, "+2 sd " + Html.pct(high), top * 0.87, true);
    }
    return chart;
  }

  /** Q4: negatives per rule, and questions without one by cause. */
  static Image negatives(String split, NegativeFigures q4) {
    List<String> names = new ArrayList<>();
    List<Integer> made = new ArrayList<>();
    List<Integer> none = new ArrayList<>();
    q4.byRule().forEach((rule, n) -> { names.add(rule); made.add(n); none.add(0); });
    q4.withoutByCause().forEach((cause, n) -> { names.add("none: " + shortCause(cause)); made.add(0); none.add(n); });
    CategoryChart chart = category("Negative examples (" + split + ")", 560, 340, null, "questions");
    chart.getStyler().setOverlapped(true);
    chart.getStyler().setXAxisLabelRotation(30);
    chart.addSeries("negative made", names, made).setFillColor(NEUTRAL);
    chart.addSeries("no negative", names, none).setFillColor(AMBER);
    return render(chart, "Negatives per rule and questions without one: " + describeInts(names, made, none));
  }

  /** A cause of "no negative" short enough for an axis label. */
  static String shortCause(String cause) {
    return switch (cause) {
      case SplitQa.SET_OPERATION -> "set operation";
      case SplitQa.NO_CANDIDATE -> "no candidate";
      case SplitQa.UNRESOLVED -> "unresolved";
      case SplitQa.TEXT_DISAGREES -> "text ≠ AST";
      case SplitQa.DROPPED -> "dropped";
      default -> cause;
    };
  }

  /** Q5: violations by role × policy as a heat map with the counts in the cells. */
  static Image rolePolicyHeatMap(String split, Map<String, Map<String, Integer>> grid) {
    StringBuilder alt = new StringBuilder("Violations by role and policy:");
    grid.forEach((role, row) -> row.forEach((policy, n) -> alt.append(' ').append(role).append('/').append(policy).append(' ').append(n).append(';')));
    return render(rolePolicyHeatMapChart(split, grid), alt.toString());
  }

  static HeatMapChart rolePolicyHeatMapChart(String split, Map<String, Map<String, Integer>> grid) {
    List<String> roles = new ArrayList<>(grid.keySet());
    List<String> policies = new ArrayList<>(grid.values().iterator().next().keySet());
    java.util.Collections.reverse(policies); // y runs upwards: the first policy on top, as in the table
    List<Number[]> cells = new ArrayList<>();
    int max = 1;
    for (int x = 0; x < roles.size(); x++) {
      for (int y = 0; y < policies.size(); y++) {
        int n = grid.get(roles.get(x)).getOrDefault(policies.get(y), 0);
        cells.add(new Number[] {x, y, n});
        max = Math.max(max, n);
      }
    }
    HeatMapChart chart = new HeatMapChartBuilder().width(560).height(350).title("Violations: role × policy (" + split + ")")
        .xAxisTitle("role of the column in the query").yAxisTitle("policy of the column").build();
    style(chart.getStyler());
    chart.getStyler().setShowValue(true);
    chart.getStyler().setValueFont(BASE.deriveFont(Font.BOLD, 13f));
    chart.getStyler().setValueFontColor(Color.BLACK);
    chart.getStyler().setHeatMapValueDecimalPattern("#,##0");
    chart.getStyler().setMin(0);
    chart.getStyler().setMax(max);
    chart.getStyler().setRangeColors(new Color[] {new Color(0xFFFFFF), new Color(0xFFCC80), new Color(0xE65100)});
    chart.getStyler().setDrawBorder(true);
    chart.getStyler().setLegendVisible(false);
    chart.getStyler().setPlotGridLinesVisible(false);
    chart.addSeries("violations", roles, policies, cells);
    return chart;
  }

  /** REFUSE gold labels by reason. */
  static Image refusalsByReason(String split, Map<String, Integer> byReason) {
    CategoryChart chart = category("REFUSE by reason (" + split + ")", 560, 330, null, "questions");
    List<String> names = new ArrayList<>(byReason.keySet());
    if (names.isEmpty()) {
      names.add("(none)");
    }
    List<Integer> values = names.stream().map(n -> byReason.getOrDefault(n, 0)).toList();
    chart.getStyler().setLegendVisible(false);
    chart.getStyler().setXAxisLabelRotation(names.size() > 4 ? 90 : 0);
    chart.addSeries("REFUSE", names, values).setFillColor(OUT);
    return render(chart, "REFUSE by reason: " + describeInts(names, values, null));
  }

  /** Columns per policy: SPEC §3's expected shares, the automatic policies, the final ones. */
  static Image policyDistribution(PolicyFigures p) {
    CategoryChart chart = category("Columns per policy (" + Html.number(p.columns()) + " columns)", 540, 330, null, "% of columns");
    List<String> names = PolicyQa.POLICIES;
    chart.getStyler().setYAxisMin(0.0);
    chart.getStyler().setYAxisMax(100.0);
    if (p.notCompared() == null) {
      chart.addSeries("SPEC §3 expected", names, names.stream().map(PolicyQa.EXPECTED::get).toList()).setFillColor(EXPECTED);
    }
    chart.addSeries("automatic (rules)", names, names.stream().map(n -> p.auto().percent().get(n)).toList()).setFillColor(NEUTRAL);
    chart.addSeries("final (after overrides)", names, names.stream().map(n -> p.finalPolicies().percent().get(n)).toList()).setFillColor(IN);
    return render(chart, "Columns per policy, expected, automatic and final: " + p.auto().percent() + " / " + p.finalPolicies().percent());
  }


  private static String describeInts(List<String> names, List<Integer> a, List<Integer> b) {
    StringBuilder s = new StringBuilder();
    for (int i = 0; i < names.size(); i++) {
      s.append(i == 0 ? "" : ", ").append(names.get(i)).append(' ').append(a.get(i) + (b == null ? 0 : b.get(i)));
    }
    return s.toString();
  }

  /**
   * A vertical line at a rate (percent) of the REFUSE histogram, whose x axis counts bins, with its
   * label beside it at height {@code y}: on the right if it fits, else on the left.
   */
  private static void verticalLine(CategoryChart chart, double percent, String label, double y, boolean right) {
    double x = percent / BIN;
    double pixelsPerBin = (chart.getWidth() - 100) / (100.0 / BIN);
    double halfLabel = label.length() * 3.6 / pixelsPerBin + 0.15; // about 7 px a character at 11 pt
    boolean onRight = right ? x + 2 * halfLabel < 100.0 / BIN : x - 2 * halfLabel < 0;
    chart.addAnnotation(new AnnotationLine(x, true, false));
    chart.addAnnotation(new org.knowm.xchart.AnnotationText(label, onRight ? x + halfLabel : x - halfLabel, y, false));
  }
}

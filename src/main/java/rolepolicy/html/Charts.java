package rolepolicy.html;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.knowm.xchart.AnnotationLine;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.AxesChartStyler;
import org.knowm.xchart.style.Styler;

/**
 * The chart kit of the tool's pages: charts drawn by XChart and encoded as PNG data URIs (twice the
 * pixel density of their page size, so they stay sharp on high-density screens), with the pages'
 * colours. PNG encoding has no timestamp: the same figures give the same bytes.
 */
public final class Charts {
  static {
    System.setProperty("java.awt.headless", "true");
  }

  public static final Color IN = new Color(0x2E7D32);
  public static final Color OUT = new Color(0xC62828);
  public static final Color NEUTRAL = new Color(0x3367D6);
  public static final Color MUTED = new Color(0x9AA0A6);
  public static final Color EXPECTED = new Color(0xB0BEC5);
  public static final Color AMBER = new Color(0xF9A825);

  public static final Font BASE = new Font(Font.SANS_SERIF, Font.PLAIN, 12);
  private static final int SCALE = 2;

  /** A rendered chart: its page size and the PNG as a data URI. */
  public record Image(int width, int height, String dataUri, String alt) {}

  private Charts() {}

  /**
   * A line per series of a rate (0–1) by round, drawn in percent; the series in the given order. A
   * rate with no value (null) leaves a gap. Each series has its own colour, marker shape and dash,
   * and each is drawn narrower than the one before, so lines on equal values stay visible.
   */
  public static CategoryChart byRound(String title, int rounds, Map<String, List<Double>> series) {
    List<String> names = new ArrayList<>();
    for (int r = 0; r <= rounds; r++) {
      names.add(String.valueOf(r));
    }
    CategoryChart chart = category(title, 680, 360, "round", "% of questions");
    chart.getStyler().setOverlapped(true);
    chart.getStyler().setYAxisMin(0.0);
    chart.getStyler().setYAxisMax(100.0);
    chart.getStyler().setMarkerSize(11);
    chart.getStyler().setDefaultSeriesRenderStyle(org.knowm.xchart.CategorySeries.CategorySeriesRenderStyle.Line);
    int i = 0;
    for (Map.Entry<String, List<Double>> e : series.entrySet()) {
      List<Double> percent = e.getValue().stream().map(v -> v == null ? null : 100 * v).toList();
      var line = chart.addSeries(e.getKey(), names, percent);
      line.setLineColor(LINE_COLORS[i % LINE_COLORS.length]);
      line.setMarkerColor(LINE_COLORS[i % LINE_COLORS.length]);
      line.setMarker(LINE_MARKERS[i % LINE_MARKERS.length]);
      line.setLineStyle(LINE_STROKES[i % LINE_STROKES.length]);
      i++;
    }
    return chart;
  }

  private static final Color[] LINE_COLORS = {NEUTRAL, MUTED, IN, AMBER, OUT};

  /** Largest first: a square under a circle under a diamond still shows its corners. */
  private static final org.knowm.xchart.style.markers.Marker[] LINE_MARKERS = {
    org.knowm.xchart.style.markers.SeriesMarkers.SQUARE,
    org.knowm.xchart.style.markers.SeriesMarkers.CIRCLE,
    org.knowm.xchart.style.markers.SeriesMarkers.DIAMOND,
    org.knowm.xchart.style.markers.SeriesMarkers.TRIANGLE_UP,
    org.knowm.xchart.style.markers.SeriesMarkers.TRIANGLE_DOWN
  };

  /** Widest first, each later one dashed: a later line on the same values leaves the earlier one showing. */
  private static final BasicStroke[] LINE_STROKES = {
    new BasicStroke(6f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND),
    new BasicStroke(3.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 10f, new float[] {10f, 5f}, 0f),
    new BasicStroke(2.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 10f, new float[] {3f, 3f}, 0f),
    new BasicStroke(2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 10f, new float[] {12f, 4f, 3f, 4f}, 0f),
    new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 10f, new float[] {2f, 2f}, 0f)
  };

  /**
   * One bar per category (its estimate) with its interval as an error bar from {@code low} to
   * {@code high}; null values are left out. XChart draws symmetric error bars only, so the interval
   * is an invisible series at its midpoint with half its width as the error.
   */
  public static Image withIntervals(String title, String xTitle, String yTitle, List<String> categories,
      List<Double> estimate, List<Double> low, List<Double> high, double scale, Double yMin, Double yMax) {
    int width = Math.max(360, 110 + 70 * categories.size());
    CategoryChart chart = category(title, width, 300, xTitle, yTitle);
    chart.getStyler().setOverlapped(true);
    chart.getStyler().setLegendVisible(false);
    chart.getStyler().setXAxisLabelRotation(categories.size() > 3 ? 20 : 0);
    chart.getStyler().setErrorBarsColor(Color.BLACK);
    chart.getStyler().setErrorBarsColorSeriesColor(false);
    if (yMin != null) {
      chart.getStyler().setYAxisMin(yMin);
    }
    if (yMax != null) {
      chart.getStyler().setYAxisMax(yMax);
    }
    List<Double> bars = new ArrayList<>();
    List<Double> middle = new ArrayList<>();
    List<Double> half = new ArrayList<>();
    StringBuilder alt = new StringBuilder(title);
    for (int i = 0; i < categories.size(); i++) {
      Double e = estimate.get(i);
      Double lo = low.get(i);
      Double hi = high.get(i);
      bars.add(e == null ? 0.0 : scale * e);
      boolean interval = lo != null && hi != null;
      middle.add(interval ? scale * (lo + hi) / 2 : 0.0);
      half.add(interval ? scale * (hi - lo) / 2 : 0.0);
      alt.append(", ").append(categories.get(i)).append(' ')
          .append(e == null ? "-" : String.format(java.util.Locale.ROOT, "%.3g", scale * e))
          .append(interval ? String.format(java.util.Locale.ROOT, " [%.3g, %.3g]", scale * lo, scale * hi) : "");
    }
    chart.addSeries("estimate", categories, bars).setFillColor(NEUTRAL);
    org.knowm.xchart.CategorySeries interval = chart.addSeries("95 % interval", categories, middle, half);
    interval.setChartCategorySeriesRenderStyle(org.knowm.xchart.CategorySeries.CategorySeriesRenderStyle.Line);
    interval.setLineStyle(org.knowm.xchart.style.lines.SeriesLines.NONE);
    interval.setMarker(org.knowm.xchart.style.markers.SeriesMarkers.NONE);
    interval.setLineColor(Color.BLACK);
    return render(chart, alt.toString());
  }

  /** The PNG bytes of a chart. */
  public static byte[] png(Chart<?, ?> chart) {
    return png(render(chart, ""));
  }

  /** The PNG bytes of a rendered chart. */
  public static byte[] png(Image image) {
    return Base64.getDecoder().decode(image.dataUri().substring(image.dataUri().indexOf(',') + 1));
  }

  // ---- styling and encoding -----------------------------------------------------------------

  public static CategoryChart category(String title, int width, int height, String xTitle, String yTitle) {
    CategoryChart chart =
        new CategoryChartBuilder().width(width).height(height).title(title).xAxisTitle(xTitle).yAxisTitle(yTitle).build();
    style(chart.getStyler());
    chart.getStyler().setLabelsVisible(false);
    chart.getStyler().setOverlapped(false);
    chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
    chart.getStyler().setLegendLayout(Styler.LegendLayout.Horizontal);
    chart.getStyler().setXAxisTitleVisible(xTitle != null);
    return chart;
  }

  public static void style(AxesChartStyler s) {
    s.setChartBackgroundColor(Color.WHITE);
    s.setPlotBackgroundColor(Color.WHITE);
    s.setPlotBorderColor(new Color(0xDADCE0));
    s.setLegendBorderColor(Color.WHITE);
    s.setChartTitleFont(BASE.deriveFont(Font.BOLD, 14f));
    s.setAxisTitleFont(BASE);
    s.setAxisTickLabelsFont(BASE.deriveFont(11f));
    s.setLegendFont(BASE.deriveFont(11f));
    s.setChartTitleBoxVisible(false);
    s.setPlotGridVerticalLinesVisible(false);
    s.setPlotGridLinesColor(new Color(0xECEFF1));
    s.setAxisTicksMarksVisible(false);
    s.setChartPadding(8);
    s.setAntiAlias(true);
    s.setDecimalPattern("#,##0.#");
  }



  public static void rangeLines(CategoryChart chart, double low, double high) {
    chart.getStyler().setAnnotationLineColor(Color.DARK_GRAY);
    chart.getStyler().setAnnotationLineStroke(dashed());
    chart.addAnnotation(new AnnotationLine(low, false, false));
    chart.addAnnotation(new AnnotationLine(high, false, false));
  }

  public static BasicStroke dashed() {
    return new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {6f, 4f}, 0f);
  }

  public static Image render(Chart<?, ?> chart, String alt) {
    int width = chart.getWidth();
    int height = chart.getHeight();
    BufferedImage image = new BufferedImage(width * SCALE, height * SCALE, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = image.createGraphics();
    try {
      g.setRenderingHint(RenderingHints.KEY_FRACTIONALMETRICS, RenderingHints.VALUE_FRACTIONALMETRICS_ON);
      g.scale(SCALE, SCALE);
      chart.paint(g, width, height);
    } finally {
      g.dispose();
    }
    ByteArrayOutputStream png = new ByteArrayOutputStream();
    try {
      ImageIO.write(image, "png", png);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new Image(width, height, "data:image/png;base64," + Base64.getEncoder().encodeToString(png.toByteArray()), alt);
  }


}

package rolepolicy.report;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategorySeries;
import org.knowm.xchart.HeatMapChart;
import rolepolicy.html.Charts;
import rolepolicy.report.QaFigures.DatabaseFigures;
import rolepolicy.report.QaFigures.RefuseSpread;

/** The report's charts read at any size: bounded categories, named axes, the same bytes for the same figures. */
class QaChartsTest {
  /** 140 databases (Spider train's count) with REFUSE rates spread over 0–100 %, the last two outliers. */
  private static List<DatabaseFigures> databases() {
    List<DatabaseFigures> dbs = new ArrayList<>();
    for (int i = 0; i < 140; i++) {
      double rate = i < 138 ? i * 0.5 : 95 + i - 138;
      dbs.add(new DatabaseFigures("database_with_a_long_name_" + i, 20, 5, (int) (rate / 5), rate, null, i < 138 ? 0 : 2.5));
    }
    return dbs;
  }

  private static final RefuseSpread SPREAD = new RefuseSpread(140, 35.0, 20.0, 0, 96, "|z| > 2", List.of());

  @Test
  void theRefuseChartOf140DatabasesHasABoundedNumberOfBarsThatCountEveryDatabase() {
    CategoryChart chart = QaCharts.refuseHistogram("train", databases(), SPREAD);
    int databases = 0;
    for (CategorySeries s : chart.getSeriesMap().values()) {
      assertEquals(100 / QaCharts.BIN, s.getXData().size(), "one bar per " + QaCharts.BIN + "-point band, whatever the databases");
      databases += s.getYData().stream().mapToInt(Number::intValue).sum();
    }
    assertEquals(140, databases);
    CategorySeries outliers = chart.getSeriesMap().get("outlier (> 2 sd from the mean)");
    assertEquals(2, outliers.getYData().stream().mapToInt(Number::intValue).sum());
    assertEquals(2, new ArrayList<Number>(outliers.getYData()).get(100 / QaCharts.BIN - 1).intValue(), "95 % and 96 % fall in the last band");
    assertEquals(640, chart.getWidth(), "the width does not grow with the databases");
  }

  @Test
  void theHeatMapNamesBothAxes() {
    Map<String, Map<String, Integer>> grid = new LinkedHashMap<>();
    grid.put("SelectExpr", new LinkedHashMap<>(Map.of("Hidden", 3)));
    grid.put("WherePred", new LinkedHashMap<>(Map.of("Hidden", 1)));
    HeatMapChart chart = QaCharts.rolePolicyHeatMapChart("dev", grid);
    assertTrue(chart.getStyler().isXAxisTitleVisible() && chart.getStyler().isYAxisTitleVisible());
    assertFalse(chart.getXAxisTitle() == null || chart.getXAxisTitle().isBlank(), "x axis: the role");
    assertFalse(chart.getYAxisTitle() == null || chart.getYAxisTitle().isBlank(), "y axis: the policy");
  }

  @Test
  void theSameFiguresGiveTheSamePngBytes() {
    byte[] first = Charts.png(QaCharts.refuseByDatabase("train", databases(), SPREAD));
    byte[] second = Charts.png(QaCharts.refuseByDatabase("train", databases(), SPREAD));
    assertArrayEquals(first, second);
  }
}

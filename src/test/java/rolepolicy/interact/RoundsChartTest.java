package rolepolicy.interact;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.BasicStroke;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategorySeries;
import rolepolicy.html.Charts;

/** rounds.png: lines on equal values stay visible, an undefined rate is a gap, the same figures the same bytes. */
class RoundsChartTest {
  /** A replay whose own match equals the recorded one at every round, as the recorded KaggleDBQA runs do. */
  private static List<RoundFigures> replay() {
    List<RoundFigures> rounds = new ArrayList<>();
    int[] matched = {13, 19, 19, 21, 22};
    for (int r = 0; r < matched.length; r++) {
      rounds.add(new RoundFigures(r, 63, matched[r], matched[r] / 63.0, 0, matched[r], matched[r] / 63.0, null, null, null));
    }
    return rounds;
  }

  @Test
  void ourMatchAndTheRecordedOneAreTwoLinesOfTheirOwnEvenWhenEqual() {
    CategoryChart chart = RoundsChart.chart(replay(), "authors");
    List<CategorySeries> series = new ArrayList<>(chart.getSeriesMap().values());
    assertEquals(List.of("execution match (authors)", "recorded"), series.stream().map(CategorySeries::getName).toList());
    assertEquals(new ArrayList<>(series.get(0).getYData()), new ArrayList<>(series.get(1).getYData()), "the data: equal, not moved");
    distinct(series);
  }

  @Test
  void fiveEqualLinesHaveFiveMarkersAndFiveStrokesEachNarrowerThanTheOneBelow() {
    Map<String, List<Double>> equal = new LinkedHashMap<>();
    for (String name : List.of("execution match (authors)", "compliant", "REFUSE precision", "REFUSE recall", "fifth")) {
      equal.put(name, List.of(0.5, 1.0, 1.0));
    }
    distinct(new ArrayList<>(Charts.byRound("t", 2, equal).getSeriesMap().values()));
  }

  @Test
  void anUndefinedRateIsAGapNotAZero() {
    Map<String, List<Double>> series = new LinkedHashMap<>();
    series.put("REFUSE precision", Arrays.asList(null, 1.0));
    List<? extends Number> y = new ArrayList<>(Charts.byRound("t", 1, series).getSeriesMap().get("REFUSE precision").getYData());
    assertNull(y.get(0));
    assertEquals(100.0, y.get(1).doubleValue());
  }

  @Test
  void theSameFiguresGiveTheSamePngBytes() {
    assertArrayEquals(RoundsChart.png(replay(), "authors"), RoundsChart.png(replay(), "authors"));
  }

  /** Each series its own marker shape and dash, and each drawn narrower than the one drawn before it. */
  private static void distinct(List<CategorySeries> series) {
    Set<Class<?>> markers = new HashSet<>();
    Set<String> dashes = new HashSet<>();
    float width = Float.MAX_VALUE;
    for (CategorySeries s : series) {
      assertNotNull(s.getMarker(), s.getName() + ": its marker is chosen, not left to the theme");
      assertNotNull(s.getLineStyle(), s.getName() + ": its stroke is chosen, not left to the theme");
      markers.add(s.getMarker().getClass());
      BasicStroke stroke = s.getLineStyle();
      dashes.add(Arrays.toString(stroke.getDashArray()));
      assertTrue(stroke.getLineWidth() < width, s.getName() + " is drawn over a wider line");
      width = stroke.getLineWidth();
    }
    assertEquals(series.size(), markers.size(), "marker shapes");
    assertEquals(series.size(), dashes.size(), "dash patterns");
  }
}

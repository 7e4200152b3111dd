package rolepolicy.interact;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.knowm.xchart.CategoryChart;
import rolepolicy.html.Charts;

/** {@code rounds.png} of interact: the cumulative rates of {@link RoundFigures} by round, one line each. */
public final class RoundsChart {
  static final String TITLE = "Cumulative figures by round";

  private RoundsChart() {}

  /**
   * The lines, in drawing order: the loop's execution match (under its comparison), the recorded
   * match of a replay, and for a policy dataset the compliant share and REFUSE precision and recall.
   */
  static Map<String, List<Double>> series(List<RoundFigures> byRound, String comparison) {
    Map<String, List<Double>> series = new LinkedHashMap<>();
    series.put("execution match (" + comparison + ")", byRound.stream().map(RoundFigures::matchRate).toList());
    if (byRound.get(0).recordedMatched() != null) {
      series.put("recorded", byRound.stream().map(RoundFigures::recordedMatchRate).toList());
    }
    if (byRound.get(0).policy() != null) {
      series.put("compliant", byRound.stream().map(f -> f.policy().compliance().compliantRate()).toList());
      series.put("REFUSE precision", byRound.stream().map(f -> f.policy().refuse().precision()).toList());
      series.put("REFUSE recall", byRound.stream().map(f -> f.policy().refuse().recall()).toList());
    }
    return series;
  }

  static CategoryChart chart(List<RoundFigures> byRound, String comparison) {
    return Charts.byRound(TITLE, byRound.size() - 1, series(byRound, comparison));
  }

  /** The chart as PNG bytes: the same figures give the same bytes. */
  public static byte[] png(List<RoundFigures> byRound, String comparison) {
    return Charts.png(chart(byRound, comparison));
  }
}

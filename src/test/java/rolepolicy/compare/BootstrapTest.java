package rolepolicy.compare;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import org.junit.jupiter.api.Test;
import rolepolicy.compare.Bootstrap.Difference;
import rolepolicy.compare.Bootstrap.Interval;
import rolepolicy.evaluate.Metrics;

/**
 * The bootstrap against values computed independently: a Python script that re-implements
 * java.util.Random (seed scrambling, the 48-bit LCG, nextInt with rejection) draws the same 200
 * resamples of 10 questions with seed 42, takes the compliance rate of each, sorts them and
 * reads the nearest ranks ⌈200 · 0.025⌉ = 5 and ⌈200 · 0.975⌉ = 195 (docs/compare.md gives the
 * script). Run a: 7 of 10 answers compliant; run b: 4 of 10. Python gives a's interval [0.4, 0.9],
 * the difference's [0.0, 0.5], and 13 resamples with |d* − 0.3| ≥ 0.3: p = 14 / 201.
 */
class BootstrapTest {
  static final Measure COMPLIANCE = Measure.byKey("compliance");

  private static double[] complianceValues(int compliant, int[][] draws) {
    Run run = Fixture.run("r", Fixture.compliantFirst(compliant));
    return Bootstrap.values(run.evaluation().results(), run.evaluation()::metrics, List.of(COMPLIANCE), draws)[0];
  }

  @Test
  void theDrawsAreJavaUtilRandomsInOrder() {
    assertArrayEquals(new int[] {0, 3, 8, 4, 0, 5, 5, 8, 9, 3}, Bootstrap.draws(42, 200, 10)[0], "Python's first resample");
  }

  @Test
  void complianceIntervalIsTheNearestRankPercentileComputedByHand() {
    int[][] draws = Bootstrap.draws(42, 200, 10);
    Interval interval = Bootstrap.interval(0.7, complianceValues(7, draws));
    assertEquals(new Interval(0.7, 0.4, 0.9, 200), interval);
  }

  @Test
  void pairedBootstrapOnComplianceGivesTheHandComputedPValue() {
    int[][] draws = Bootstrap.draws(42, 200, 10);
    Difference d = Bootstrap.difference(0.7, 0.4, complianceValues(7, draws), complianceValues(4, draws));
    assertEquals(0.7 - 0.4, d.difference(), 0);
    assertEquals(0.0, d.low(), 1e-12);
    assertEquals(0.5, d.high(), 1e-12);
    assertEquals(14.0 / 201, d.p(), 1e-15);
    assertEquals(200, d.defined());
  }

  @Test
  void nearestRanksOfSmallAndRoundCounts() {
    assertEquals(25, Bootstrap.rank(1000, Bootstrap.LOW_PER_MILLE));
    assertEquals(975, Bootstrap.rank(1000, Bootstrap.HIGH_PER_MILLE));
    assertEquals(1, Bootstrap.rank(10, Bootstrap.LOW_PER_MILLE), "⌈0.25⌉");
    assertEquals(10, Bootstrap.rank(10, Bootstrap.HIGH_PER_MILLE), "⌈9.75⌉");
  }

  @Test
  void undefinedResamplesAreLeftOut() {
    Interval i = Bootstrap.interval(0.5, new double[] {Double.NaN, 0.2, 0.8, Double.NaN});
    assertEquals(new Interval(0.5, 0.2, 0.8, 2), i);
    Interval none = Bootstrap.interval(null, new double[] {Double.NaN});
    assertNull(none.low());
    assertEquals(0, none.defined());
  }

  @Test
  void equalRunsDifferWithPOne() {
    int[][] draws = Bootstrap.draws(1, 50, 10);
    double[] v = complianceValues(6, draws);
    Difference d = Bootstrap.difference(0.6, 0.6, v, v);
    assertEquals(1.0, d.p());
    assertEquals(0.0, d.low());
  }

  @Test
  void theResampleMetricsAreEvaluatesMetrics() {
    Run run = Fixture.run("r", Fixture.compliantFirst(7));
    int[][] identity = {{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}};
    double[] v = Bootstrap.values(run.evaluation().results(), run.evaluation()::metrics, Measure.MAIN, identity)[Measure.MAIN.indexOf(Measure.byKey("rs_0"))];
    Metrics m = Metrics.of(run.evaluation().results(), true, false);
    assertEquals(m.reliability().rs0(), v[0]);
  }
}

package rolepolicy.compare;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.Function;
import rolepolicy.evaluate.Metrics;
import rolepolicy.evaluate.QuestionResult;

/**
 * The percentile bootstrap over questions (docs/compare.md): resample {@code b} draws {@code n}
 * question positions with replacement from {@code new java.util.Random(seed)}, one after the
 * other, {@code nextInt(n)} each; every run is resampled at the same positions, so that the
 * resamples are paired. Metrics of a resample are evaluate's {@link Metrics}.
 */
public final class Bootstrap {
  /** 2.5 % in each tail. */
  static final int LOW_PER_MILLE = 25;
  static final int HIGH_PER_MILLE = 975;
  /** Differences within this of the observed one count as equal in the paired p-value. */
  static final double TIE = 1e-12;

  private Bootstrap() {}

  /**
   * An estimate and its 95 % percentile interval.
   *
   * @param defined how many resamples define the measure (a rate with no denominator does not)
   */
  @JsonPropertyOrder({"estimate", "low", "high", "defined"})
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record Interval(Double estimate, Double low, Double high, int defined) {}

  /**
   * A paired difference of run a minus run b: its 95 % interval and the two-sided bootstrap
   * p-value (1 + #{|d* − d| ≥ |d|}) / (m + 1) over the m resamples that define both.
   */
  @JsonPropertyOrder({"difference", "low", "high", "p", "defined"})
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record Difference(Double difference, Double low, Double high, Double p, int defined) {}

  /** The positions of each resample: {@code resamples} arrays of {@code n} positions. */
  public static int[][] draws(long seed, int resamples, int n) {
    Random random = new Random(seed);
    int[][] draws = new int[resamples][n];
    for (int[] draw : draws) {
      for (int i = 0; i < n; i++) {
        draw[i] = random.nextInt(n);
      }
    }
    return draws;
  }

  /**
   * Every measure of one run on every resample: {@code [measure][resample]}, NaN where a
   * resample leaves the measure undefined.
   */
  public static double[][] values(List<QuestionResult> results, Function<List<QuestionResult>, Metrics> metrics,
      List<Measure> measures, int[][] draws) {
    double[][] values = new double[measures.size()][draws.length];
    QuestionResult[] sample = new QuestionResult[results.size()];
    for (int b = 0; b < draws.length; b++) {
      for (int i = 0; i < sample.length; i++) {
        sample[i] = results.get(draws[b][i]);
      }
      Metrics m = metrics.apply(Arrays.asList(sample));
      for (int k = 0; k < measures.size(); k++) {
        Double v = measures.get(k).of(m);
        values[k][b] = v == null ? Double.NaN : v;
      }
    }
    return values;
  }

  /**
   * The nearest-rank percentiles of the defined values v(1) ≤ … ≤ v(m): low = v(⌈0.025 m⌉), high
   * = v(⌈0.975 m⌉) (v(25) and v(975) of 1000).
   */
  public static Interval interval(Double estimate, double[] values) {
    double[] defined = Arrays.stream(values).filter(v -> !Double.isNaN(v)).sorted().toArray();
    int m = defined.length;
    if (m == 0) {
      return new Interval(estimate, null, null, 0);
    }
    return new Interval(estimate, defined[rank(m, LOW_PER_MILLE) - 1], defined[rank(m, HIGH_PER_MILLE) - 1], m);
  }

  /** The paired difference of {@code a} minus {@code b}, their resampled values at the same positions. */
  public static Difference difference(Double a, Double b, double[] aValues, double[] bValues) {
    if (a == null || b == null) {
      return new Difference(null, null, null, null, 0);
    }
    double d = a - b;
    double[] diffs = new double[aValues.length];
    int m = 0;
    int extreme = 0;
    for (int i = 0; i < aValues.length; i++) {
      double di = aValues[i] - bValues[i];
      if (Double.isNaN(di)) {
        continue;
      }
      diffs[m++] = di;
      extreme += Math.abs(di - d) >= Math.abs(d) - TIE ? 1 : 0;
    }
    Interval interval = interval(d, Arrays.copyOf(diffs, m));
    return new Difference(d, interval.low(), interval.high(), (1.0 + extreme) / (m + 1), m);
  }

  /** ⌈m · perMille / 1000⌉, at least 1. */
  static int rank(int m, int perMille) {
    return Math.max(1, (int) ((m * (long) perMille + 999) / 1000));
  }
}

package rolepolicy.compare;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.function.Function;

/**
 * Holm's step-down adjustment of the p-values of one test over the pairs of runs: sorted
 * ascending, the k-th smallest of m defined p-values becomes max over j ≤ k of min(1, (m − j + 1) ·
 * p(j)). It holds the family-wise error rate over the pairs at the level a raw p-value is read at.
 */
final class Holm {
  private Holm() {}

  /** The adjusted p-values, in the order given; null where the raw one is null (no test). */
  static Double[] adjust(Double[] p) {
    Integer[] order = java.util.stream.IntStream.range(0, p.length).filter(i -> p[i] != null).boxed().toArray(Integer[]::new);
    Arrays.sort(order, Comparator.comparingDouble(i -> p[i]));
    Double[] adjusted = new Double[p.length];
    int m = order.length;
    double running = 0;
    for (int k = 0; k < m; k++) {
      running = Math.max(running, Math.min(1, (m - k) * p[order[k]]));
      adjusted[order[k]] = running;
    }
    return adjusted;
  }

  /** The pairs with each test's p-values adjusted over all pairs. */
  static List<Comparison.Pair> over(List<Comparison.Pair> pairs) {
    Double[] execution = adjust(each(pairs, p -> p.execution() == null ? null : p.execution().p()));
    Double[] decision = adjust(each(pairs, p -> p.decision() == null ? null : p.decision().p()));
    Double[] compliance = adjust(each(pairs, p -> p.compliance() == null ? null : p.compliance().p()));
    Double[] refuseF1 = adjust(each(pairs, p -> p.refuseF1() == null ? null : p.refuseF1().p()));
    List<Comparison.Pair> out = new ArrayList<>(pairs.size());
    for (int i = 0; i < pairs.size(); i++) {
      Comparison.Pair p = pairs.get(i);
      out.add(new Comparison.Pair(p.a(), p.b(), p.execution(), p.decision(), p.compliance(), p.refuseF1(),
          new Comparison.Adjusted(execution[i], decision[i], compliance[i], refuseF1[i]), p.differing()));
    }
    return out;
  }

  private static Double[] each(List<Comparison.Pair> pairs, Function<Comparison.Pair, Double> p) {
    return pairs.stream().map(p).toArray(Double[]::new);
  }
}

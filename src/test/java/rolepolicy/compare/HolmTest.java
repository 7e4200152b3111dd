package rolepolicy.compare;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import org.junit.jupiter.api.Test;

/** Holm's step-down adjustment, worked by hand (docs/compare.md). */
class HolmTest {
  @Test
  void theKthSmallestOfMIsMultipliedByMMinusKPlusOneAndKeptMonotone() {
    Double[] p = {0.04, 0.01, 0.03, 0.02};
    // ascending 0.01, 0.02, 0.03, 0.04 → 0.04, 0.06, 0.06, 0.06 (0.03·2 = 0.06, 0.04·1 = 0.04 → kept at 0.06)
    assertArrayEquals(new Double[] {0.06, 0.04, 0.06, 0.06}, Holm.adjust(p));
  }

  @Test
  void noTestIsLeftOutOfTheCountAndAnAdjustedValueIsAtMostOne() {
    // two tests, not three: 0.001 · 2
    assertArrayEquals(new Double[] {null, 0.6, 0.002}, Holm.adjust(new Double[] {null, 0.6, 0.001}));
    assertArrayEquals(new Double[] {1.0, 1.0}, Holm.adjust(new Double[] {0.7, 0.8}));
    assertArrayEquals(new Double[] {}, Holm.adjust(new Double[] {}));
    assertArrayEquals(new Double[] {0.035}, Holm.adjust(new Double[] {0.035}), "one pair: nothing to adjust");
  }
}

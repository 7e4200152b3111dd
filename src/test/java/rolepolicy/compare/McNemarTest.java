package rolepolicy.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The exact McNemar p-value against values computed by hand. */
class McNemarTest {
  @Test
  void executionMatchPValueComputedByHand() {
    // 2 questions where only a matches, 9 where only b does: n = 11,
    // p = 2 · (C(11,0) + C(11,1) + C(11,2)) / 2^11 = 2 · (1 + 11 + 55) / 2048 = 134 / 2048
    assertEquals(134.0 / 2048, McNemar.exactP(2, 9), 0);
    assertEquals(McNemar.exactP(2, 9), McNemar.exactP(9, 2), 0, "two-sided: symmetric");
  }

  @Test
  void balancedAndEmptyDiscordanceGivePOne() {
    assertEquals(1.0, McNemar.exactP(0, 0));
    assertEquals(1.0, McNemar.exactP(3, 3), "2 · P(X ≤ 3 | n = 6) = 2 · 42/64 > 1");
    assertEquals(0.5, McNemar.exactP(0, 2), 0, "2 · 1/4");
  }

  @Test
  void countsTheFourCells() {
    boolean[] a = {true, true, false, false, true};
    boolean[] b = {true, false, true, false, false};
    McNemar t = McNemar.of(a, b);
    assertEquals(new McNemar(1, 2, 1, 1, McNemar.exactP(2, 1)), t);
    assertEquals(1.0, t.p(), "2 · (1 + 3) / 8 = 1");
  }

  @Test
  void largeCountsStayExact() {
    // n = 1000: 2^1000 is beyond a double's exponent range; Python's
    // 2 * sum(math.comb(1000, k) for k in range(451)) / 2**1000 gives 0.0017305360849763176
    assertEquals(0.0017305360849763176, McNemar.exactP(450, 550), 1e-16);
  }
}

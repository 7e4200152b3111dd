package rolepolicy.compare;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;

/**
 * The exact McNemar test of two runs on a per-question success: the two-sided binomial test
 * (p = ½) on the discordant questions. With b questions where only a succeeds and c where only b
 * does, n = b + c: p = min(1, 2 · Σ_{k ≤ min(b, c)} C(n, k) / 2ⁿ); p = 1 when n = 0.
 *
 * @param both questions where both runs succeed
 * @param aOnly where only the first run succeeds
 * @param bOnly where only the second does
 * @param neither where neither does
 */
@JsonPropertyOrder({"both", "a_only", "b_only", "neither", "p"})
public record McNemar(int both, @JsonProperty("a_only") int aOnly, @JsonProperty("b_only") int bOnly, int neither, double p) {

  public static McNemar of(boolean[] a, boolean[] b) {
    int both = 0;
    int aOnly = 0;
    int bOnly = 0;
    for (int i = 0; i < a.length; i++) {
      both += a[i] && b[i] ? 1 : 0;
      aOnly += a[i] && !b[i] ? 1 : 0;
      bOnly += !a[i] && b[i] ? 1 : 0;
    }
    return new McNemar(both, aOnly, bOnly, a.length - both - aOnly - bOnly, exactP(aOnly, bOnly));
  }

  /** The two-sided exact p-value of b against c discordant questions, computed in integers. */
  public static double exactP(int b, int c) {
    int n = b + c;
    if (n == 0) {
      return 1.0;
    }
    BigInteger tail = BigInteger.ZERO;
    BigInteger choose = BigInteger.ONE; // C(n, 0)
    for (int k = 0; k <= Math.min(b, c); k++) {
      tail = tail.add(choose);
      choose = choose.multiply(BigInteger.valueOf(n - k)).divide(BigInteger.valueOf(k + 1));
    }
    BigDecimal p = new BigDecimal(tail.shiftLeft(1)).divide(new BigDecimal(BigInteger.ONE.shiftLeft(n)), MathContext.DECIMAL64);
    return Math.min(1.0, p.doubleValue());
  }
}

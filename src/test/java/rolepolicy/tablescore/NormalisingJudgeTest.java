package rolepolicy.tablescore;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The deterministic cell judge, one kind of value at a time. */
class NormalisingJudgeTest {
  private static final NormalisingJudge JUDGE = new NormalisingJudge(1e-6);
  private static final ScoredColumn C = ScoredColumn.of("c", ColumnRole.VALUE);

  private static boolean same(Object gold, Object result) {
    return JUDGE.same(C, gold, result);
  }

  @Test
  void numbersEqualByValueWithinTheTolerance() {
    assertTrue(same(2011L, "2011.0"));
    assertTrue(same(715522L, "715,522"));
    assertTrue(same(0.1 + 0.2, "0.3"));
    assertFalse(same(400.739, "400.74"));
    assertTrue(new NormalisingJudge(0.01).same(C, 400.739, "400.74"));
    assertFalse(same(1L, "-1"));
  }

  @Test
  void datesEqualAsDates() {
    assertTrue(same("1839/1/9", "1839-01-09"));
    assertTrue(same("1839/1/9", "January 9, 1839"));
    assertTrue(same("1839/1/9", "9 Jan 1839"));
    assertTrue(same("1993/4", "April 1993"));
    assertFalse(same("1993/4", "1993/4/1"));
    assertFalse(same("1839/1/9", "1839/9/1"));
  }

  @Test
  void textEqualWithoutCaseWhiteSpaceOrPunctuation() {
    assertTrue(same("Impressionism", " impressionism "));
    assertTrue(same("St. George's  Hospital", "st georges hospital"));
    assertTrue(same("Post-Impressionism", "post impressionism"));
    assertFalse(same("Cubism", "Fauvism"));
  }

  @Test
  void emptyEqualsOnlyEmpty() {
    assertTrue(same(null, ""));
    assertTrue(same("  ", null));
    assertFalse(same(null, "0"));
    assertFalse(same("x", null));
  }
}

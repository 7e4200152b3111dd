package rolepolicy.interact;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import rolepolicy.db.Execution;

/** The two comparisons of a round's result with the gold result. */
class ResultComparisonTest {
  private static Execution rows(Object[]... rows) {
    return Execution.ok(List.of("a", "b"), Arrays.stream(rows).map(r -> Arrays.asList(r)).toList());
  }

  private static final String UNORDERED = "SELECT a, b FROM t";
  private static final String ORDERED = "SELECT a, b FROM t ORDER BY a";

  @Test
  void authorsIgnoreTheOrderOfColumns() {
    Execution gold = rows(new Object[] {1, "x"}, new Object[] {2, "y"});
    Execution swapped = rows(new Object[] {"x", 1}, new Object[] {"y", 2});
    assertTrue(ResultComparison.AUTHORS.matches(gold, swapped, UNORDERED));
    assertFalse(ResultComparison.STRICT.matches(gold, swapped, UNORDERED));
  }

  @Test
  void authorsCompareRowsAsSetsWithoutOrderBy() {
    Execution gold = rows(new Object[] {1, "x"}, new Object[] {1, "x"}, new Object[] {2, "y"});
    Execution other = rows(new Object[] {2, "y"}, new Object[] {1, "x"}, new Object[] {2, "y"});
    assertTrue(ResultComparison.AUTHORS.matches(gold, other, UNORDERED), "same rows as sets, same count");
    assertFalse(ResultComparison.STRICT.matches(gold, other, UNORDERED), "different multisets");
    assertFalse(ResultComparison.AUTHORS.matches(gold, rows(new Object[] {1, "x"}, new Object[] {2, "y"}), UNORDERED),
        "different row counts never match");
  }

  @Test
  void bothCompareInOrderWhenTheGoldHasOrderBy() {
    Execution gold = rows(new Object[] {1, "x"}, new Object[] {2, "y"});
    Execution reversed = rows(new Object[] {2, "y"}, new Object[] {1, "x"});
    assertFalse(ResultComparison.AUTHORS.matches(gold, reversed, ORDERED));
    assertFalse(ResultComparison.STRICT.matches(gold, reversed, ORDERED));
    assertTrue(ResultComparison.AUTHORS.matches(gold, reversed, UNORDERED));
    assertTrue(ResultComparison.STRICT.matches(gold, reversed, UNORDERED));
  }

  @Test
  void numbersCompareByValueAndNullIsNotTheTextNull() {
    assertTrue(ResultComparison.AUTHORS.matches(rows(new Object[] {1, null}), rows(new Object[] {1.0, null}), UNORDERED));
    assertFalse(ResultComparison.AUTHORS.matches(rows(new Object[] {1, null}), rows(new Object[] {1, "null"}), UNORDERED));
  }
}

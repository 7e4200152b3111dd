package rolepolicy.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** A condition added to the WHERE clause of a query of one SELECT block. */
class RowFilterTest {
  @Test
  void andsTheConditionWithAnExistingWhere() {
    assertEquals("SELECT count(*) FROM t WHERE (a = 1 OR b = 2) AND k IS NOT NULL GROUP BY c",
        RowFilter.and("SELECT count(*) FROM t WHERE a = 1 OR b = 2 GROUP BY c", "k IS NOT NULL"));
    assertEquals("SELECT count(*) FROM t WHERE (a = 'x where y') AND k IS NOT NULL;",
        RowFilter.and("SELECT count(*) FROM t WHERE a = 'x where y';", "k IS NOT NULL"));
  }

  @Test
  void addsAWhereBeforeTheClausesThatFollowIt() {
    assertEquals("SELECT c, count(*) FROM t WHERE k IS NOT NULL GROUP BY c ORDER BY c",
        RowFilter.and("SELECT c, count(*) FROM t GROUP BY c ORDER BY c", "k IS NOT NULL"));
    assertEquals("SELECT count(*) FROM t WHERE k IS NOT NULL", RowFilter.and("SELECT count(*) FROM t", "k IS NOT NULL"));
    assertEquals("SELECT count(*) FROM \"order\" WHERE k IS NOT NULL LIMIT 1",
        RowFilter.and("SELECT count(*) FROM \"order\" LIMIT 1", "k IS NOT NULL"));
  }

  @Test
  void refusesAQueryOfMoreThanOneSelectBlock() {
    for (String sql : new String[] {"SELECT count(*) FROM t WHERE a IN (SELECT a FROM u)",
        "SELECT count(*) FROM t UNION SELECT 1", "WITH x AS (SELECT 1) SELECT count(*) FROM x"}) {
      assertThrows(IllegalArgumentException.class, () -> RowFilter.and(sql, "k IS NOT NULL"), sql);
    }
  }
}

package rolepolicy.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.EnumMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import rolepolicy.TestData;
import rolepolicy.model.Policy;

/** SPEC §3's published figures for the official tables.json, reproduced by the rules. */
class PolicyDistributionTest {

  @Test
  void policyShareOverAllColumnsMatchesTheSpec() {
    Map<Policy, Integer> counts = new EnumMap<>(Policy.class);
    int total = 0;
    for (DatabasePolicies db : TestData.autoPolicies().values()) {
      for (ColumnPolicy c : db.columns()) {
        counts.merge(c.autoPolicy(), 1, Integer::sum);
        total++;
      }
    }
    assertEquals(4503, total);
    assertEquals("63.2", percent(counts.get(Policy.Public), total));
    assertEquals("28.1", percent(counts.get(Policy.JoinOnly), total));
    assertEquals("2.7", percent(counts.get(Policy.AggOnly), total));
    assertEquals("6.0", percent(counts.get(Policy.Hidden), total));
  }

  @Test
  void shareOfTablesAndDatabasesWithRestrictedColumnsMatchesTheSpec() {
    int tables = 0;
    int tablesWithHidden = 0;
    int tablesWithAggOnly = 0;
    int dbsWithEither = 0;
    for (DatabasePolicies db : TestData.autoPolicies().values()) {
      boolean either = false;
      for (String table : TestData.schemas().get(db.dbId()).tables()) {
        tables++;
        boolean hidden = has(db, table, Policy.Hidden);
        boolean aggOnly = has(db, table, Policy.AggOnly);
        tablesWithHidden += hidden ? 1 : 0;
        tablesWithAggOnly += aggOnly ? 1 : 0;
        either |= hidden || aggOnly;
      }
      dbsWithEither += either ? 1 : 0;
    }
    assertEquals("17.1", percent(tablesWithHidden, tables));
    assertEquals("11.3", percent(tablesWithAggOnly, tables));
    assertEquals("76.5", percent(dbsWithEither, TestData.autoPolicies().size()));
  }

  private static boolean has(DatabasePolicies db, String table, Policy policy) {
    return db.ofTable(table).stream().anyMatch(c -> c.autoPolicy() == policy);
  }

  private static String percent(int part, int whole) {
    return String.format(java.util.Locale.ROOT, "%.1f", 100.0 * part / whole);
  }
}

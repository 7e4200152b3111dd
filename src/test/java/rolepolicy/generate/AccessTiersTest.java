package rolepolicy.generate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import rolepolicy.TestData;
import rolepolicy.engine.ColumnPolicy;
import rolepolicy.io.InputException;
import rolepolicy.spider.AccessRecord;

/** Spider-AC's records as user tiers: each tier's databases, its role's policies, its questions in order. */
class AccessTiersTest {
  private static final String BIKE = "CREATE TABLE station (id bigint, name text, city text);";
  private static final String BIKE_GRANTS = "GRANT USAGE ON SCHEMA bike_1 TO bike_1_User_1; GRANT SELECT ON ALL TABLES IN SCHEMA bike_1 TO bike_1_User_1;"
      + " GRANT USAGE ON SCHEMA bike_1 TO bike_1_User_2; GRANT SELECT (name) ON bike_1.station TO bike_1_User_2;";
  private static final String SHOP = "CREATE TABLE shop (shop_id bigint, address text);";
  private static final String SHOP_GRANTS = "GRANT USAGE ON SCHEMA shop_1 TO shop_1_User_2; GRANT SELECT (shop_id) ON shop_1.shop TO shop_1_User_2;";

  private static AccessRecord record(int line, String db, String user, String sql) {
    boolean bike = db.equals("bike_1");
    return new AccessRecord(line, db, user, "q" + line, sql, bike ? BIKE_GRANTS : SHOP_GRANTS, bike ? BIKE : SHOP, "[]");
  }

  @Test
  void eachUserIsATierWithItsDatabasesItsRolesPoliciesAndItsQuestionsInOrder() {
    List<AccessTiers.Tier> tiers = AccessTiers.of(List.of(
            record(1, "bike_1", "User_2", "SELECT name FROM station"),
            record(2, "shop_1", "User_2", "SELECT address FROM shop"),
            record(3, "bike_1", "User_1", "SELECT city FROM station"),
            record(4, "bike_1", "User_2", "SELECT city FROM station")),
        "f", TestData.rules("grants"));
    assertEquals(List.of("User_1", "User_2"), tiers.stream().map(AccessTiers.Tier::user).toList());
    AccessTiers.Tier one = tiers.get(0);
    assertEquals(List.of("bike_1"), List.copyOf(one.schemas().keySet()));
    assertEquals(List.of("Public", "Public", "Public"), policies(one, "bike_1"));
    AccessTiers.Tier two = tiers.get(1);
    assertEquals(List.of("bike_1", "shop_1"), List.copyOf(two.schemas().keySet()));
    assertEquals(List.of("Hidden", "Public", "Hidden"), policies(two, "bike_1"));
    assertEquals(List.of("Public", "Hidden"), policies(two, "shop_1"));
    assertEquals(List.of("SELECT name FROM station", "SELECT address FROM shop", "SELECT city FROM station"),
        two.questions().stream().map(q -> q.query()).toList());
    assertEquals(List.of("q1", "q2", "q4"), two.questions().stream().map(q -> q.question()).toList());
    assertEquals(List.of("f:1", "f:2", "f:4"), two.places());
    assertTrue(two.questions().stream().noneMatch(q -> q.hasAst()));
  }

  @Test
  void aDatabaseWithTwoSchemasOrTwoSetsOfGrantsIsAnError() {
    AccessRecord other = new AccessRecord(2, "bike_1", "User_1", "", "SELECT 1", BIKE_GRANTS, SHOP, "[]");
    InputException e = assertThrows(InputException.class, () -> AccessTiers.of(
        List.of(record(1, "bike_1", "User_1", "SELECT name FROM station"), other), "f", TestData.rules("grants")));
    assertEquals("f:2: database bike_1 has another schema_ddl or access_policy_sql than at line 1", e.getMessage());
    InputException bad = assertThrows(InputException.class, () -> AccessTiers.of(
        List.of(new AccessRecord(1, "bike_1", "User_1", "", "SELECT 1", "REVOKE ALL ON t FROM r", BIKE, "[]")),
        "f", TestData.rules("grants")));
    assertEquals("f:1 (access_policy_sql):1: only GRANT statements are read, not one beginning 'REVOKE'", bad.getMessage());
  }

  private static List<String> policies(AccessTiers.Tier tier, String db) {
    return tier.policies().get(db).columns().stream().map(ColumnPolicy::finalPolicy).map(Enum::name).toList();
  }
}

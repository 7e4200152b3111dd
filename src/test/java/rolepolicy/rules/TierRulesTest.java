package rolepolicy.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import rolepolicy.TestData;
import rolepolicy.engine.ColumnPolicy;
import rolepolicy.engine.DatabasePolicies;
import rolepolicy.engine.PolicyAssigner;
import rolepolicy.model.Policy;
import rolepolicy.model.PolicyOverride;

/**
 * One test per rule of the user tiers' policy layers ({@code rules/profiles/analyst|internal|external/layer.drl}),
 * on every Spider database: the columns a layer changes are exactly those its rule names, and a
 * reviewed override stands.
 */
class TierRulesTest {
  static final String ANALYST_KEYS = "Analyst: key columns are Public";
  static final String INTERNAL_FIGURES = "Internal: business figures are Public";
  static final String EXTERNAL_NAMES = "External: names in tables about people are Hidden";
  static final String EXTERNAL_PAY = "External: pay is Hidden";

  private static Map<String, DatabasePolicies> policies(String tier, List<PolicyOverride> overrides) {
    return new PolicyAssigner(TestData.rules(tier)).assign(TestData.schemas(), overrides, "test");
  }

  /** The shipped overrides of Spider (data/overrides.json): reviewed decisions a layer leaves standing. */
  private static final List<PolicyOverride> OVERRIDES =
      rolepolicy.spider.OverridesReader.read(java.nio.file.Path.of("data/overrides.json"));

  /** The columns an override names, as {@code db key}. */
  private static final java.util.Set<String> OVERRIDDEN = OVERRIDES.stream()
      .map(o -> o.dbId() + " " + o.key()).collect(java.util.stream.Collectors.toSet());

  /**
   * The columns whose final policy a rule set, as {@code key: auto -> final}, over every database,
   * with the shipped overrides applied; and every override stands.
   */
  private static Map<String, String> changedBy(String tier, String rule) {
    Map<String, String> changed = new TreeMap<>();
    for (DatabasePolicies db : policies(tier, OVERRIDES).values()) {
      for (ColumnPolicy c : db.columns()) {
        if (OVERRIDDEN.contains(db.dbId() + " " + c.column().key())) {
          assertEquals(OVERRIDES.stream().filter(o -> o.dbId().equals(db.dbId()) && o.key().equals(c.column().key()))
              .findFirst().orElseThrow().finalPolicy(), c.finalPolicy(), "an override stands: " + c.column().key());
        }
      }
    }
    for (DatabasePolicies db : policies(tier, OVERRIDES).values()) {
      for (ColumnPolicy c : db.columns()) {
        if (rule.equals(c.overrideRule())) {
          changed.put(db.dbId() + " " + c.column().key(), c.autoPolicy() + " -> " + c.finalPolicy());
        }
      }
    }
    return changed;
  }

  /** Every automatic policy of the default profile, by {@code db key}, of the columns no override names. */
  private static Map<String, Policy> auto() {
    Map<String, Policy> auto = new TreeMap<>();
    TestData.autoPolicies().values().forEach(db -> db.columns().forEach(
        c -> auto.put(db.dbId() + " " + c.column().key(), c.autoPolicy())));
    auto.keySet().removeAll(OVERRIDDEN);
    return auto;
  }

  @Test
  @DisplayName(ANALYST_KEYS)
  void analystKeyColumnsArePublic() {
    Map<String, String> changed = changedBy("analyst", ANALYST_KEYS);
    Map<String, String> expected = new TreeMap<>();
    auto().forEach((k, p) -> {
      if (p == Policy.JoinOnly) {
        expected.put(k, "JoinOnly -> Public");
      }
    });
    assertEquals(expected, changed);
    assertTrue(changed.containsKey("concert_singer singer.singer_id"), changed.keySet()::toString);
  }

  @Test
  @DisplayName(INTERNAL_FIGURES)
  void internalBusinessFiguresArePublic() {
    Map<String, String> changed = changedBy("internal", INTERNAL_FIGURES);
    Map<String, String> expected = new TreeMap<>();
    auto().forEach((k, p) -> {
      String name = k.substring(k.indexOf('.') + 1);
      if (p == Policy.AggOnly && !name.contains("salary") && !name.contains("income")) {
        expected.put(k, "AggOnly -> Public");
      }
    });
    assertEquals(expected, changed);
    assertTrue(changedBy("internal", INTERNAL_FIGURES).keySet().stream().noneMatch(k -> k.contains("salary")));
  }

  @Test
  @DisplayName(EXTERNAL_NAMES)
  void externalNamesInTablesAboutPeopleAreHidden() {
    Map<String, String> changed = changedBy("external", EXTERNAL_NAMES);
    Map<String, Policy> all = new TreeMap<>();
    TestData.autoPolicies().values().forEach(db -> db.columns().forEach(
        c -> all.put(db.dbId() + " " + c.column().key(), c.autoPolicy())));
    Map<String, Policy> auto = auto();
    Map<String, String> expected = new TreeMap<>();
    auto.forEach((k, p) -> {
      String table = k.substring(0, k.indexOf('.') + 1); // "db table."
      boolean aboutPeople = all.entrySet().stream()
          .anyMatch(e -> e.getKey().startsWith(table) && e.getValue() == Policy.Hidden);
      if (p == Policy.Public && k.substring(k.indexOf('.') + 1).contains("name") && aboutPeople) {
        expected.put(k, "Public -> Hidden");
      }
    });
    assertEquals(expected, changed);
    // concert_singer: singer has Hidden age, so singer.name is Hidden; stadium.name is not
    assertEquals("Public -> Hidden", changed.get("concert_singer singer.name"));
    assertTrue(!changed.containsKey("concert_singer stadium.name"));
  }

  @Test
  @DisplayName(EXTERNAL_PAY)
  void externalPayIsHidden() {
    Map<String, String> changed = changedBy("external", EXTERNAL_PAY);
    Map<String, String> expected = new TreeMap<>();
    auto().forEach((k, p) -> {
      String name = k.substring(k.indexOf('.') + 1);
      if (p == Policy.AggOnly && (name.contains("salary") || name.contains("income"))) {
        expected.put(k, "AggOnly -> Hidden");
      }
    });
    assertEquals(expected, changed);
    assertTrue(!changed.isEmpty());
  }

  @Test
  @DisplayName("A reviewed override stands in every tier")
  void aReviewedOverrideStands() {
    PolicyOverride override = new PolicyOverride(0, "concert_singer", "singer", "Singer_ID", Policy.JoinOnly, Policy.Hidden,
        "test: a key that must not be shown");
    ColumnPolicy singerId = policies("analyst", List.of(override)).get("concert_singer").columns().stream()
        .filter(c -> c.column().key().equals("singer.singer_id")).findFirst().orElseThrow();
    assertEquals(Policy.Hidden, singerId.finalPolicy());
  }
}

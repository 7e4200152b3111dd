package rolepolicy.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import rolepolicy.TestData;
import rolepolicy.engine.PolicyLoop;
import rolepolicy.engine.QuestionEngine;
import rolepolicy.engine.TextAnalyser;
import rolepolicy.engine.TextQuery;
import rolepolicy.model.Aggregate;
import rolepolicy.model.ColumnRef;
import rolepolicy.model.Policy;
import rolepolicy.model.Refusal;
import rolepolicy.model.Role;
import rolepolicy.model.Violation;

/**
 * One test per rule of the strict profile ({@code rules/profiles/strict/}): each permission rule
 * fires on exactly its cells of the (policy × role × aggregate) table, and a violation in GROUP BY,
 * HAVING or ORDER BY refuses.
 */
class StrictRulesTest {
  static final String HIDDEN = "Hidden columns may not be used anywhere";
  static final String JOIN_ONLY_SELECTED = "JoinOnly columns may not be selected";
  static final String JOIN_ONLY_BARE_KEY = "JoinOnly columns may not be bare HAVING or ORDER BY keys";
  static final String JOIN_ONLY_AGGREGATED = "JoinOnly columns may not be aggregated anywhere";
  static final String AGG_ONLY_BARE = "AggOnly columns may not be selected bare";
  static final String AGG_ONLY_ROWS = "AggOnly columns may not join, filter or group";
  static final String AGG_ONLY_BARE_KEY = "AggOnly columns may not be bare HAVING or ORDER BY keys";
  static final String AGG_ONLY_AGGREGATE = "AggOnly columns may be aggregated only by COUNT or AVG anywhere";
  static final String SELECT_STAR = "SELECT * is never compliant";
  static final String NO_CLAUSE_REWRITE = "No rule rewrites a column in GROUP BY, HAVING or ORDER BY";

  /** One column of each policy in the school database. */
  private static final Map<Policy, String> COLUMN_OF = Map.of(
      Policy.Public, "student.name",
      Policy.JoinOnly, "student.student_id",
      Policy.AggOnly, "student.score",
      Policy.Hidden, "student.email");

  private static QuestionEngine strict() {
    return TestData.engine("strict");
  }

  @Test
  @DisplayName(HIDDEN)
  void hiddenColumnsMayNotBeUsedAnywhere() {
    Set<String> all = new TreeSet<>();
    for (Role role : Role.values()) {
      for (Aggregate agg : aggregatesOf(role)) {
        all.add(cell(Policy.Hidden, role, agg));
      }
    }
    assertEquals(all, cellsOf(HIDDEN));
  }

  @Test
  @DisplayName(JOIN_ONLY_SELECTED)
  void joinOnlyColumnsMayNotBeSelected() {
    assertEquals(Set.of("JoinOnly SelectExpr"), cellsOf(JOIN_ONLY_SELECTED));
  }

  @Test
  @DisplayName(JOIN_ONLY_BARE_KEY)
  void joinOnlyColumnsMayNotBeBareHavingOrOrderByKeys() {
    // a JoinOnly key may group: GroupKey is not among the cells
    assertEquals(Set.of("JoinOnly HavingPred", "JoinOnly OrderKey"), cellsOf(JOIN_ONLY_BARE_KEY));
  }

  @Test
  @DisplayName(JOIN_ONLY_AGGREGATED)
  void joinOnlyColumnsMayNotBeAggregatedAnywhere() {
    Set<String> expected = new TreeSet<>();
    for (Role role : List.of(Role.AggArg, Role.HavingPred, Role.OrderKey)) {
      for (Aggregate agg : List.of(Aggregate.MAX, Aggregate.MIN, Aggregate.COUNT, Aggregate.SUM, Aggregate.AVG)) {
        expected.add(cell(Policy.JoinOnly, role, agg));
      }
    }
    assertEquals(expected, cellsOf(JOIN_ONLY_AGGREGATED));
  }

  @Test
  @DisplayName(AGG_ONLY_BARE)
  void aggOnlyColumnsMayNotBeSelectedBare() {
    assertEquals(Set.of("AggOnly SelectExpr"), cellsOf(AGG_ONLY_BARE));
  }

  @Test
  @DisplayName(AGG_ONLY_ROWS)
  void aggOnlyColumnsMayNotJoinFilterOrGroup() {
    assertEquals(Set.of("AggOnly JoinCond", "AggOnly WherePred", "AggOnly GroupKey"), cellsOf(AGG_ONLY_ROWS));
  }

  @Test
  @DisplayName(AGG_ONLY_BARE_KEY)
  void aggOnlyColumnsMayNotBeBareHavingOrOrderByKeys() {
    assertEquals(Set.of("AggOnly HavingPred", "AggOnly OrderKey"), cellsOf(AGG_ONLY_BARE_KEY));
  }

  @Test
  @DisplayName(AGG_ONLY_AGGREGATE)
  void aggOnlyColumnsMayBeAggregatedOnlyByCountOrAvgAnywhere() {
    Set<String> expected = new TreeSet<>();
    for (Role role : List.of(Role.AggArg, Role.HavingPred, Role.OrderKey)) {
      for (Aggregate agg : List.of(Aggregate.MAX, Aggregate.MIN, Aggregate.SUM)) {
        expected.add(cell(Policy.AggOnly, role, agg));
      }
    }
    assertEquals(expected, cellsOf(AGG_ONLY_AGGREGATE));
  }

  @Test
  @DisplayName(SELECT_STAR)
  void selectStarIsNeverCompliant() {
    Refusal refusal = decide("concert_singer", "SELECT * FROM stadium");
    assertEquals("SELECT_STAR", refusal.reason());
    // a query that names its columns is answered
    assertInstanceOf(rolepolicy.model.Answer.class,
        outcome("concert_singer", "SELECT name, country FROM singer").last().decision());
  }

  @Test
  @DisplayName(NO_CLAUSE_REWRITE)
  void noRuleRewritesAColumnInGroupByHavingOrOrderBy() {
    // Spider dev_0003's question, ordered by a Hidden column it does not select: compliant under
    // spec-v1, which does not judge ORDER BY; refused under strict.
    Refusal refusal = decide("concert_singer", "SELECT name, country FROM singer ORDER BY age DESC");
    assertEquals("NO_RULE", refusal.reason());
    assertEquals(NO_CLAUSE_REWRITE, refusal.rule());
    assertEquals("singer.age", refusal.ref().column());
    assertEquals(Role.OrderKey, refusal.ref().role());
    // a SELECT-list violation is still R2's: phone.price is AggOnly, wrapped in AVG
    PolicyLoop.Outcome wrapped = outcome("phone_market", "SELECT Name, Price FROM phone");
    assertInstanceOf(rolepolicy.model.Answer.class, wrapped.last().decision());
    assertEquals(1, wrapped.steps().size(), wrapped.steps()::toString);
    assertEquals("R2", wrapped.steps().get(0).step().rule().substring(0, 2));
  }

  @Test
  @DisplayName("A Public column may stand in every clause")
  void publicColumnsMayBeUsedEverywhere() {
    assertEquals(Set.of(), cellsOf(Policy.Public));
  }

  private static PolicyLoop.Outcome outcome(String db, String sql) {
    return new PolicyLoop(strict()).run(
        TextQuery.of(new TextAnalyser(TestData.schemas().get(db)), sql), TestData.autoPolicies().get(db), null);
  }

  private static Refusal decide(String db, String sql) {
    return assertInstanceOf(Refusal.class, outcome(db, sql).last().decision());
  }

  private static List<Aggregate> aggregatesOf(Role role) {
    return switch (role) {
      case AggArg -> List.of(Aggregate.MAX, Aggregate.MIN, Aggregate.COUNT, Aggregate.SUM, Aggregate.AVG);
      case HavingPred, OrderKey -> List.of(Aggregate.values());
      default -> List.of(Aggregate.NONE);
    };
  }

  private static String cell(Policy policy, Role role, Aggregate agg) {
    return policy + " " + role + (agg.none() ? "" : " " + agg.id());
  }

  /** Every cell: each policy's column in each role, under each aggregate the role can carry. */
  private static List<Violation> all() {
    List<ColumnRef> refs = new ArrayList<>();
    for (Policy p : Policy.values()) {
      for (Role role : Role.values()) {
        for (Aggregate agg : aggregatesOf(role)) {
          refs.add(new ColumnRef(refs.size(), COLUMN_OF.get(p), role, agg, -1, null, null));
        }
      }
    }
    return strict().violations(refs, List.of("student"), School.POLICIES, null, "test");
  }

  private static Policy policyOf(Violation v) {
    return COLUMN_OF.entrySet().stream().filter(e -> e.getValue().equals(v.ref().column()))
        .findFirst().orElseThrow().getKey();
  }

  private static Set<String> cellsOf(String rule) {
    Set<String> cells = new TreeSet<>();
    for (Violation v : all()) {
      if (v.rule().equals(rule)) {
        cells.add(cell(policyOf(v), v.ref().role(), v.ref().aggregate()));
      }
    }
    return cells;
  }

  private static Set<String> cellsOf(Policy policy) {
    Set<String> cells = new TreeSet<>();
    for (Violation v : all()) {
      if (policyOf(v) == policy) {
        cells.add(cell(policy, v.ref().role(), v.ref().aggregate()));
      }
    }
    return cells;
  }
}

package rolepolicy.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import rolepolicy.TestData;
import rolepolicy.engine.QuestionEngine;
import rolepolicy.model.Policy;
import rolepolicy.model.Role;
import rolepolicy.model.Violation;
import rolepolicy.model.QueryFacts;
import rolepolicy.model.QueryViolation;
import rolepolicy.sql.SqlAnalysis;
import rolepolicy.sql.SqlAnalyzer;

/** One test per rule of {@code rules/permissions.drl} (SPEC §2, the permission table). */
class PermissionRulesTest {
  static final String HIDDEN = "Hidden columns may not be used";
  static final String JOIN_ONLY_SELECTED = "JoinOnly columns may not be selected";
  static final String JOIN_ONLY_AGGREGATED = "JoinOnly columns may not be aggregated";
  static final String AGG_ONLY_BARE = "AggOnly columns may not be selected bare";
  static final String AGG_ONLY_FILTER = "AggOnly columns may not join or filter";
  static final String AGG_ONLY_AGGREGATE = "AggOnly columns may be aggregated only by COUNT or AVG";
  static final String SELECT_STAR = "SELECT * is never compliant";

  @Test
  @DisplayName(HIDDEN)
  void hiddenColumnsMayNotBeUsed() {
    // email selected, counted, joined on and filtered: every role violates.
    List<Violation> found =
        violations(
            Query.from("student")
                .select("student.email")
                .select(3, "student.email")
                .join("student.email")
                .where("student.email"));

    assertEquals(4, found.size(), found::toString);
    assertEquals(
        List.of(Role.SelectExpr, Role.AggArg, Role.JoinCond, Role.WherePred),
        found.stream().map(v -> v.ref().role()).toList());
    found.forEach(v -> assertViolation(v, "student.email", Policy.Hidden, HIDDEN));
    assertEquals(cells("Hidden SelectExpr", "Hidden AggArg 1", "Hidden AggArg 2", "Hidden AggArg 3", "Hidden AggArg 4",
        "Hidden AggArg 5", "Hidden JoinCond", "Hidden WherePred"), cellsOf(HIDDEN));
    // SPEC §4: GROUP BY, HAVING and ORDER BY are not judged, bare or under an aggregate
    List<rolepolicy.model.ColumnRef> clauses = new java.util.ArrayList<>();
    for (Role role : List.of(Role.GroupKey, Role.HavingPred, Role.OrderKey)) {
      for (rolepolicy.model.Aggregate agg : rolepolicy.model.Aggregate.values()) {
        clauses.add(new rolepolicy.model.ColumnRef(clauses.size(), "student.email", role, agg, -1, null, null));
      }
    }
    assertEquals(List.of(), TestData.engine().violations(clauses, List.of("student"), School.POLICIES, null, "test"));
  }

  @Test
  @DisplayName(JOIN_ONLY_SELECTED)
  void joinOnlyColumnsMayNotBeSelected() {
    // A key may join and filter; only selecting it violates.
    List<Violation> found =
        violations(
            Query.from("student", "enrolment")
                .select("student.student_id")
                .join("enrolment.student_id")
                .where("student.advisor_id"));

    assertEquals(1, found.size(), found::toString);
    assertViolation(found.get(0), "student.student_id", Policy.JoinOnly, JOIN_ONLY_SELECTED);
    assertEquals(Role.SelectExpr, found.get(0).ref().role());
    assertEquals(cells("JoinOnly SelectExpr"), cellsOf(JOIN_ONLY_SELECTED));
  }

  @Test
  @DisplayName(JOIN_ONLY_AGGREGATED)
  void joinOnlyColumnsMayNotBeAggregated() {
    List<Violation> found = violations(Query.from("student").select(3, "student.student_id"));

    assertEquals(1, found.size(), found::toString);
    assertViolation(found.get(0), "student.student_id", Policy.JoinOnly, JOIN_ONLY_AGGREGATED);
    assertEquals(Role.AggArg, found.get(0).ref().role());
    assertEquals(3, found.get(0).ref().aggregate().id());
    assertEquals(cells("JoinOnly AggArg 1", "JoinOnly AggArg 2", "JoinOnly AggArg 3", "JoinOnly AggArg 4", "JoinOnly AggArg 5"),
        cellsOf(JOIN_ONLY_AGGREGATED));
  }

  @Test
  @DisplayName(AGG_ONLY_BARE)
  void aggOnlyColumnsMayNotBeSelectedBare() {
    List<Violation> found =
        violations(Query.from("student").select("student.score").select(5, "student.score"));

    assertEquals(1, found.size(), found::toString);
    assertViolation(found.get(0), "student.score", Policy.AggOnly, AGG_ONLY_BARE);
    assertEquals(Role.SelectExpr, found.get(0).ref().role());
    assertEquals(cells("AggOnly SelectExpr"), cellsOf(AGG_ONLY_BARE));
  }

  @Test
  @DisplayName(AGG_ONLY_FILTER)
  void aggOnlyColumnsMayNotJoinOrFilter() {
    List<Violation> found =
        violations(
            Query.from("student")
                .select("student.name")
                .join("student.score")
                .where("student.fee_amount"));

    assertEquals(2, found.size(), found::toString);
    assertViolation(found.get(0), "student.score", Policy.AggOnly, AGG_ONLY_FILTER);
    assertEquals(Role.JoinCond, found.get(0).ref().role());
    assertViolation(found.get(1), "student.fee_amount", Policy.AggOnly, AGG_ONLY_FILTER);
    assertEquals(Role.WherePred, found.get(1).ref().role());
    assertEquals(cells("AggOnly JoinCond", "AggOnly WherePred"), cellsOf(AGG_ONLY_FILTER));
  }

  @Test
  @DisplayName(AGG_ONLY_AGGREGATE)
  void aggOnlyColumnsMayBeAggregatedOnlyByCountOrAvg() {
    // max, min, sum violate; count and avg do not.
    List<Violation> found =
        violations(
            Query.from("club")
                .select(1, "club.budget")
                .select(2, "club.budget")
                .select(4, "club.budget")
                .select(3, "club.budget")
                .select(5, "club.budget"));

    assertEquals(List.of(1, 2, 4), found.stream().map(v -> v.ref().aggregate().id()).toList());
    found.forEach(v -> assertViolation(v, "club.budget", Policy.AggOnly, AGG_ONLY_AGGREGATE));
    assertEquals(cells("AggOnly AggArg 1", "AggOnly AggArg 2", "AggOnly AggArg 4"), cellsOf(AGG_ONLY_AGGREGATE));
  }

  @Test
  @DisplayName(SELECT_STAR)
  void selectStarIsNeverCompliant() {
    // SELECT * over Public columns only: no reference violates, the query as a whole does
    QuestionEngine.Judgement star = judge(Query.from("club").selectStar());
    assertEquals(List.of(), star.violations());
    assertEquals(1, star.queryViolations().size(), star::toString);
    assertEquals("SELECT_STAR", star.queryViolations().get(0).reason());
    assertEquals(SELECT_STAR, star.queryViolations().get(0).rule());
    assertFalse(star.compliant());
    assertTrue(judge(Query.from("club").select("club.title")).compliant());
    // on real data: Spider's dev_0292, SELECT * FROM hiring
    SqlAnalysis hiring = new SqlAnalyzer(TestData.schemas().get("employee_hire_evaluation")).analyse("SELECT * FROM hiring");
    QueryFacts facts = hiring.facts();
    QuestionEngine.Judgement real = TestData.engine().judge(facts,
        TestData.autoPolicies().get("employee_hire_evaluation").policed(QuestionEngine.touchedTables(facts.refs(), facts.tables())),
        null, "test");
    assertEquals(List.of("SELECT_STAR"), real.queryViolations().stream().map(QueryViolation::reason).toList());
  }

  @Test
  @DisplayName("A Public column may play every role")
  void publicColumnsMayBeUsedEverywhere() {
    assertTrue(
        violations(
                Query.from("club")
                    .select("club.title")
                    .select(1, "club.title")
                    .join("club.title")
                    .where("club.title"))
            .isEmpty());
  }

  @Test
  @DisplayName("Violations come in walk order")
  void violationsComeInWalkOrder() {
    List<Violation> found =
        violations(
            Query.from("student")
                .select("student.score")
                .select("student.email")
                .select(4, "student.fee_amount")
                .where("student.birth_date"));

    assertEquals(List.of(0, 1, 2, 3), found.stream().map(v -> v.ref().position()).toList());
    assertEquals(
        List.of(AGG_ONLY_BARE, HIDDEN, AGG_ONLY_AGGREGATE, HIDDEN),
        found.stream().map(Violation::rule).toList());
  }

  /** One column of each policy in the school database. */
  private static final java.util.Map<Policy, String> COLUMN_OF = java.util.Map.of(
      Policy.Public, "student.name",
      Policy.JoinOnly, "student.student_id",
      Policy.AggOnly, "student.score",
      Policy.Hidden, "student.email");

  /**
   * The cells of the permission table a rule fires on: one column of each policy in every role —
   * selected, under each of Spider's five aggregates (1 max, 2 min, 3 count, 4 sum, 5 avg),
   * joined on, filtered on — and the cells ("Hidden SelectExpr", "AggOnly AggArg 4": the column's
   * policy and role) where a violation names {@code rule}.
   */
  private static java.util.Set<String> cellsOf(String rule) {
    Query query = Query.from("student");
    for (Policy p : Policy.values()) {
      query.select(COLUMN_OF.get(p));
      for (int agg = 1; agg <= 5; agg++) {
        query.select(agg, COLUMN_OF.get(p));
      }
    }
    for (Policy p : Policy.values()) {
      query.join(COLUMN_OF.get(p));
    }
    for (Policy p : Policy.values()) {
      query.where(COLUMN_OF.get(p));
    }
    java.util.Set<String> cells = new java.util.TreeSet<>();
    for (Violation v : violations(query)) {
      if (v.rule().equals(rule)) {
        // the cell is the column's own policy, whatever policy the violation claims
        Policy column = COLUMN_OF.entrySet().stream().filter(e -> e.getValue().equals(v.ref().column()))
            .findFirst().orElseThrow().getKey();
        cells.add(column + " " + v.ref().role() + (v.ref().aggregate().id() == 0 ? "" : " " + v.ref().aggregate().id()));
      }
    }
    return cells;
  }

  private static java.util.Set<String> cells(String... cells) {
    return new java.util.TreeSet<>(List.of(cells));
  }

  private static QuestionEngine.Judgement judge(Query query) {
    QueryFacts walk = query.walk();
    return TestData.engine().judge(walk, School.POLICIES.policed(QuestionEngine.touchedTables(walk.refs(), walk.tables())),
        null, "test");
  }

  private static List<Violation> violations(Query query) {
    QueryFacts walk = query.walk();
    return TestData.engine().violations(walk.refs(), walk.tables(), School.POLICIES, null, "test");
  }

  private static void assertViolation(Violation v, String column, Policy policy, String rule) {
    assertEquals(column, v.ref().column());
    assertEquals(policy, v.policy());
    assertEquals(rule, v.rule());
  }
}

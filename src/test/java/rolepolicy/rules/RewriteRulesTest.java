package rolepolicy.rules;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import rolepolicy.TestData;
import rolepolicy.engine.Audit;
import rolepolicy.engine.DatabasePolicies;
import rolepolicy.model.Answer;
import rolepolicy.model.Decision;
import rolepolicy.model.Policy;
import rolepolicy.model.PolicyOverride;
import rolepolicy.model.Refusal;
import rolepolicy.model.RewriteStep;
import rolepolicy.model.UnverifiedEdit;
import rolepolicy.model.UnverifiedText;
import rolepolicy.generate.QuestionGenerator;
import rolepolicy.generate.Records.GoldLabel;
import rolepolicy.spider.Question;

/** One test per rule of {@code rules/rewrites.drl} (SPEC §6, the gold label). */
class RewriteRulesTest {
  static final String R3 = "R3: a Hidden or AggOnly column in a join or filter cannot be rewritten";
  static final String R4 = "R4: an AggOnly column under MAX, MIN or SUM cannot be rewritten";
  static final String NO_RULE = "No rule rewrites an aggregated Hidden or JoinOnly column";
  static final String SELECT_STAR = "Refuse SELECT *";
  static final String UNVERIFIED_EDIT = "Refuse a rewrite whose SQL text cannot be verified";
  static final String UNVERIFIED_ANSWER = "Refuse an answer whose SQL text cannot be verified";
  static final String UNRESOLVED = "Refuse an unresolved query";
  static final String ANSWER = "Answer when no violation is left";
  static final String FIRST_UNREWRITABLE = "Refuse at the first violation that no rewrite covers";
  static final String MAX_STEPS = "Refuse when violations remain after two rewrite steps";
  static final String R1 =
      "R1: replace a selected Hidden or JoinOnly column by an _id column of its table";
  static final String R1_NO_CANDIDATE = "R1: refuse when the table has no other _id column";
  static final String R2 = "R2: wrap a selected AggOnly column in AVG";

  @Test
  @DisplayName(R3)
  void hiddenOrAggOnlyInJoinOrFilterCannotBeRewritten() {
    // SELECT name FROM student WHERE email = ... : the email filter has no rewrite.
    assertRefusal(decide(Query.from("student").select("student.name").where("student.email")),
        "R3", R3, "student.email");
    assertRefusal(decide(Query.from("club").select("club.title").join("club.budget")),
        "R3", R3, "club.budget");
    assertEquals(cells("Hidden JoinCond", "Hidden WherePred", "AggOnly JoinCond", "AggOnly WherePred"),
        unrewritableCells(R3));
  }

  @Test
  @DisplayName(R4)
  void aggOnlyUnderMaxMinOrSumCannotBeRewritten() {
    // SELECT max(score) FROM student
    assertRefusal(
        decide(Query.from("student").select(1, "student.score")), "R4", R4, "student.score");
    assertEquals(cells("AggOnly AggArg 1", "AggOnly AggArg 2", "AggOnly AggArg 4"), unrewritableCells(R4));
  }

  @Test
  @DisplayName(NO_RULE)
  void aggregatedHiddenOrJoinOnlyHasNoRewrite() {
    assertRefusal(decide(Query.from("student").select(3, "student.email")),
        "NO_RULE", NO_RULE, "student.email");
    assertEquals(cells("Hidden AggArg 1", "Hidden AggArg 2", "Hidden AggArg 3", "Hidden AggArg 4", "Hidden AggArg 5",
        "JoinOnly AggArg 1", "JoinOnly AggArg 2", "JoinOnly AggArg 3", "JoinOnly AggArg 4", "JoinOnly AggArg 5"),
        unrewritableCells(NO_RULE));
    assertRefusal(decide(Query.from("student").select(3, "student.student_id")),
        "NO_RULE", NO_RULE, "student.student_id");
  }

  @Test
  @DisplayName(UNVERIFIED_EDIT)
  void refuseARewriteWhoseTextCannotBeVerified() throws java.io.IOException {
    // SELECT email FROM student: R1 would replace email, but the program could not make the edit
    Query query = Query.from("student").select("student.email");
    RewriteStep step = assertInstanceOf(RewriteStep.class, decide(query));
    Decision decision = TestData.engine().decide(query.walk(), School.POLICIES, 0, false,
        List.of(new UnverifiedEdit(step, "the edited text does not analyse")), null, "test").decision();
    Refusal refusal = assertInstanceOf(Refusal.class, decision);
    assertEquals("UNVERIFIED_SQL", refusal.reason());
    assertEquals(step.rule(), refusal.rule(), "the refusal names the step whose edit failed");
    assertEquals(step.ref(), refusal.ref());
    assertEquals("the edited text does not analyse", refusal.detail());
    // on real data: Spider's train_3127, whose SQL text disagrees with its AST
    JsonNode record =
        new ObjectMapper().readTree(TestData.spiderDir().resolve("train_spider.json").toFile()).get(3126);
    Question question = new Question(3127, record.get("db_id").asText(), record.get("question").asText(),
        record.get("query").asText(), record.get("sql"));
    GoldLabel gold = new QuestionGenerator(TestData.engine(), TestData.schemas(), TestData.autoPolicies())
        .generate("train_3127", question, null).goldLabel();
    assertEquals("REFUSE UNVERIFIED_SQL", gold.type() + " " + gold.reason(), gold::toString);
    assertEquals(R1, gold.rule());
  }

  @Test
  @DisplayName(UNVERIFIED_ANSWER)
  void refuseAnAnswerWhoseTextCannotBeVerified() {
    Query compliant = Query.from("club").select("club.title");
    Refusal refusal = assertInstanceOf(Refusal.class, TestData.engine().decide(compliant.walk(), School.POLICIES, 0, false,
        List.of(new UnverifiedText("the text reads another column", 1)), null, "test").decision());
    assertEquals("UNVERIFIED_SQL", refusal.reason());
    assertEquals(UNVERIFIED_ANSWER, refusal.rule());
    assertEquals("the text reads another column", refusal.detail());
    // a text that breaks no policy on its own stands: the answer is kept
    assertEquals(new Answer(ANSWER), TestData.engine().decide(compliant.walk(), School.POLICIES, 0, false,
        List.of(new UnverifiedText("the text reads another column", 0)), null, "test").decision());
    // a text that cannot be analysed at all is not verified either
    assertInstanceOf(Refusal.class, TestData.engine().decide(compliant.walk(), School.POLICIES, 0, false,
        List.of(new UnverifiedText("cannot analyse", -1)), null, "test").decision());
  }

  @Test
  @DisplayName(SELECT_STAR)
  void refuseSelectStar() {
    Refusal refusal = assertInstanceOf(Refusal.class, decide(Query.from("club").selectStar()));
    assertEquals("SELECT_STAR", refusal.reason());
    assertEquals(SELECT_STAR, refusal.rule());
    assertNull(refusal.ref());
    // a query without * is not refused for it
    assertEquals(new Answer(ANSWER), decide(Query.from("club").select("club.title")));
  }

  @Test
  @DisplayName(UNRESOLVED)
  void refuseAnUnresolvedQuery() {
    Refusal refusal =
        assertInstanceOf(
            Refusal.class,
            decide(Query.from("club").select("club.title").withUnresolvedReference()));
    assertEquals("UNRESOLVED", refusal.reason());
    assertEquals(UNRESOLVED, refusal.rule());
    // a resolved query is not refused for it
    assertEquals(new Answer(ANSWER), decide(Query.from("club").select("club.title")));
  }

  @Test
  @DisplayName(ANSWER)
  void answerWhenNoViolationIsLeft() {
    // Keys join and filter, AggOnly columns are averaged and counted: all allowed.
    Decision decision =
        decide(
            Query.from("student", "enrolment")
                .select("student.name")
                .select(5, "student.score")
                .select(3, "student.fee_amount")
                .join("student.student_id")
                .join("enrolment.student_id")
                .where("enrolment.course_id"));
    assertEquals(new Answer(ANSWER), decision);
    // a violation left is not answered; a query another rule decides gets that one decision only
    assertRewrite(decide(Query.from("student").select("student.email")), "R1", R1);
    assertSelectStarRefusal(decide(Query.from("club").selectStar()));
  }

  @Test
  @DisplayName(FIRST_UNREWRITABLE)
  void refuseAtTheFirstViolationThatNoRewriteCovers() {
    // SELECT email, sum(fee_amount) FROM student WHERE score > 5: email could be rewritten, but
    // sum(fee_amount) (R4, #1) and the score filter (R3, #2) cannot; the first of those decides.
    Audit audit = new Audit();
    Decision decision =
        TestData.engine()
            .decide(
                Query.from("student")
                    .select("student.email")
                    .select(4, "student.fee_amount")
                    .where("student.score")
                    .walk(),
                School.POLICIES,
                0,
                false,
                List.of(),
                audit,
                "test")
            .decision();

    Refusal refusal = assertRefusal(decision, "R4", R4, "student.fee_amount");
    assertEquals(1, refusal.ref().position());
    assertTrue(
        audit.firings().stream()
            .anyMatch(f -> f.rule().equals(FIRST_UNREWRITABLE)
                && f.matched().contains("student.fee_amount AggArg agg=4 #1 R4")),
        () -> "no firing of \"" + FIRST_UNREWRITABLE + "\" on #1 in " + audit.firings());

    // Two violations of one kind, in either order: the first in walk order decides.
    assertAll(
        () -> assertEquals(0, assertRefusal(
            decide(Query.from("student").select(4, "student.score").select(1, "student.fee_amount")),
            "R4", R4, "student.score").ref().position()),
        () -> assertEquals(0, assertRefusal(
            decide(Query.from("student").select(1, "student.fee_amount").select(4, "student.score")),
            "R4", R4, "student.fee_amount").ref().position()),
        () -> assertEquals(1, assertRefusal(
            decide(Query.from("student").select("student.name").where("student.email")
                .where("student.score")),
            "R3", R3, "student.email").ref().position()),
        () -> assertEquals(1, assertRefusal(
            decide(Query.from("student").select("student.name").where("student.score")
                .where("student.email")),
            "R3", R3, "student.score").ref().position()));
  }

  @Test
  @DisplayName(MAX_STEPS)
  void refuseWhenViolationsRemainAfterTwoRewriteSteps() {
    // After two rewrites the query still selects a key: no third step.
    Query selectsAKey = Query.from("student").select("student.advisor_id");

    assertEquals("R1", assertInstanceOf(RewriteStep.class, decide(selectsAKey, 1)).code());
    assertRefusal(decide(selectsAKey, 2), "MAX_STEPS", MAX_STEPS, "student.advisor_id");

    // With two violations left, the refusal names the first in walk order.
    assertAll(
        () -> assertRefusal(
            decide(Query.from("student").select("student.advisor_id").select("student.email"), 2),
            "MAX_STEPS", MAX_STEPS, "student.advisor_id"),
        () -> assertRefusal(
            decide(Query.from("student").select("student.email").select("student.advisor_id"), 2),
            "MAX_STEPS", MAX_STEPS, "student.email"));
  }

  @Test
  @DisplayName("At step 2 a violation no rewrite covers keeps its own reason, not MAX_STEPS")
  void unrewritableBeatsMaxSteps() {
    assertRefusal(
        decide(Query.from("student").select("student.advisor_id").where("student.email"), 2),
        "R3", R3, "student.email");
  }

  @Test
  @DisplayName(R1)
  void replaceASelectedHiddenOrJoinOnlyColumnByAnIdColumn() {
    // student: advisor_id (first _id), student_id (first primary key), house_id (second key).
    RewriteStep step =
        assertRewrite(decide(Query.from("student").select("student.email")), "R1", R1);
    assertEquals("student.email", step.ref().column());
    assertEquals("student.student_id", step.replacement().key());
    assertEquals(rolepolicy.model.Aggregate.NONE, step.wrap());

    // Two selected columns R1 could rewrite: one step, on the first in walk order.
    assertAll(
        () -> assertRewrites(R1,
            decide(Query.from("student").select("student.email").select("student.birth_date")),
            0, "student.email"),
        () -> assertRewrites(R1,
            decide(Query.from("student").select("student.birth_date").select("student.email")),
            0, "student.birth_date"),
        () -> assertRewrites(R1,
            decide(Query.from("student").select("student.name").select("student.advisor_id")
                .select("student.email")),
            1, "student.advisor_id"),
        () -> assertRewrites(R1,
            decide(Query.from("student").select("student.name").select("student.email")
                .select("student.advisor_id")),
            1, "student.email"));
    // the substitute comes from the column's own table, even when another has a primary key _id
    RewriteStep own = assertRewrite(decide(Query.from("enrolment", "student").select("enrolment.phone")), "R1", R1);
    assertEquals("enrolment.course_id", own.replacement().key());
    // an _id column, not the primary key "id" (soccer_1's Player: id, player_api_id, ...)
    RewriteStep idColumn = assertRewrite(decide(Query.from("player").select("player.birthday"),
        TestData.autoPolicies().get("soccer_1"), 0), "R1", R1);
    assertEquals("player.player_api_id", idColumn.replacement().key());
    // a query another rule decides first gets that one decision only
    assertSelectStarRefusal(decide(Query.from("student").selectStar().select("student.email")));
  }

  @Test
  @DisplayName("R1 never picks the column itself: the next primary key _id column")
  void r1NeverPicksTheColumnItself() {
    RewriteStep step =
        assertRewrite(decide(Query.from("student").select("student.student_id")), "R1", R1);
    assertEquals("student.house_id", step.replacement().key());
  }

  @Test
  @DisplayName("R1 without a primary key among the _id columns: the first in column order")
  void r1FallsBackToColumnOrder() {
    // enrolment: course_id, student_id, grade, phone; no primary key.
    RewriteStep step =
        assertRewrite(decide(Query.from("enrolment").select("enrolment.phone")), "R1", R1);
    assertEquals("enrolment.course_id", step.replacement().key());
  }

  @Test
  @DisplayName("R1 succeeds when an override made its substitute selectable")
  void r1SucceedsWithAnOverride() {
    PolicyOverride publicRoll =
        new PolicyOverride(
            1, "school", "student", "student_id", Policy.JoinOnly, Policy.Public, "public roll");
    DatabasePolicies published = School.policies(publicRoll);
    // Step 0: SELECT email -> SELECT student_id; step 1: student_id is now Public.
    Decision first = decide(Query.from("student").select("student.email"), published, 0);
    assertEquals("student.student_id", assertRewrite(first, "R1", R1).replacement().key());
    Decision second = decide(Query.from("student").select("student.student_id"), published, 1);
    assertEquals(new Answer(ANSWER), second);
  }

  @Test
  @DisplayName(R1_NO_CANDIDATE)
  void refuseWhenTheTableHasNoOtherIdColumn() {
    // club_id is club's only _id column, and R1 never replaces a column by itself.
    assertRefusal(decide(Query.from("club").select("club.club_id")),
        "R1_NO_CANDIDATE", R1_NO_CANDIDATE, "club.club_id");
    // not for an AggOnly column, even in a table with no _id column (small_bank_1's checking)
    assertRewrite(decide(Query.from("checking").select("checking.balance"),
        TestData.autoPolicies().get("small_bank_1"), 0), "R2", R2);
    // a query another rule decides first gets that one decision only
    assertSelectStarRefusal(decide(Query.from("club").selectStar().select("club.club_id")));

    // It judges the first violation in walk order only: an earlier one that R1 or R2 can rewrite
    // is rewritten first, and club_id is left for the next round.
    assertAll(
        () -> assertRewrites(R1,
            decide(Query.from("student", "club").select("student.email").select("club.club_id")),
            0, "student.email"),
        () -> assertRewrites(R2,
            decide(Query.from("club").select("club.budget").select("club.club_id")),
            0, "club.budget"));
  }

  @Test
  @DisplayName(R2)
  void wrapASelectedAggOnlyColumnInAvg() {
    RewriteStep step = assertRewrite(decide(Query.from("club").select("club.budget")), "R2", R2);
    assertSelectStarRefusal(decide(Query.from("club").selectStar().select("club.budget")));
    assertEquals("club.budget", step.ref().column());
    assertEquals(rolepolicy.model.Aggregate.AVG, step.wrap());
    assertNull(step.replacement());

    // Two selected AggOnly columns: one step, on the first in walk order.
    // train_1791, on the real small_bank_1 schema: SELECT T2.balance, T3.balance FROM accounts AS
    // T1 JOIN checking AS T2 ON T1.custid = T2.custid JOIN savings AS T3 ON T1.custid = T3.custid
    // WHERE T1.name = 'Brown'
    Query trainRecord1791 =
        Query.from("accounts", "checking", "savings")
            .select("checking.balance")
            .select("savings.balance")
            .join("accounts.custid")
            .join("checking.custid")
            .join("accounts.custid")
            .join("savings.custid")
            .where("accounts.name");
    assertAll(
        () -> assertRewrites(R2,
            decide(Query.from("club").select("club.budget").select("club.revenue")),
            0, "club.budget"),
        () -> assertRewrites(R2,
            decide(Query.from("club").select("club.revenue").select("club.budget")),
            0, "club.revenue"),
        () -> assertRewrites(R2,
            decide(Query.from("club").select("club.title").select("club.revenue").select("club.budget")),
            1, "club.revenue"),
        () -> assertRewrites(R2,
            decide(Query.from("student", "club").select("student.score").select("club.budget")),
            0, "student.score"),
        () -> assertRewrites(R2,
            decide(trainRecord1791, TestData.autoPolicies().get("small_bank_1"), 0),
            0, "checking.balance"));
  }

  @Test
  @DisplayName("A rewrite takes the first violation in walk order")
  void rewriteTakesTheFirstViolation() {
    // SELECT name, score, email: score (#1, R2) comes before email (#2, R1).
    RewriteStep step =
        assertRewrite(
            decide(
                Query.from("student")
                    .select("student.name")
                    .select("student.score")
                    .select("student.email")),
            "R2", R2);
    assertEquals(1, step.ref().position());

    step = assertRewrite(
        decide(Query.from("student").select("student.email").select("student.score")), "R1", R1);
    assertEquals(0, step.ref().position());
  }

  @Test
  @DisplayName("The first violation in walk order decides the R1 refusal too")
  void r1RefusalTakesTheFirstViolation() {
    // club_id (#0) has no candidate; it decides even though score (#1) could be wrapped.
    assertRefusal(
        decide(Query.from("club", "student").select("club.club_id").select("student.score")),
        "R1_NO_CANDIDATE", R1_NO_CANDIDATE, "club.club_id");
  }

  private static Decision decide(Query query) {
    return decide(query, 0);
  }

  private static Decision decide(Query query, int step) {
    return decide(query, School.POLICIES, step);
  }

  private static Decision decide(Query query, DatabasePolicies policies, int step) {
    return TestData.engine().decide(query.walk(), policies, step, false, List.of(), null, "step " + step).decision();
  }

  private static void assertSelectStarRefusal(Decision decision) {
    Refusal refusal = assertInstanceOf(Refusal.class, decision);
    assertEquals(SELECT_STAR, refusal.rule());
  }

  /** One column of each policy in the school database. */
  private static final java.util.Map<String, Policy> POLICY_OF = java.util.Map.of(
      "student.name", Policy.Public,
      "student.student_id", Policy.JoinOnly,
      "student.score", Policy.AggOnly,
      "student.email", Policy.Hidden);

  /**
   * The cells ("Hidden JoinCond", "AggOnly AggArg 4": the column's policy, its role, the aggregate)
   * that {@code rule} marks as having no rewrite, on a query with a column of each policy in every
   * role, read from the audit trail.
   */
  private static java.util.Set<String> unrewritableCells(String rule) {
    Query query = Query.from("student");
    for (String column : POLICY_OF.keySet().stream().sorted().toList()) {
      query.select(column);
      for (int agg = 1; agg <= 5; agg++) {
        query.select(agg, column);
      }
    }
    POLICY_OF.keySet().stream().sorted().forEach(query::join);
    POLICY_OF.keySet().stream().sorted().forEach(query::where);
    Audit audit = new Audit();
    TestData.engine().decide(query.walk(), School.POLICIES, 0, false, List.of(), audit, "cells");
    java.util.Set<String> cells = new java.util.TreeSet<>();
    for (Audit.Firing f : audit.firings()) {
      if (f.rule().equals(rule)) {
        // "student.email JoinCond #25 Hidden": column, role, [agg=N], position, policy
        String[] words = f.matched().get(0).split(" ");
        String agg = words[2].startsWith("agg=") ? " " + words[2].substring(4) : "";
        cells.add(POLICY_OF.get(words[0]) + " " + words[1] + agg);
      }
    }
    return cells;
  }

  private static java.util.Set<String> cells(String... cells) {
    return new java.util.TreeSet<>(java.util.List.of(cells));
  }

  private static Refusal assertRefusal(
      Decision decision, String reason, String rule, String column) {
    Refusal refusal = assertInstanceOf(Refusal.class, decision);
    assertEquals(reason, refusal.reason());
    assertEquals(rule, refusal.rule());
    assertEquals(column, refusal.ref().column());
    return refusal;
  }

  /** One rewrite step by {@code rule}, on the reference at walk position {@code position}. */
  private static void assertRewrites(String rule, Decision decision, int position, String column) {
    RewriteStep step = assertInstanceOf(RewriteStep.class, decision);
    assertEquals(rule, step.rule());
    assertEquals(column, step.ref().column(), "the column rewritten");
    assertEquals(position, step.ref().position(), "the walk position rewritten");
  }

  private static RewriteStep assertRewrite(Decision decision, String code, String rule) {
    RewriteStep step = assertInstanceOf(RewriteStep.class, decision);
    assertEquals(code, step.code());
    assertEquals(rule, step.rule());
    return step;
  }
}

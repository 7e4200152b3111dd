package rolepolicy.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import rolepolicy.TestData;
import rolepolicy.engine.PolicyLoop;
import rolepolicy.engine.QuestionEngine;
import rolepolicy.engine.TextAnalyser;
import rolepolicy.engine.TextQuery;
import rolepolicy.evaluate.ResultMatch;
import rolepolicy.model.Answer;
import rolepolicy.model.Refusal;

/**
 * One test per rule of the extended profile ({@code rules/profiles/extended/count-rows.drl}), on
 * real Spider questions and databases: a rewrite that keeps the answer is used, one that does not
 * is withdrawn and the question is refused as spec-v1 refuses it.
 */
class ExtendedRulesTest {
  static final String R5_OFFER = "R5: COUNT of a JoinOnly key may count rows instead";
  static final String R6_OFFER = "R6: COUNT(DISTINCT) of a JoinOnly key may count groups instead";
  static final String R5_STEP = "R5: count rows instead of a JoinOnly key";
  static final String R6_STEP = "R6: count groups instead of distinct values of a JoinOnly key";

  private static QuestionEngine engine() {
    return TestData.engine("extended");
  }

  private static PolicyLoop.Outcome run(String db, String sql) {
    return new PolicyLoop(engine(), ResultMatch.sameResult(TestData.spiderRunner())).run(
        TextQuery.of(new TextAnalyser(TestData.schemas().get(db)), sql), TestData.autoPolicies().get(db), null);
  }

  private static List<String> steps(PolicyLoop.Outcome outcome) {
    return outcome.steps().stream().map(s -> s.step().rule()).toList();
  }

  @Test
  @DisplayName(R5_OFFER)
  void r5IsOfferedForTheCountOfAJoinOnlyKey() {
    // train_3783: every enrolment has a course: COUNT(course_id) is COUNT(*) on e_learning
    PolicyLoop.Outcome outcome = run("e_learning", "SELECT count(course_id) FROM Student_Course_Enrolment");
    assertEquals(List.of(R5_STEP), steps(outcome));
    // a key that is not JoinOnly is not offered: Public columns are counted as they are
    PolicyLoop.Outcome names = run("concert_singer", "SELECT count(name) FROM singer");
    assertEquals(List.of(), steps(names));
    assertInstanceOf(Answer.class, names.last().decision());
    // a Hidden column's count is not offered, though no age is NULL: refused as spec-v1 refuses it
    Refusal hidden = assertInstanceOf(Refusal.class, run("concert_singer", "SELECT count(age) FROM singer").last().decision());
    assertEquals("NO_RULE", hidden.reason());
    // nor a key under another aggregate: the rules are asked once, with no offer withdrawn
    rolepolicy.engine.Audit audit = new rolepolicy.engine.Audit();
    new PolicyLoop(engine(), ResultMatch.sameResult(TestData.spiderRunner())).run(
        TextQuery.of(new TextAnalyser(TestData.schemas().get("concert_singer")), "SELECT max(Singer_ID) FROM singer"),
        TestData.autoPolicies().get("concert_singer"), audit);
    assertTrue(audit.firings().stream().noneMatch(f -> f.rule().equals(R5_OFFER)), audit.firings()::toString);
  }

  @Test
  @DisplayName(R5_STEP)
  void r5CountsRowsWhereTheDatabaseGivesTheSameResult() {
    PolicyLoop.Outcome outcome = run("e_learning", "SELECT count(course_id) FROM Student_Course_Enrolment");
    assertInstanceOf(Answer.class, outcome.last().decision());
    assertEquals("SELECT count(*) FROM Student_Course_Enrolment", outcome.sql());
    // the first violation in walk order is mended first: the selected Hidden age (R1), then the count
    PolicyLoop.Outcome second = run("concert_singer", "SELECT T1.Age, count(T2.concert_ID) FROM singer AS T1"
        + " JOIN singer_in_concert AS T2 ON T1.Singer_ID = T2.Singer_ID GROUP BY T1.Singer_ID");
    assertTrue(steps(second).get(0).startsWith("R1: "), steps(second)::toString);
    // a LEFT JOIN leaves stadiums with no concert: COUNT(T2.concert_id) is not COUNT(*), so neither
    // R5 nor R6 is used and the question is refused as spec-v1 refuses it
    PolicyLoop.Outcome differs = run("concert_singer",
        "SELECT count(T2.concert_ID) FROM stadium AS T1 LEFT JOIN concert AS T2 ON T1.Stadium_ID = T2.Stadium_ID");
    Refusal refusal = assertInstanceOf(Refusal.class, differs.last().decision());
    assertEquals("NO_RULE", refusal.reason());
    assertEquals(List.of(), differs.steps());
  }

  @Test
  @DisplayName(R6_OFFER)
  void r6IsOfferedOnlyAfterR5KeptNoAnswer() {
    // COUNT(DISTINCT ...) is no bare COUNT argument: R5's edit cannot be made, R6 is offered
    PolicyLoop.Outcome outcome = run("cre_Doc_Template_Mgt", "SELECT count(DISTINCT template_id) FROM Documents");
    assertEquals(List.of(R6_STEP), steps(outcome));
  }

  @Test
  void explainRunsTheRewritesOnTheDatabaseAsGenerateDoes() {
    rolepolicy.cli.CommandRun run = rolepolicy.cli.CommandRun.of("explain", "dev_0306", "--spider",
        TestData.spiderDir().toString(), "--profile", "extended");
    assertEquals(0, run.code(), run.err());
    assertTrue(run.out().contains(R6_STEP), run.out());
    assertTrue(run.out().contains("SELECT count(*) FROM (SELECT count(*) FROM"), run.out());
  }

  @Test
  @DisplayName(R6_STEP)
  void r6CountsGroupsWhereTheDatabaseGivesTheSameResult() {
    PolicyLoop.Outcome outcome = run("cre_Doc_Template_Mgt", "SELECT count(DISTINCT template_id) FROM Documents");
    assertInstanceOf(Answer.class, outcome.last().decision());
    assertEquals("SELECT count(*) FROM (SELECT count(*) FROM Documents GROUP BY template_id)", outcome.sql());
    // two counts in one SELECT list: no form R6 can write, refused as spec-v1 refuses it
    PolicyLoop.Outcome two = run("dorm_1", "SELECT count(DISTINCT major), count(DISTINCT city_code) FROM student");
    assertTrue(two.last().decision() instanceof Refusal r && r.reason().equals("NO_RULE"), two.last().decision()::toString);
  }
}

package rolepolicy.evaluate;

import rolepolicy.exactmatch.Hardness;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import org.junit.jupiter.api.Test;
import rolepolicy.evaluate.QuestionResult.Found;
import rolepolicy.evaluate.QuestionResult.Outcome;
import rolepolicy.model.Policy;
import rolepolicy.model.Role;

/** The arithmetic of SPEC §9 on hand-made results, one outcome of each kind. */
class MetricsTest {
  private static QuestionResult refused(boolean goldRefuse) {
    return new QuestionResult("q", "db", goldRefuse ? "REFUSE" : "SQL", "REFUSE", null, null, null, null, null, null,
        goldRefuse ? Outcome.CORRECT_REFUSE : Outcome.REFUSED_ANSWERABLE, "");
  }

  private static QuestionResult answered(boolean goldRefuse, Outcome outcome, String execution, Found... violations) {
    boolean analysable = outcome != Outcome.NON_COMPLIANT || violations.length > 0;
    return new QuestionResult("q", "db", goldRefuse ? "REFUSE" : "SQL", "SQL", analysable ? "OK" : "cannot parse",
        List.of(violations), analysable && violations.length == 0, execution, null, null, outcome, "");
  }

  private static final Found HIDDEN_SELECT = new Found("t.email", "SelectExpr", "Hidden", 0, "r");
  private static final Found HIDDEN_WHERE = new Found("t.email", "WherePred", "Hidden", 0, "r");

  @Test
  void everyFigureOfOneSmallRun() {
    List<QuestionResult> results = List.of(
        refused(true),                                                          // +1
        refused(false),                                                         // 0
        answered(true, Outcome.ANSWERED_REFUSABLE, null, HIDDEN_SELECT),        // -c
        answered(false, Outcome.CORRECT_ANSWER, "MATCH"),                       // +1
        answered(false, Outcome.WRONG_RESULT, "TIMEOUT"),                       // -c
        answered(false, Outcome.NON_COMPLIANT, null, HIDDEN_SELECT, HIDDEN_WHERE), // -c
        answered(false, Outcome.NON_COMPLIANT, null),                           // -c, unanalysable
        answered(false, Outcome.UNDECIDED, "NO_DATABASE"));                     // not counted
    Metrics m = Metrics.of(results, true);
    assertEquals(8, m.questions());
    // REFUSE positive: gold refuse {0, 2}, predicted refuse {0, 1}
    assertEquals(0.5, m.refuse().precision());
    assertEquals(0.5, m.refuse().recall());
    assertEquals(0.5, m.refuse().f1());
    assertEquals(6.0 / 8, m.refuse().accuracy());
    assertEquals(6, m.compliance().answered());
    assertEquals(1, m.compliance().unanalysable());
    assertEquals(3, m.compliance().compliant());
    assertEquals(0.5, m.compliance().compliantRate());
    assertEquals(2.0 / 6, m.compliance().violatingByRole().get(Role.SelectExpr));
    assertEquals(1.0 / 6, m.compliance().violatingByRole().get(Role.WherePred));
    assertEquals(2.0 / 6, m.compliance().violatingByPolicy().get(Policy.Hidden));
    assertEquals(3, m.compliance().violationsByPolicy().get(Policy.Hidden));
    assertEquals(2, m.execution().compared());
    assertEquals(0.5, m.execution().matchRate());
    assertEquals(1, m.execution().noDatabase());
    assertEquals(7, m.reliability().decided());
    assertEquals(2.0 / 7, m.reliability().rs0());
    assertEquals((2 - 4 * 10.0) / 7, m.reliability().rs10());
    assertEquals((2 - 4 * 8.0) / 7, m.reliability().rsN());
  }

  @Test
  void f1IsZeroWhenNoRefusalIsRight() {
    // refuses only answerable questions, and answers the one that should be refused
    Metrics wrong = Metrics.of(List.of(refused(false), answered(true, Outcome.ANSWERED_REFUSABLE, null)), true);
    assertEquals(0.0, wrong.refuse().precision());
    assertEquals(0.0, wrong.refuse().recall());
    assertEquals(0.0, wrong.refuse().f1());
    // never refuses: precision has no denominator, yet F1 = 2TP / (2TP + FP + FN) = 0
    Metrics never = Metrics.of(List.of(answered(true, Outcome.ANSWERED_REFUSABLE, null)), true);
    assertNull(never.refuse().precision());
    assertEquals(0.0, never.refuse().f1());
    // nothing to refuse and no refusal: F1 has no denominator
    Metrics none = Metrics.of(List.of(answered(false, Outcome.CORRECT_ANSWER, "MATCH")), true);
    assertNull(none.refuse().f1());
    assertEquals(1.0, none.refuse().accuracy());
  }

  private static QuestionResult em(QuestionResult r, Boolean em, String reason, Hardness hardness) {
    return r.withExactMatch(new ExactMatchScorer.Result(em, reason, null, hardness));
  }

  @Test
  void exactMatchOverallAndByHardnessNextToExecution() {
    List<QuestionResult> results = List.of(
        em(refused(true), null, null, null),                                                   // not applicable
        em(refused(true), null, null, null),
        em(answered(false, Outcome.UNDECIDED, "NO_DATABASE"), null, "gold SQL beyond Spider's grammar: CASE", null),
        em(refused(false), false, "refused", Hardness.EASY),
        em(answered(false, Outcome.CORRECT_ANSWER, "MATCH"), true, null, Hardness.EASY),
        em(answered(false, Outcome.WRONG_RESULT, "MISMATCH"), true, null, Hardness.MEDIUM),
        em(answered(false, Outcome.WRONG_RESULT, "ERROR"), false, null, Hardness.MEDIUM),
        em(answered(false, Outcome.NON_COMPLIANT, null), false, "cannot parse SQL", Hardness.EXTRA),
        em(answered(false, Outcome.WRONG_RESULT, "TIMEOUT"), false, "beyond Spider's grammar: CASE", Hardness.EXTRA));
    Metrics.ExactMatchFigures m = Metrics.of(results, true, true).exactMatch();
    assertEquals(6, m.scored());
    assertEquals(2, m.match());
    assertEquals(2.0 / 6, m.matchRate());
    assertEquals(2, m.unparsed(), "the refusal is no unparsed answer");
    assertEquals(1, m.goldUnparsed());
    assertEquals(List.of("easy", "medium", "hard", "extra"), List.copyOf(m.byHardness().keySet()));
    assertEquals(new Metrics.Level(2, 1, 0.5, 1, 1, 1.0), m.byHardness().get("easy"));
    assertEquals(new Metrics.Level(2, 1, 0.5, 2, 0, 0.0), m.byHardness().get("medium"));
    assertEquals(new Metrics.Level(0, 0, null, 0, 0, null), m.byHardness().get("hard"));
    assertEquals(new Metrics.Level(2, 0, 0.0, 1, 0, 0.0), m.byHardness().get("extra"));
    // without execution the EX rates are not computed; without exact match there is no section
    assertNull(Metrics.of(results, false, true).exactMatch().byHardness().get("easy").exRate());
    assertNull(Metrics.of(results, true).exactMatch());
    assertNull(Metrics.of(results, true, false).exactMatch());
  }

  @Test
  void withoutExecutionNoReliabilityScore() {
    Metrics m = Metrics.of(List.of(refused(true)), false);
    assertNull(m.reliability().rs0());
    assertNull(m.execution().matchRate());
  }
}

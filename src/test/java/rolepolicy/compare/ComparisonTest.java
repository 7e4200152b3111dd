package rolepolicy.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import rolepolicy.compare.Comparison.Pair;
import rolepolicy.evaluate.QuestionResult;
import rolepolicy.io.DatasetWriter;
import rolepolicy.io.InputException;

/** Runs paired by id: the tests, the differing questions, and runs that cannot be paired. */
class ComparisonTest {
  @Test
  void pairsQuestionsByIdWhateverTheirOrder() {
    List<QuestionResult> a = Fixture.compliantFirst(7);
    List<QuestionResult> b = new ArrayList<>(Fixture.compliantFirst(4));
    java.util.Collections.reverse(b);
    Comparison c = Comparison.of(List.of(Fixture.run("a", a), Fixture.run("b", b)), 42, 200);
    Pair p = c.pairs().get(0);
    assertEquals(new McNemar(4, 3, 0, 3, 0.25), p.execution(), "q4, q5, q6 match in a only: p = 2 / 8");
    assertEquals(0.7 - 0.4, p.compliance().difference(), 0);
    assertEquals(14.0 / 201, p.compliance().p(), 1e-15, "BootstrapTest's hand-computed value, the same draws");
    assertEquals(List.of("q4", "q5", "q6"), p.differing().stream().map(Comparison.Differing::id).toList());
    assertEquals("SELECT 4", p.differing().get(0).a().answer());
    assertEquals("NON_COMPLIANT", p.differing().get(0).b().outcome());
    assertEquals(new Bootstrap.Interval(0.7, 0.4, 0.9, 200), c.metrics().get("a").get("compliance"));
  }

  @Test
  void decisionMcNemarCountsRefusalsAgainstTheGoldLabel() {
    List<QuestionResult> a = new ArrayList<>(Fixture.compliantFirst(10));
    List<QuestionResult> b = new ArrayList<>(a);
    b.set(0, Fixture.refusal(0, false)); // refuses an answerable question: a wrong decision
    Comparison c = Comparison.of(List.of(Fixture.run("a", a), Fixture.run("b", b)), 1, 50);
    assertEquals(new McNemar(9, 1, 0, 0, 1.0), c.pairs().get(0).decision());
    assertNull(c.metrics().get("a").get("refuse_precision").estimate(), "no refusal: no precision");
  }

  @Test
  void runsOverOtherQuestionsAreRefusedNamingBothFolders() {
    List<QuestionResult> a = Fixture.compliantFirst(7);
    List<QuestionResult> b = new ArrayList<>(a.subList(0, 9));
    b.add(Fixture.answer(11, true, true));
    InputException e = assertThrows(InputException.class,
        () -> Comparison.of(List.of(Fixture.run("first", a), Fixture.run("second", b)), 1, 10));
    assertTrue(e.getMessage().startsWith("first and second are not over the same questions: 1 ids only in the first (q9),"
        + " 1 only in the second (q11)"), e.getMessage());
  }

  @Test
  void otherGoldLabelsAreAnotherDataset() {
    List<QuestionResult> a = Fixture.compliantFirst(7);
    List<QuestionResult> b = new ArrayList<>(a);
    b.set(3, Fixture.refusal(3, true));
    InputException e = assertThrows(InputException.class,
        () -> Comparison.of(List.of(Fixture.run("first", a), Fixture.run("second", b)), 1, 10));
    assertTrue(e.getMessage().contains("disagree on question q3 (gold SQL of db_b against gold REFUSE of db_b)"), e.getMessage());
  }

  @Test
  void sameInputSameBytesAndOneRunHasNoPairs() throws Exception {
    List<Run> runs = List.of(Fixture.run("a", Fixture.compliantFirst(7)), Fixture.run("b", Fixture.compliantFirst(5)));
    String json = DatasetWriter.JSON.writeValueAsString(Comparison.of(runs, 3, 100));
    assertEquals(json, DatasetWriter.JSON.writeValueAsString(Comparison.of(runs, 3, 100)));
    assertEquals(CompareHtml.render(Comparison.of(runs, 3, 100)), CompareHtml.render(Comparison.of(runs, 3, 100)));
    Comparison one = Comparison.of(runs.subList(0, 1), 3, 100);
    assertTrue(one.pairs().isEmpty());
    assertEquals(List.of("db_a", "db_b"), one.databases().stream().map(Comparison.Database::dbId).toList());
  }
}

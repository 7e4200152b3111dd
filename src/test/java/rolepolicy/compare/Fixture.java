package rolepolicy.compare;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import rolepolicy.evaluate.EvaluationFolder;
import rolepolicy.evaluate.QuestionResult;
import rolepolicy.evaluate.QuestionResult.Outcome;

/** Small runs built from per-question results, without files. */
final class Fixture {
  private Fixture() {}

  /** An answered gold-SQL question: compliant or not, executed to a match or not. */
  static QuestionResult answer(int i, boolean compliant, boolean match) {
    return new QuestionResult("q" + i, i % 2 == 0 ? "db_a" : "db_b", "SQL", "SQL", "OK", List.of(), compliant,
        compliant ? (match ? "MATCH" : "MISMATCH") : null, null, null,
        !compliant ? Outcome.NON_COMPLIANT : match ? Outcome.CORRECT_ANSWER : Outcome.WRONG_RESULT, "fixture",
        null, null, null, null, "question " + i, "SELECT " + i);
  }

  /** A refusal; {@code goldRefuse}: whether the gold label is REFUSE. */
  static QuestionResult refusal(int i, boolean goldRefuse) {
    return new QuestionResult("q" + i, i % 2 == 0 ? "db_a" : "db_b", goldRefuse ? "REFUSE" : "SQL", "REFUSE", null, null,
        null, null, null, null, goldRefuse ? Outcome.CORRECT_REFUSE : Outcome.REFUSED_ANSWERABLE, "fixture",
        null, null, null, null, "question " + i, null);
  }

  /** Ten answered questions, the first {@code compliant} of them compliant (and matching). */
  static List<QuestionResult> compliantFirst(int compliant) {
    List<QuestionResult> results = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      results.add(answer(i, i < compliant, i < compliant));
    }
    return results;
  }

  static Run run(String name, List<QuestionResult> results) {
    return new Run(name, null, new EvaluationFolder(Path.of(name), "fixture.json", true, false, results), java.util.Set.of(), null);
  }
}

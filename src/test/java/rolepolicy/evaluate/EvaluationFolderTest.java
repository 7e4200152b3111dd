package rolepolicy.evaluate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rolepolicy.evaluate.QuestionResult.Found;
import rolepolicy.evaluate.QuestionResult.Outcome;
import rolepolicy.io.DatasetWriter;
import rolepolicy.io.InputException;
import rolepolicy.tablescore.ColumnRole;
import rolepolicy.tablescore.ColumnScore;

/** An evaluate output folder read back: the same results, the same metrics, or a clear refusal. */
class EvaluationFolderTest {
  @TempDir Path dir;

  static final ColumnLevel.Figures HALF = new ColumnLevel.Figures(0.5, 0.5, 0.5, List.of("a"), 1, 1, null,
      List.of(new ColumnScore("a", ColumnRole.KEY, 1, 1, 1), new ColumnScore("b", ColumnRole.VALUE, 0, 0, 0)));

  static List<QuestionResult> results() {
    return List.of(
        new QuestionResult("q1", "db", "SQL", "SQL", "OK", List.of(), true, "MISMATCH", "1 gold and 1 predicted rows", HALF,
            Outcome.WRONG_RESULT, "differs", false, null, List.of("select"), "easy", "How many?", "SELECT a, b FROM t"),
        new QuestionResult("q2", "db", "REFUSE", "SQL", "OK", List.of(new Found("t.email", "SelectExpr", "Hidden", 0, "r")),
            false, null, null, null, Outcome.ANSWERED_REFUSABLE, "answered", null, null, null, null, "Emails?",
            "SELECT email FROM t"),
        new QuestionResult("q3", "db", "SQL", "REFUSE", null, null, null, null, null, null, Outcome.REFUSED_ANSWERABLE,
            "refused", false, "refused", null, "medium", "Names?", null));
  }

  private Path write(List<QuestionResult> written, Metrics metrics) throws IOException {
    DatasetWriter.write(dir.resolve("metrics.json"), Map.of("dataset", "data/x.json", "predictors", Map.of("model", metrics)));
    List<String> lines = new ArrayList<>();
    for (QuestionResult r : written) {
      lines.add(DatasetWriter.JSON.writeValueAsString(r));
    }
    Files.write(dir.resolve("per_question.jsonl"), lines);
    return dir;
  }

  @Test
  void readsBackTheResultsAndTheirSettings() throws IOException {
    EvaluationFolder folder = EvaluationFolder.read(write(results(), Metrics.of(results(), true, true)));
    assertEquals(results(), folder.results());
    assertEquals("data/x.json", folder.dataset());
    assertTrue(folder.executed());
    assertTrue(folder.exactMatch());
    assertEquals(Metrics.of(results(), true, true), folder.metrics(folder.results()));
  }

  @Test
  void withoutExecutionOrExactMatch() throws IOException {
    EvaluationFolder folder = EvaluationFolder.read(write(results(), Metrics.of(results(), false, false)));
    assertFalse(folder.executed());
    assertFalse(folder.exactMatch());
  }

  @Test
  void filesFromDifferentRunsAreRefused() throws IOException {
    write(results().subList(0, 2), Metrics.of(results(), true, true));
    InputException e = assertThrows(InputException.class, () -> EvaluationFolder.read(dir));
    assertTrue(e.getMessage().endsWith("differ from metrics.json's model figures; the two files are not from the same run"),
        e.getMessage());
  }

  @Test
  void missingFilesAndBadLinesAreNamed() throws IOException {
    InputException missing = assertThrows(InputException.class, () -> EvaluationFolder.read(dir));
    assertEquals(dir + ": no metrics.json (expected the output folder of evaluate or run)", missing.getMessage());
    write(results(), Metrics.of(results(), true, true));
    Files.writeString(dir.resolve("per_question.jsonl"), "\n{\"id\": [1]}\n");
    InputException bad = assertThrows(InputException.class, () -> EvaluationFolder.read(dir));
    assertTrue(bad.getMessage().startsWith(dir.resolve("per_question.jsonl") + ": line 2: not a per-question result"),
        bad.getMessage());
    write(results(), Metrics.of(results(), true, true));
    DatasetWriter.write(dir.resolve("metrics.json"), Map.of("predictors", Map.of()));
    InputException noModel = assertThrows(InputException.class, () -> EvaluationFolder.read(dir));
    assertTrue(noModel.getMessage().endsWith("no predictors.model figures"), noModel.getMessage());
  }
}

package rolepolicy.evaluate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rolepolicy.TestData;
import rolepolicy.engine.ColumnPolicy;
import rolepolicy.evaluate.QuestionResult.Outcome;
import rolepolicy.io.AtomicOutput;
import rolepolicy.io.DatasetWriter;
import rolepolicy.io.InputException;

/** The pipeline evaluate and run share: score, stage metrics.json and per_question.jsonl. */
class EvaluationTest {
  @TempDir Path dir;

  private static List<GoldRecord> records() {
    Map<String, String> policies = new LinkedHashMap<>();
    for (ColumnPolicy c : TestData.autoPolicies().get("concert_singer").columns()) {
      policies.put(c.column().key(), c.finalPolicy().name());
    }
    return List.of(
        new GoldRecord("t_0001", "concert_singer", false, "SELECT count(*) FROM singer", "SELECT count(*) FROM singer", policies),
        new GoldRecord("t_0002", "concert_singer", true, null, "SELECT Age FROM singer", policies),
        new GoldRecord("t_0003", "concert_singer", false, "SELECT Name FROM singer", "SELECT Name FROM singer", policies));
  }

  private static Evaluation.Inputs settings(Path databases) {
    return new Evaluation.Inputs("split.json", TestData.schemas(), databases, 30, TestData.rules());
  }

  @Test
  void scoresStagesAndNamesWhatItScored() throws Exception {
    Evaluation.Outcome outcome = Evaluation.score(settings(TestData.spiderDir().resolve("database")), records(),
        List.of("SELECT count(*) FROM singer", "REFUSE (Age is Hidden)", "SELECT Name FROM singer WHERE 1 = 0"), "preds.txt");
    Evaluation.MetricsFile m = outcome.metrics();
    assertEquals("split.json", m.dataset());
    assertEquals("preds.txt", m.predictions());
    assertEquals("timeout 30.0 s per query", m.execution());
    assertTrue(m.notComputed().isEmpty());
    assertEquals(List.of(Evaluator.MODEL, Evaluator.ALWAYS_REFUSE, Evaluator.ORIGINAL_SQL), List.copyOf(m.predictors().keySet()));
    assertEquals(List.of(Outcome.CORRECT_ANSWER, Outcome.CORRECT_REFUSE, Outcome.WRONG_RESULT),
        outcome.model().stream().map(QuestionResult::outcome).toList());
    Metrics model = m.predictors().get(Evaluator.MODEL);
    assertEquals(3, model.questions());
    assertEquals(1.0, model.refuse().accuracy());
    assertEquals(0.5, model.execution().matchRate());

    Path out = dir.resolve("out");
    try (AtomicOutput output = new AtomicOutput()) {
      Evaluation.stage(output, out, outcome);
      assertFalse(Files.exists(out.resolve(Evaluation.METRICS)), "staged, not yet in place");
      output.commit();
    }
    JsonNode metrics = DatasetWriter.JSON.readTree(out.resolve(Evaluation.METRICS).toFile());
    assertEquals("preds.txt", metrics.path("predictions").asText());
    assertEquals(3, metrics.at("/predictors/model/questions").asInt());
    List<String> lines = Files.readAllLines(out.resolve(Evaluation.PER_QUESTION));
    assertEquals(3, lines.size());
    for (int i = 0; i < 3; i++) {
      assertEquals(DatasetWriter.JSON.writeValueAsString(outcome.model().get(i)), lines.get(i));
    }
  }

  @Test
  void withoutDatabasesExecutionIsNotRunAndSaysWhy() {
    Evaluation.Outcome outcome = Evaluation.score(settings(null), records(), List.of("REFUSE", "REFUSE", "REFUSE"), "p");
    assertEquals("not run", outcome.metrics().execution());
    assertEquals(List.of("execution match and the reliability score RS(c): they need --db"), outcome.metrics().notComputed());
    assertEquals(1.0 / 3, outcome.metrics().predictors().get(Evaluator.MODEL).refuse().accuracy(), 1e-9);
  }

  @Test
  void aMissingDatabaseFolderIsNamed() {
    Path missing = dir.resolve("no-databases");
    InputException e = assertThrows(InputException.class,
        () -> Evaluation.score(settings(missing), records(), List.of("", "", ""), "p"));
    assertEquals(missing + ": database folder not found", e.getMessage());
  }
}

package rolepolicy.evaluate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import rolepolicy.TestData;
import rolepolicy.db.SqliteRunner;
import rolepolicy.engine.QuestionEngine;
import rolepolicy.evaluate.QuestionResult.Found;
import rolepolicy.generate.SpiderRun;

/** The evaluator on the real dev split: the dataset's own labels score perfectly, negatives fail. */
class EvaluatorSpiderTest {
  private static JsonNode records;
  private static List<GoldRecord> dataset;

  @BeforeAll
  static void generateDev() {
    records = SpiderRun.records("dev", "dev.json");
    dataset = new ArrayList<>();
    records.forEach(r -> dataset.add(GoldRecord.of(r, "dev")));
  }

  private static Map<String, Metrics> evaluate(List<String> predictions, boolean execute) {
    try (SqliteRunner runner =
        execute ? new SqliteRunner(TestData.spiderDir().resolve("database"), 30) : null) {
      Evaluator evaluator =
          new Evaluator(new QuestionScorer(new QuestionEngine(TestData.rules()), TestData.schemas(), runner, true), execute);
      return evaluator.compare(dataset, evaluator.score(dataset, predictions));
    }
  }

  @Test
  void goldLabelsAsPredictionsScorePerfectly() {
    List<String> gold = new ArrayList<>();
    records.forEach(r -> gold.add(r.at("/gold_label/type").asText().equals("REFUSE") ? "REFUSE" : r.at("/gold_label/sql").asText()));
    Metrics m = evaluate(gold, true).get(Evaluator.MODEL);
    assertEquals(1.0, m.refuse().f1());
    assertEquals(1.0, m.refuse().accuracy());
    assertEquals(1.0, m.compliance().compliantRate());
    assertEquals(1.0, m.execution().matchRate());
    assertEquals(0, m.execution().goldErrors());
    // wta_1 has no SQLite file: its answerable questions are compared with nothing
    assertEquals(m.execution().noDatabase(), m.reliability().undecided());
    assertTrue(m.execution().compared() > 700, "compared " + m.execution().compared());
    assertEquals(1.0, m.reliability().rsN());
    // every gold SQL is in Spider's grammar and matches itself exactly
    long answerable = dataset.stream().filter(r -> !r.refuse()).count();
    assertEquals(answerable, m.exactMatch().scored());
    assertEquals(0, m.exactMatch().goldUnparsed());
    assertEquals(1.0, m.exactMatch().matchRate());
    int levels = 0;
    for (Metrics.Level level : m.exactMatch().byHardness().values()) {
      assertEquals(1.0, level.emRate());
      levels += level.scored();
    }
    assertEquals(answerable, levels);
  }

  @Test
  void negativeExamplesAsPredictionsAreNeverCompliantAndTheirViolationsAreFound() {
    List<String> predictions = new ArrayList<>();
    List<Integer> withNegative = new ArrayList<>();
    for (int i = 0; i < records.size(); i++) {
      JsonNode negatives = records.get(i).get("negative_examples");
      predictions.add(negatives.isEmpty() ? "REFUSE" : negatives.get(0).get("sql").asText());
      if (!negatives.isEmpty()) {
        withNegative.add(i);
      }
    }
    QuestionScorer scorer = new QuestionScorer(new QuestionEngine(TestData.rules()), TestData.schemas(), null);
    List<QuestionResult> results = new Evaluator(scorer, false).score(dataset, predictions);
    Metrics m = Metrics.of(results, false);
    assertEquals(withNegative.size(), m.compliance().answered());
    assertEquals(0.0, m.compliance().compliantRate());
    for (int i : withNegative) {
      List<String> recorded = new ArrayList<>();
      records.get(i).at("/negative_examples/0/violations").forEach(v -> recorded.add(
          v.get("column").asText() + " " + v.get("role").asText() + " " + v.get("policy").asText() + " " + v.get("agg_id").asInt()));
      List<String> found = results.get(i).violations().stream()
          .map((Found f) -> f.column() + " " + f.role() + " " + f.policy() + " " + f.aggId()).toList();
      assertEquals(recorded, found, records.get(i).get("id").asText());
    }
  }

  @Test
  void alwaysRefuseHasFullRecallAndPrecisionEqualToTheRefuseShare() {
    Metrics m = evaluate(java.util.Collections.nCopies(dataset.size(), "REFUSE"), false).get(Evaluator.ALWAYS_REFUSE);
    long refuse = dataset.stream().filter(GoldRecord::refuse).count();
    assertEquals(1.0, m.refuse().recall());
    assertEquals((double) refuse / dataset.size(), m.refuse().precision(), 1e-12);
    assertEquals(0, m.compliance().answered());
    assertEquals(null, m.reliability().rs0(), "RS needs execution");
  }
}

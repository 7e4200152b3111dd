package rolepolicy.evaluate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import rolepolicy.TestData;
import rolepolicy.engine.QuestionEngine;
import rolepolicy.io.InputException;

/**
 * Scoring on several threads gives the one-thread results in dataset order, and stops on the failure
 * a one-thread run meets first: the first 60 questions of Spider dev (bundled), without execution.
 */
class EvaluatorThreadsTest {
  private static List<GoldRecord> records;
  private static List<String> predictions;

  @BeforeAll
  static void firstSixtyDevQuestions() throws Exception {
    JsonNode dev = new ObjectMapper().readTree(Path.of("data/spider/dev.json").toFile());
    records = new ArrayList<>();
    for (int i = 0; i < 60; i++) { // every sixth one's gold label REFUSE, as a split has some
      JsonNode q = dev.get(i);
      String sql = q.get("query").asText();
      String db = q.get("db_id").asText();
      Map<String, String> policies = new TreeMap<>(); // the automatic policies, as a split records them
      TestData.autoPolicies().get(db).columns().forEach(c -> policies.put(c.column().key(), c.finalPolicy().name()));
      records.add(new GoldRecord(String.format("dev_%04d", i), db, i % 6 == 5, i % 6 == 5 ? null : sql, sql, policies,
          q.get("question").asText()));
    }
    predictions = new ArrayList<>();
    for (int i = 0; i < records.size(); i++) {
      GoldRecord r = records.get(i);
      predictions.add(i % 4 == 1 ? "REFUSE" : i % 9 == 2 ? "SELECT nothing FROM nowhere" : r.originalSql());
    }
  }

  private static QuestionScorer scorer() {
    return new QuestionScorer(new QuestionEngine(TestData.rules()), TestData.schemas(), null, true);
  }

  private static Evaluator evaluator(int threads) {
    List<QuestionScorer> scorers = new ArrayList<>();
    for (int i = 0; i < threads; i++) {
      scorers.add(scorer());
    }
    return new Evaluator(scorers, false);
  }

  @Test
  void threeThreadsGiveTheResultsOfOneInDatasetOrder() {
    List<QuestionResult> one = evaluator(1).score(records, predictions);
    List<QuestionResult> three = evaluator(3).score(records, predictions);
    assertEquals(60, three.size());
    assertEquals(one, three);
    assertEquals(records.stream().map(GoldRecord::id).toList(), three.stream().map(QuestionResult::id).toList());
  }

  @Test
  void theFailureOfTheEarliestQuestionIsTheOneReported() {
    List<GoldRecord> broken = new ArrayList<>(records);
    for (int i : new int[] {37, 21}) {
      GoldRecord r = records.get(i);
      broken.set(i, new GoldRecord(r.id(), "no_such_db_" + i, r.refuse(), r.goldSql(), r.originalSql(), r.policies()));
    }
    for (int threads : new int[] {1, 2, 3}) {
      InputException e = assertThrows(InputException.class, () -> evaluator(threads).score(broken, predictions));
      assertEquals(records.get(21).id() + ": unknown db_id 'no_such_db_21' (not in the schema file)", e.getMessage(),
          threads + " threads");
    }
  }
}

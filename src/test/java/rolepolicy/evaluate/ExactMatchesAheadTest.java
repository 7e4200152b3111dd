package rolepolicy.evaluate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import rolepolicy.TestData;
import rolepolicy.engine.ColumnPolicy;
import rolepolicy.io.InputException;

/** The model's exact match worked out ahead, while the rules are built: the same results, taken once. */
class ExactMatchesAheadTest {
  private static List<GoldRecord> records(String db) {
    Map<String, String> policies = new LinkedHashMap<>();
    for (ColumnPolicy c : TestData.autoPolicies().get("concert_singer").columns()) {
      policies.put(c.column().key(), c.finalPolicy().name());
    }
    return List.of(
        new GoldRecord("t_0001", db, false, "SELECT count(*) FROM singer", "SELECT count(*) FROM singer", policies),
        new GoldRecord("t_0002", db, true, null, "SELECT Age FROM singer", policies),
        new GoldRecord("t_0003", db, false, "SELECT Name FROM singer", "SELECT Name FROM singer", policies),
        new GoldRecord("t_0004", db, false, "SELECT Name FROM singer ORDER BY Name", "SELECT Name FROM singer", policies));
  }

  private static final List<String> PREDICTIONS =
      List.of(" SELECT count(*) FROM singer ", "REFUSE", "SELECT Name FROM singer WHERE 1 = 0", "SELECT nonsense FROM");

  private static Evaluation.Inputs settings() {
    return new Evaluation.Inputs("split.json", TestData.schemas(), TestData.spiderDir().resolve("database"), 30, TestData.rules());
  }

  @Test
  void theResultsAreThoseWithoutIt() throws Exception {
    List<GoldRecord> records = records("concert_singer");
    Evaluation.Outcome without = Evaluation.score(settings(), records, PREDICTIONS, "p", 2, null);
    ExactMatchesAhead ahead = ExactMatchesAhead.start(TestData.schemas(), records, PREDICTIONS);
    ahead.finish();
    Evaluation.Outcome with = Evaluation.score(settings(), records, PREDICTIONS, "p", 2, null, ahead);
    assertEquals(without, with);
  }

  @Test
  void aVerdictWorkedOutAheadIsTakenNotComputedAgain() throws Exception {
    List<GoldRecord> records = records("concert_singer");
    ExactMatchesAhead ahead = ExactMatchesAhead.start(TestData.schemas(), records, PREDICTIONS);
    ahead.finish();
    ExactMatchScorer scorer = new ExactMatchScorer(TestData.schemas());
    for (int i = 0; i < records.size(); i++) {
      // no scorer: the verdict must come from what was worked out ahead
      ExactMatchScorer.Result taken = ahead.get(records.get(i), PREDICTIONS.get(i), null);
      assertNotNull(taken);
      assertEquals(scorer.score(records.get(i), PREDICTIONS.get(i).strip()), taken);
      assertSame(taken, ahead.get(records.get(i), PREDICTIONS.get(i), null));
    }
  }

  @Test
  void anUnknownDatabaseIsReportedByTheScorersAsWithoutIt() throws Exception {
    List<GoldRecord> records = records("no_such_db");
    ExactMatchesAhead ahead = ExactMatchesAhead.start(TestData.schemas(), records, PREDICTIONS);
    ahead.finish();
    InputException e = assertThrows(InputException.class,
        () -> Evaluation.score(settings(), records, PREDICTIONS, "p", 1, null, ahead));
    assertEquals("t_0001: unknown db_id 'no_such_db' (not in the schema file)", e.getMessage());
  }
}

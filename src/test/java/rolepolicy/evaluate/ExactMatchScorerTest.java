package rolepolicy.evaluate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import rolepolicy.TestData;
import rolepolicy.engine.ColumnPolicy;
import rolepolicy.engine.QuestionEngine;

/** Exact match of one prediction against its record's gold SQL, as the scorer reports it. */
class ExactMatchScorerTest {
  private static final Map<String, String> POLICIES = new LinkedHashMap<>();

  static {
    for (ColumnPolicy c : TestData.autoPolicies().get("concert_singer").columns()) {
      POLICIES.put(c.column().key(), c.finalPolicy().name());
    }
  }

  /** A new scorer each time: its caches would hide a change in what fills them. */
  private static QuestionScorer scorer() {
    return new QuestionScorer(new QuestionEngine(TestData.rules()), TestData.schemas(), null, true);
  }

  private static QuestionResult score(String goldSql, String prediction) {
    GoldRecord gold = new GoldRecord("t_0001", "concert_singer", goldSql == null, goldSql, "SELECT Name FROM singer", POLICIES);
    return scorer().score(gold, prediction);
  }

  @Test
  void aMatchingPredictionAndTheGoldsHardness() {
    QuestionResult r = score("SELECT Name FROM singer WHERE Age > 20", "SELECT T1.Name FROM singer AS T1 WHERE T1.Age > 30");
    assertEquals(true, r.em());
    assertNull(r.emReason());
    assertNull(r.emDiffers());
    assertEquals("easy", r.hardness());
    assertEquals(true, scorer().exactMatch());
    assertFalse(new QuestionScorer(new QuestionEngine(TestData.rules()), TestData.schemas(), null).exactMatch());
  }

  @Test
  void aMismatchNamesTheComponentsThatDiffer() {
    QuestionResult r = score("SELECT Name FROM singer ORDER BY Age DESC", "SELECT Country FROM singer ORDER BY Age");
    assertEquals(false, r.em());
    assertNull(r.emReason());
    assertEquals(List.of("select", "select(no AGG)", "order", "keywords"), r.emDiffers());
    assertEquals("easy", r.hardness());
  }

  @Test
  void aScorerParsesEachTextOnceAndAnswersAlike() {
    QuestionScorer scorer = scorer();
    GoldRecord gold = new GoldRecord("t_0001", "concert_singer", false, "SELECT Name FROM singer", "", POLICIES);
    for (int i = 0; i < 2; i++) {
      assertEquals(true, scorer.score(gold, "SELECT Name FROM singer").em());
      assertEquals("beyond Spider's grammar: CASE",
          scorer.score(gold, "SELECT CASE WHEN Age > 1 THEN 1 END FROM singer").emReason());
    }
  }

  @Test
  void noMatchWithAReasonWhereThePredictionHasNoStructure() {
    QuestionResult beyond = score("SELECT Name FROM singer", "SELECT CASE WHEN Age > 1 THEN Name END FROM singer");
    assertEquals(false, beyond.em());
    assertEquals("beyond Spider's grammar: CASE", beyond.emReason());
    assertNull(beyond.emDiffers());
    assertEquals("easy", beyond.hardness());
    QuestionResult refused = score("SELECT Name FROM singer", " refuse ");
    assertEquals(false, refused.em());
    assertEquals("refused", refused.emReason());
    QuestionResult empty = score("SELECT Name FROM singer", "  ");
    assertEquals(false, empty.em());
    assertEquals("empty prediction", empty.emReason());
    assertEquals(false, score("SELECT Name FROM singer", null).em());
  }

  @Test
  void noExactMatchWithoutAGoldSqlInSpidersGrammar() {
    QuestionResult refuseGold = score(null, "SELECT Name FROM singer");
    assertNull(refuseGold.em());
    assertNull(refuseGold.emReason());
    assertNull(refuseGold.hardness());
    QuestionResult beyond = score("SELECT Name FROM singer LIMIT 1 OFFSET 1", "SELECT Name FROM singer LIMIT 1 OFFSET 1");
    assertNull(beyond.em());
    assertEquals("gold SQL beyond Spider's grammar: OFFSET / FETCH", beyond.emReason());
    assertNull(beyond.hardness());
  }
}

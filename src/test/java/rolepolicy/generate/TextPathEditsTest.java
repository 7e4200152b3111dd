package rolepolicy.generate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import rolepolicy.TestData;
import rolepolicy.engine.QuestionEngine;
import rolepolicy.generate.Records.GoldLabel;
import rolepolicy.generate.Records.QuestionRecord;
import rolepolicy.spider.Question;

/**
 * Rewrites on the text path where an edit would give SQL that SQLite refuses: the edit is not made
 * and the label says so, or the edit keeps what another part of the query reads. The queries are
 * hand-made on Spider's department_management, whose budget_in_billions is AggOnly.
 */
class TextPathEditsTest {
  private static QuestionRecord generate(String sql) {
    QuestionGenerator generator =
        new QuestionGenerator(
            new QuestionEngine(TestData.rules()), TestData.schemas(), TestData.autoPolicies());
    return generator.generate(
        "test_0001", new Question(1, "department_management", "a question", sql, null), null);
  }

  @Test
  void r2DoesNotWrapAnItemThatAlreadyCallsAnAggregate() {
    GoldLabel gold = generate("SELECT budget_in_billions - count(*) FROM department").goldLabel();
    assertEquals("REFUSE", gold.type());
    assertEquals("UNVERIFIED_SQL", gold.reason());
    assertEquals("R2: wrap a selected AggOnly column in AVG", gold.rule());
    assertTrue(gold.detail().contains("already calls an aggregate"), gold.detail());
  }

  @Test
  void r2DoesNotWrapAnItemWithAWindowFunction() {
    GoldLabel gold =
        generate("SELECT budget_in_billions * rank() OVER (ORDER BY name) FROM department").goldLabel();
    assertEquals("UNVERIFIED_SQL", gold.reason());
  }

  @Test
  void r2KeepsTheNameThatTheOrderByOfASetOperationReads() {
    GoldLabel gold =
        generate(
                "SELECT budget_in_billions FROM department UNION SELECT num_employees FROM department"
                    + " ORDER BY budget_in_billions")
            .goldLabel();
    assertEquals("SQL", gold.type(), gold.toString());
    assertEquals(
        "SELECT AVG(budget_in_billions) AS budget_in_billions FROM department UNION SELECT"
            + " num_employees FROM department ORDER BY budget_in_billions",
        gold.sql());
  }

  @Test
  void aParenthesisedAggregateItemGetsTheN2Negative() {
    QuestionRecord record = generate("SELECT (avg(budget_in_billions)) FROM department");
    assertEquals("N2", record.negativeExamples().get(0).rule(), record.toString());
    record = generate("SELECT DISTINCT(avg(budget_in_billions)) FROM department");
    assertEquals("N2", record.negativeExamples().get(0).rule(), record.toString());
  }
}

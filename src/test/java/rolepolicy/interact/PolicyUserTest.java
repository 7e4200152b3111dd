package rolepolicy.interact;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import rolepolicy.TestData;
import rolepolicy.evaluate.GoldRecord;
import rolepolicy.interact.InteractQuestion.GoldStep;
import rolepolicy.interact.InteractQuestion.PolicyGold;
import rolepolicy.model.ClarificationOption;

/** The policy user's answers, and the words of its "something else" from the gold label. */
class PolicyUserTest {
  private static final List<ClarificationOption> OPTIONS = List.of(
      new ClarificationOption("REFUSE", "No answer", "r", null), new ClarificationOption("OTHER", "Something else:", "o", null));

  private static PolicyGold gold(boolean refuse, String sql, GoldStep... steps) {
    return new PolicyGold(new GoldRecord("t", "concert_singer", refuse, sql, sql, Map.of()), List.of(steps));
  }

  @Test
  void refusesForARefuseGoldLabel() {
    PolicyUser.Answer a = PolicyUser.answer(gold(true, null), OPTIONS, 0, "no column");
    assertEquals("REFUSE", a.option().code());
    assertEquals("No answer", a.text());
  }

  @Test
  void saysTheGoldRewriteThatIsNotOffered() {
    PolicyUser.Answer a = PolicyUser.answer(gold(false, "SELECT avg(age) FROM singer", new GoldStep("R2", "singer.age")),
        OPTIONS, 0, "singer.age (averaged)");
    assertEquals("OTHER", a.option().code());
    assertEquals("Something else: show the average of singer.age instead of its values", a.text());
  }

  @Test
  void saysTheColumnsOfTheGoldSqlWithoutARewrite() {
    PolicyClarifier clarifier = new PolicyClarifier(TestData.engine(), TestData.schemas());
    GoldRecord record = new GoldRecord("t", "concert_singer", false,
        "SELECT T1.name, count(*) FROM singer AS T1 JOIN singer_in_concert AS T2 ON T1.singer_id = T2.singer_id"
            + " WHERE T1.age > 30 GROUP BY T1.name", "SELECT 1", Map.of());
    String words = clarifier.columnsInWords(record);
    assertEquals("singer.name (selected), singer.singer_id (to join), singer_in_concert.singer_id (to join),"
        + " singer.age (to filter, group or order)", words);
    PolicyUser.Answer a = PolicyUser.answer(new PolicyGold(record, List.of()), OPTIONS, 0, words);
    assertEquals("Something else: answer with SQL that keeps to the policies and uses " + words, a.text());
  }
}

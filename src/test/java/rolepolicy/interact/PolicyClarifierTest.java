package rolepolicy.interact;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import rolepolicy.engine.EditFailed;
import rolepolicy.engine.TextAnalyser;
import rolepolicy.engine.TextQuery;
import rolepolicy.TestData;
import rolepolicy.evaluate.GoldRecord;
import rolepolicy.model.ClarificationOption;
import rolepolicy.model.PolicedColumn;
import rolepolicy.model.Policy;
import rolepolicy.model.RewriteStep;

/** Applying a chosen rewrite to SQL text, checked by analysing the edited text again. */
class PolicyClarifierTest {
  private static final PolicyClarifier CLARIFIER = new PolicyClarifier(TestData.engine(), TestData.schemas());

  private static GoldRecord gold(String sql) {
    Map<String, String> policies = new LinkedHashMap<>();
    TestData.schemas().get("concert_singer").realColumns().forEach(c -> policies.put(c.key(), "Public"));
    policies.put("singer.song_name", "JoinOnly");
    policies.put("singer.age", "AggOnly");
    return new GoldRecord("t", "concert_singer", false, "SELECT 1", sql, policies);
  }

  private static String applyChosen(String sql, String code) {
    PolicyClarifier.Check check = CLARIFIER.check(gold(sql), sql, 0);
    ClarificationOption option = check.options().stream().filter(o -> o.code().equals(code)).findFirst().orElseThrow();
    try {
      return TextQuery.of(new TextAnalyser(TestData.schemas().get("concert_singer")), sql).rewrite(option.step()).sql();
    } catch (EditFailed e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void r1RenamesTheSelectedColumnAndKeepsTheRest() {
    assertEquals("SELECT singer.Singer_ID, country FROM singer", applyChosen("SELECT song_name, country FROM singer", "R1"));
    assertEquals("SELECT T1.Singer_ID FROM singer AS T1 JOIN singer_in_concert AS T2 ON T1.singer_id = T2.singer_id",
        applyChosen("SELECT T1.song_name FROM singer AS T1 JOIN singer_in_concert AS T2 ON T1.singer_id = T2.singer_id", "R1"));
  }

  @Test
  void r2WrapsTheSelectItemInAvg() {
    assertEquals("SELECT AVG(age), country FROM singer GROUP BY country",
        applyChosen("SELECT age, country FROM singer GROUP BY country", "R2"));
  }

  @Test
  void r2IsOfferedInALaterBranchOfASetOperation() {
    // the branch's items have no top-level SELECT item number: the edit is checked by its text span
    String sql = "SELECT name, country FROM singer UNION SELECT age, country FROM singer";
    PolicyClarifier.Check check = CLARIFIER.check(gold(sql), sql, 0);
    ClarificationOption r2 = check.options().stream().filter(o -> o.code().equals("R2")).findFirst()
        .orElseThrow(() -> new AssertionError("R2 not offered: " + check.edits()));
    assertEquals("SELECT name, country FROM singer UNION SELECT AVG(age), country FROM singer", r2.edit().sql());
  }

  @Test
  void anEditWhoseTextDoesNotAnalyseAsExpectedIsRefused() {
    String sql = "SELECT song_name FROM singer";
    PolicyClarifier.Check check = CLARIFIER.check(gold(sql), sql, 0);
    RewriteStep r1 = check.options().get(0).step();
    // the same step, but with a replacement from another table: the edited text names no column of singer
    RewriteStep foreign = new RewriteStep(r1.code(), r1.rule(), r1.ref(),
        new PolicedColumn("stadium.capacity", "stadium", "Capacity", 4, false, Policy.Public),
        rolepolicy.model.Aggregate.NONE);
    TextQuery query = TextQuery.of(new TextAnalyser(TestData.schemas().get("concert_singer")), sql);
    EditFailed e = assertThrows(EditFailed.class, () -> query.rewrite(foreign));
    assertTrue(e.getMessage().contains("Capacity"), e.getMessage());
  }
}

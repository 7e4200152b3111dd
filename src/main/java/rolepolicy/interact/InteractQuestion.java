package rolepolicy.interact;

import java.util.List;
import rolepolicy.evaluate.GoldRecord;

/**
 * One question of the loop.
 *
 * @param index its place in the question file, from 0
 * @param id its id: the dataset's, else the place
 * @param evidence BIRD's hint, or null
 * @param goldSql the SQL whose result is the answer; null when the gold label is REFUSE
 * @param policy the policy dataset's gold, or null for a question list without policies
 */
public record InteractQuestion(
    int index, String id, String dbId, String question, String evidence, String goldSql, PolicyGold policy) {

  /**
   * The gold of a policy dataset record.
   *
   * @param record what the evaluator scores against
   * @param steps the gold label's rewrite steps, in order
   */
  public record PolicyGold(GoldRecord record, List<GoldStep> steps) {
    public boolean refuse() {
      return record.refuse();
    }
  }

  /** One rewrite step of a gold label: its code (R1, R2) and the column it rewrote. */
  public record GoldStep(String code, String column) {}
}

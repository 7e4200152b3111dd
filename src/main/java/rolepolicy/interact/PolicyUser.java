package rolepolicy.interact;

import java.util.List;
import rolepolicy.interact.InteractQuestion.GoldStep;
import rolepolicy.interact.InteractQuestion.PolicyGold;
import rolepolicy.model.ClarificationOption;

/**
 * The deterministic user of a policy dataset, who knows the record's gold label: no answer when the
 * gold label is REFUSE; else the rewrite the gold label made at that step (same rule, same column);
 * else "other", in words from the gold label: the rewrite it made at that step, or the columns its
 * SQL uses.
 */
public final class PolicyUser {
  private PolicyUser() {}

  /** The option chosen and the answer as the user words it. */
  public record Answer(ClarificationOption option, String text) {}

  /**
   * The answer at the {@code asked}-th policy clarification of a question (from 0); {@code
   * goldColumns} are the gold SQL's columns in words ({@link PolicyClarifier#columnsInWords}).
   */
  public static Answer answer(PolicyGold gold, List<ClarificationOption> options, int asked, String goldColumns) {
    if (gold.refuse()) {
      return chosen(option(options, "REFUSE"));
    }
    GoldStep step = asked < gold.steps().size() ? gold.steps().get(asked) : null;
    if (step != null) {
      for (ClarificationOption o : options) {
        if (o.step() != null && o.code().equals(step.code()) && o.step().ref().column().equals(step.column())) {
          return chosen(o);
        }
      }
    }
    ClarificationOption other = option(options, "OTHER");
    String words = step == null
        ? "answer with SQL that keeps to the policies and uses " + goldColumns
        : step.code().equals("R2")
            ? "show the average of " + step.column() + " instead of its values"
            : "show another _id column instead of " + step.column();
    return new Answer(other, other.text() + " " + words);
  }

  /** The option chosen; the words are the option's own (REFUSE, OTHER with no gold words). */
  public static ClarificationOption choose(PolicyGold gold, List<ClarificationOption> options, int asked) {
    return answer(gold, options, asked, "").option();
  }

  private static Answer chosen(ClarificationOption o) {
    return new Answer(o, o.text());
  }

  private static ClarificationOption option(List<ClarificationOption> options, String code) {
    return options.stream().filter(o -> o.code().equals(code)).findFirst()
        .orElseThrow(() -> new IllegalStateException("the clarification rules offered no " + code + " option: " + options));
  }
}

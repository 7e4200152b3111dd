package rolepolicy.interact;

import java.util.List;
import rolepolicy.interact.InteractQuestion.GoldStep;
import rolepolicy.interact.InteractQuestion.PolicyGold;
import rolepolicy.model.ClarificationOption;

/**
 * The deterministic user of a policy dataset, who knows the record's gold label: no answer when the
 * gold label is REFUSE; else the rewrite the gold label made at that step (same rule, same column);
 * else "other", since no offered option leads to the gold answer.
 */
public final class PolicyUser {
  private PolicyUser() {}

  /** The option chosen at the {@code asked}-th policy clarification of a question (from 0). */
  public static ClarificationOption choose(PolicyGold gold, List<ClarificationOption> options, int asked) {
    if (gold.refuse()) {
      return option(options, "REFUSE");
    }
    if (asked < gold.steps().size()) {
      GoldStep step = gold.steps().get(asked);
      for (ClarificationOption o : options) {
        if (o.step() != null && o.code().equals(step.code()) && o.step().ref().column().equals(step.column())) {
          return o;
        }
      }
    }
    return option(options, "OTHER");
  }

  private static ClarificationOption option(List<ClarificationOption> options, String code) {
    return options.stream().filter(o -> o.code().equals(code)).findFirst()
        .orElseThrow(() -> new IllegalStateException("the clarification rules offered no " + code + " option: " + options));
  }
}

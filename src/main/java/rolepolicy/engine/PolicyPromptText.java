package rolepolicy.engine;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.kie.api.KieBase;
import org.kie.api.definition.rule.Rule;
import rolepolicy.io.InputException;
import rolepolicy.model.Policy;
import rolepolicy.model.Role;

/**
 * The policy text of a prompt, made from the metadata of a rule base's permission rules: a rule
 * with {@code @forbids} (a policy) and {@code @inRoles} forbids that policy those roles and gives the
 * words {@code @promptText} for its policy's line; a rule with {@code @promptText} alone gives a
 * sentence of its own. (Drools reads a metadata key that names a class, such as {@code @policy},
 * as that class.) Roles no rule judges are named as not checked. Lines and words come in rule order.
 */
public final class PolicyPromptText {
  private PolicyPromptText() {}

  public static String of(KieBase base) {
    Map<Policy, List<String>> forbids = new EnumMap<>(Policy.class);
    List<String> sentences = new ArrayList<>();
    Set<Role> judged = EnumSet.noneOf(Role.class);
    for (Rule rule : RuleBase.inOrder(base)) {
      Map<String, Object> meta = rule.getMetaData();
      String prompt = text(meta.get("promptText"));
      String policy = text(meta.get("forbids"));
      if (prompt == null) {
        if (policy != null) {
          throw new InputException(RuleBase.describe(base, rule) + ": @forbids without @promptText");
        }
        continue;
      }
      if (policy == null) {
        sentences.add(prompt);
        continue;
      }
      try {
        forbids.computeIfAbsent(Policy.valueOf(policy), p -> new ArrayList<>()).add(prompt);
        String roles = text(meta.get("inRoles"));
        for (String role : (roles == null ? "" : roles).trim().split("\\s+")) {
          judged.add(Role.valueOf(role));
        }
      } catch (IllegalArgumentException e) {
        throw new InputException(RuleBase.describe(base, rule)
            + ": @forbids must name a policy and @inRoles the roles it judges (" + e.getMessage() + ")");
      }
    }
    StringBuilder out = new StringBuilder("Every column has one usage policy:\n");
    for (Policy p : Policy.values()) {
      List<String> words = forbids.get(p);
      out.append("- ").append(p).append(": ")
          .append(words == null ? "use it anywhere" : String.join("; ", words)).append(".\n");
    }
    List<String> unchecked = new ArrayList<>();
    for (Role role : Role.values()) {
      if (!judged.contains(role)) {
        unchecked.add(role.clause());
      }
    }
    if (!unchecked.isEmpty()) {
      out.append(series(unchecked)).append(unchecked.size() == 1 ? " is" : " are")
          .append(" not checked: any column may be used there.\n");
    }
    sentences.forEach(s -> out.append(s).append('\n'));
    return out.toString().strip();
  }

  private static String text(Object value) {
    return value == null ? null : value.toString().replaceAll("^\"|\"$", "");
  }

  /** "a", "a and b", "a, b and c". */
  private static String series(List<String> words) {
    if (words.size() == 1) {
      return words.get(0);
    }
    return String.join(", ", words.subList(0, words.size() - 1)) + " and " + words.get(words.size() - 1);
  }
}

package rolepolicy.engine;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.kie.api.KieBase;
import rolepolicy.model.Policy;
import rolepolicy.model.Role;

/**
 * The policy text of a prompt, made from the metadata of a rule base's permission rules
 * ({@link PermissionMetadata}): a rule that forbids a policy gives its words to that policy's line;
 * a rule with words alone gives a sentence of its own. Roles no rule judges are named as not
 * checked. Lines and words come in rule order.
 */
public final class PolicyPromptText {
  private PolicyPromptText() {}

  public static String of(KieBase base) {
    Map<Policy, List<String>> forbids = new EnumMap<>(Policy.class);
    List<String> sentences = new ArrayList<>();
    Set<Role> judged = EnumSet.noneOf(Role.class);
    for (PermissionMetadata.Statement statement : PermissionMetadata.of(base)) {
      if (statement.forbids() == null) {
        sentences.add(statement.promptText());
      } else {
        forbids.computeIfAbsent(statement.forbids(), p -> new ArrayList<>()).add(statement.promptText());
        judged.addAll(statement.roles());
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

  /** "a", "a and b", "a, b and c". */
  private static String series(List<String> words) {
    if (words.size() == 1) {
      return words.get(0);
    }
    return String.join(", ", words.subList(0, words.size() - 1)) + " and " + words.get(words.size() - 1);
  }
}

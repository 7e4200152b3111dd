package rolepolicy.engine;

import java.util.ArrayList;
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
 * What the permission rules' metadata says, in rule order: a rule with {@code @forbids} (a policy)
 * and {@code @inRoles} forbids that policy those roles, in the words {@code @promptText}; a rule with
 * {@code @promptText} alone states a sentence of its own. (Drools reads a metadata key that names a
 * class, such as {@code @policy}, as that class.)
 */
public final class PermissionMetadata {
  /**
   * One rule's statement.
   *
   * @param rule the rule's name
   * @param forbids the policy it forbids, or null for a sentence of its own
   * @param roles the roles it judges (empty for a sentence)
   * @param promptText the words the model reads
   */
  public record Statement(String rule, Policy forbids, Set<Role> roles, String promptText) {}

  private PermissionMetadata() {}

  public static List<Statement> of(KieBase base) {
    List<Statement> statements = new ArrayList<>();
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
        statements.add(new Statement(rule.getName(), null, Set.of(), prompt));
        continue;
      }
      try {
        Set<Role> judged = EnumSet.noneOf(Role.class);
        String roles = text(meta.get("inRoles"));
        for (String role : (roles == null ? "" : roles).trim().split("\\s+")) {
          judged.add(Role.valueOf(role));
        }
        statements.add(new Statement(rule.getName(), Policy.valueOf(policy), Set.copyOf(judged), prompt));
      } catch (IllegalArgumentException e) {
        throw new InputException(RuleBase.describe(base, rule)
            + ": @forbids must name a policy and @inRoles the roles it judges (" + e.getMessage() + ")");
      }
    }
    return statements;
  }

  private static String text(Object value) {
    return value == null ? null : value.toString().replaceAll("^\"|\"$", "");
  }
}

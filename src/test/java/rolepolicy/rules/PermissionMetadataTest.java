package rolepolicy.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.kie.api.KieBase;
import org.kie.api.definition.KiePackage;
import org.kie.api.definition.rule.Rule;
import rolepolicy.TestData;
import rolepolicy.engine.QuestionEngine;
import rolepolicy.model.Aggregate;
import rolepolicy.model.ColumnRef;
import rolepolicy.model.Policy;
import rolepolicy.model.Role;
import rolepolicy.model.Violation;

/**
 * The metadata the prompt is made from says what each permission rule does: a rule with
 * {@code @forbids(P) @inRoles(R…)} fires on a column of policy P in exactly the roles R (under some
 * aggregate or none), and no permission rule fires without such metadata.
 */
class PermissionMetadataTest {
  private static final Map<Policy, String> COLUMN_OF = Map.of(
      Policy.Public, "student.name",
      Policy.JoinOnly, "student.student_id",
      Policy.AggOnly, "student.score",
      Policy.Hidden, "student.email");

  @ParameterizedTest
  @ValueSource(strings = {"spec-v1", "strict"})
  void everyPermissionRuleFiresOnTheCellsItsMetadataNames(String profile) {
    KieBase rules = TestData.rules(profile);
    Map<String, Set<String>> declared = new TreeMap<>();
    for (KiePackage pkg : rules.getKiePackages()) {
      for (Rule rule : pkg.getRules()) {
        Object policy = rule.getMetaData().get("forbids");
        if (policy != null) {
          Set<String> cells = new TreeSet<>();
          for (String role : rule.getMetaData().get("inRoles").toString().replace("\"", "").split(" ")) {
            cells.add(policy.toString().replace("\"", "") + " " + role);
          }
          declared.put(rule.getName(), cells);
        }
      }
    }
    assertTrue(declared.size() >= 6, declared::toString);
    List<ColumnRef> refs = new ArrayList<>();
    for (Policy p : Policy.values()) {
      for (Role role : Role.values()) {
        for (Aggregate agg : Aggregate.values()) {
          refs.add(new ColumnRef(refs.size(), COLUMN_OF.get(p), role, agg, -1, null, null));
        }
      }
    }
    Map<String, Set<String>> fired = new TreeMap<>();
    for (Violation v : new QuestionEngine(rules).violations(refs, List.of("student"), School.POLICIES, null, "test")) {
      Policy column = COLUMN_OF.entrySet().stream().filter(e -> e.getValue().equals(v.ref().column()))
          .findFirst().orElseThrow().getKey();
      fired.computeIfAbsent(v.rule(), r -> new TreeSet<>()).add(column + " " + v.ref().role());
    }
    assertEquals(declared, fired);
  }
}

package rolepolicy.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.kie.api.runtime.KieSession;
import rolepolicy.TestData;
import rolepolicy.engine.ColumnPolicy;
import rolepolicy.engine.DatabasePolicies;
import rolepolicy.model.OverriddenPolicy;
import rolepolicy.model.OverrideProblem;
import rolepolicy.model.Policy;
import rolepolicy.model.PolicyOverride;
import rolepolicy.io.InputException;

/** One test per rule of {@code rules/overrides.drl} (SPEC §3, overrides). */
class OverrideRulesTest {
  static final String APPLIED = "An override replaces the automatic policy";
  static final String NO_COLUMN = "An override must name an existing column";
  static final String STALE = "An override must match the automatic policy";

  /** Written against the rules' JoinOnly; table and column in another case than the schema. */
  static final PolicyOverride PUBLISH_CLUB_ID =
      new PolicyOverride(
          1, "school", "Club", "Club_ID", Policy.JoinOnly, Policy.Public, "printed on club cards");

  /** Names a column the school database does not have. */
  static final PolicyOverride NO_SUCH_COLUMN =
      new PolicyOverride(
          2, "school", "club", "nickname", Policy.Public, Policy.Hidden, "nicknames are private");

  /** Says budget was Public; the rules make it AggOnly. */
  static final PolicyOverride STALE_BUDGET =
      new PolicyOverride(
          3, "school", "club", "budget", Policy.Public, Policy.Hidden, "budgets are secret");

  @Test
  @DisplayName(APPLIED)
  void anOverrideReplacesTheAutomaticPolicy() {
    DatabasePolicies policies = School.policies(PUBLISH_CLUB_ID);

    ColumnPolicy clubId = School.policyOf(policies, "club.club_id");
    assertEquals(Policy.JoinOnly, clubId.autoPolicy());
    assertEquals(PolicyRulesTest.KEY, clubId.autoRule());
    assertEquals(Policy.Public, clubId.finalPolicy());
    assertEquals("printed on club cards", clubId.overrideReason());
    assertEquals(APPLIED, clubId.overrideRule());

    ColumnPolicy title = School.policyOf(policies, "club.title");
    assertEquals(Policy.Public, title.finalPolicy());
    assertNull(title.overrideRule());

    // only the column it names: other JoinOnly columns keep their policy
    ColumnPolicy studentId = School.policyOf(policies, "student.student_id");
    assertEquals(Policy.JoinOnly, studentId.finalPolicy());
    assertNull(studentId.overrideRule());
    List<OverriddenPolicy> applied = fire(PUBLISH_CLUB_ID, OverriddenPolicy.class);
    assertEquals(1, applied.size(), applied::toString);
    assertEquals("club.club_id", applied.get(0).column().key());
  }

  @Test
  @DisplayName(NO_COLUMN)
  void anOverrideMustNameAnExistingColumn() {
    InputException e =
        assertThrows(InputException.class, () -> School.policies(PUBLISH_CLUB_ID, NO_SUCH_COLUMN));
    assertTrue(
        e.getMessage()
            .contains("override #2 (school club.nickname): names no column club.nickname in database school"),
        e.getMessage());
    assertFalse(e.getMessage().contains("override #1"), "a good entry is blamed: " + e.getMessage());

    List<OverrideProblem> problems = fire(NO_SUCH_COLUMN, OverrideProblem.class);
    assertEquals(1, problems.size(), problems::toString);
    assertEquals(NO_COLUMN, problems.get(0).rule());
    assertEquals(NO_SUCH_COLUMN, problems.get(0).override());
  }

  @Test
  @DisplayName(STALE)
  void anOverrideMustMatchTheAutomaticPolicy() {
    InputException e = assertThrows(InputException.class, () -> School.policies(STALE_BUDGET));
    assertTrue(
        e.getMessage()
            .contains(
                "override #3 (school club.budget): says auto_policy Public but the rules assign"
                    + " AggOnly (" + PolicyRulesTest.FIGURES + ")"),
        e.getMessage());

    List<OverrideProblem> problems = fire(STALE_BUDGET, OverrideProblem.class);
    assertEquals(1, problems.size(), problems::toString);
    assertEquals(STALE, problems.get(0).rule());
    assertTrue(fire(STALE_BUDGET, OverriddenPolicy.class).isEmpty(), "a stale override applied");
    // an override written against the policy the rules assign is not stale
    assertTrue(fire(PUBLISH_CLUB_ID, OverrideProblem.class).isEmpty());
  }

  /** The school's columns and one override in a fresh session; the conclusions of one type. */
  private static <T> List<T> fire(PolicyOverride override, Class<T> type) {
    KieSession session = TestData.rules().newKieSession();
    try {
      School.SCHEMA.realColumns().forEach(session::insert);
      session.insert(override);
      session.fireAllRules();
      List<T> found = new ArrayList<>();
      for (Object fact : session.getObjects()) {
        if (type.isInstance(fact)) {
          found.add(type.cast(fact));
        }
      }
      return found;
    } finally {
      session.dispose();
    }
  }
}

package rolepolicy.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import rolepolicy.report.SplitRecord.Negative;
import rolepolicy.report.SplitRecord.Violation;

/** Q4's one-edit check, and the set-operation test behind "no negative". */
class NegativeCheckTest {
  private static Violation selected(String column, String policy) {
    return new Violation(column, "SelectExpr", policy, 0, "rule");
  }

  @Test
  void anAppendedSelectItemIsOneInsertion() {
    assertEquals("email", NegativeCheck.appendedColumn("SELECT name FROM people", "SELECT name, people.email FROM people"));
    assertEquals("home town", NegativeCheck.appendedColumn("SELECT T1.a FROM t AS T1", "SELECT T1.a, T1.`Home Town` FROM t AS T1"));
    // the same item appended twice over reads as an insertion at either place
    assertEquals("a", NegativeCheck.appendedColumn("SELECT a, T1.a FROM t AS T1", "SELECT a, T1.a, T1.a FROM t AS T1"));
  }

  @Test
  void twoEditedPlacesOrAnotherInsertionAreNotOneEdit() {
    assertNull(NegativeCheck.appendedColumn("SELECT a FROM t WHERE b = 1", "SELECT a, t.c FROM t WHERE b = 2"));
    assertNull(NegativeCheck.appendedColumn("SELECT a FROM t", "SELECT a FROM t WHERE t.c = 1"));
    assertNull(NegativeCheck.appendedColumn("SELECT a, b FROM t", "SELECT a FROM t"));
  }

  @Test
  void anUnwrappedAggregateIsOneEdit() {
    assertEquals("price", NegativeCheck.unwrappedColumn("SELECT avg(T1.price) FROM t AS T1", "SELECT T1.price FROM t AS T1"));
    assertEquals("price", NegativeCheck.unwrappedColumn("SELECT count(DISTINCT price) FROM t", "SELECT price FROM t"));
    assertNull(NegativeCheck.unwrappedColumn("SELECT avg(price) FROM t", "SELECT cost FROM t"));
    assertNull(NegativeCheck.unwrappedColumn("SELECT avg(price + 1) FROM t", "SELECT price + 1 FROM t"));
  }

  @Test
  void theIntroducedViolationMustBeListed() {
    Map<String, String> policies = Map.of("people.email", "Hidden", "people.name", "Public", "people.id", "JoinOnly");
    Negative n1 = new Negative("SELECT name, people.email FROM people", List.of(selected("people.email", "Hidden")), "N1");
    assertNull(NegativeCheck.failure("SELECT name FROM people", n1, List.of(), policies));
    Negative missing = new Negative("SELECT name, people.email FROM people", List.of(), "N1");
    assertTrue(NegativeCheck.failure("SELECT name FROM people", missing, List.of(), policies).contains("introduced"));
    // the violation must name the policy the record gives the column: email is Hidden, not JoinOnly
    Negative wrongPolicy = new Negative("SELECT name, people.email FROM people", List.of(selected("people.email", "JoinOnly")), "N3");
    assertTrue(NegativeCheck.failure("SELECT name FROM people", wrongPolicy, List.of(), policies).contains("introduced"));
    // a violation the original already had is not the introduced one
    Negative again = new Negative("SELECT id, people.id FROM people", List.of(selected("people.id", "JoinOnly")), "N3");
    assertTrue(NegativeCheck.failure("SELECT id FROM people", again, List.of(selected("people.id", "JoinOnly")), policies)
        .contains("introduced"));
    // the rule's code is not read: the text says which edit was made
    Negative unwrapped = new Negative("SELECT people.email FROM people", List.of(selected("people.email", "Hidden")), "N9");
    assertNull(NegativeCheck.failure("SELECT count(people.email) FROM people", unwrapped, List.of(), policies));
  }
}

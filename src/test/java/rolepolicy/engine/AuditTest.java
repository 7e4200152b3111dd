package rolepolicy.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import rolepolicy.model.ColumnRef;
import rolepolicy.model.FromTable;
import rolepolicy.model.PolicedColumn;
import rolepolicy.model.Policy;
import rolepolicy.model.Role;
import rolepolicy.model.SchemaColumn;
import rolepolicy.model.SelectItem;
import rolepolicy.model.Unrewritable;
import rolepolicy.model.Violation;

/** The facts an audit keeps for explain, each described as the firings describe it. */
class AuditTest {
  private static final ColumnRef AGE = new ColumnRef(2, "singer.age", Role.SelectExpr, rolepolicy.model.Aggregate.NONE, 1, "/select/1", "/select/1");

  @Test
  void everyKindOfFactIsDescribedAndMarkersByTheirOwnText() {
    Audit audit = new Audit(true);
    Violation hidden = new Violation(AGE, Policy.Hidden, "Hidden columns may not be used");
    audit.recordFacts("original", List.of(
        AGE,
        new PolicedColumn("singer.age", "singer", "Age", 5, false, Policy.Hidden),
        new SchemaColumn("concert_singer", 5, "singer", "Age", "number", false),
        hidden,
        new Unrewritable(hidden, "R3", "R3: …"),
        new FromTable("singer", 0),
        new SelectItem(1, rolepolicy.model.Aggregate.NONE, "singer.age", "/select/1"),
        "a marker"));
    assertEquals(List.of(new Audit.Inserted("original", List.of(
        "singer.age SelectExpr #2", "singer.age Hidden", "singer.age", "singer.age SelectExpr #2 Hidden",
        "singer.age SelectExpr #2 R3", "FROM singer", "SELECT item 1", "a marker"))), audit.inserted());
  }

  @Test
  void anAuditOfFiringsOnlyKeepsNoFacts() {
    Audit audit = new Audit();
    audit.recordFacts("original", List.of(AGE));
    assertFalse(audit.keepsFacts());
    assertEquals(List.of(), audit.inserted());
    assertFalse(audit.fresh().keepsFacts());
  }

  @Test
  void addAllAppendsFiringsAndFactsInOrder() {
    Audit first = new Audit(true);
    first.recordFacts("original", List.of(AGE));
    Audit second = first.fresh();
    assertTrue(second.keepsFacts());
    second.recordFacts("step 1", List.of(new FromTable("singer", 0)));
    first.addAll(second);
    assertEquals(List.of("original", "step 1"), first.inserted().stream().map(Audit.Inserted::stage).toList());
    Audit plain = new Audit();
    plain.addAll(second);
    assertEquals(List.of(), plain.inserted());
  }
}

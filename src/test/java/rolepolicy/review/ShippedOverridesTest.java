package rolepolicy.review;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import rolepolicy.TestData;
import rolepolicy.engine.ColumnPolicy;
import rolepolicy.engine.DatabasePolicies;
import rolepolicy.engine.PolicyAssigner;
import rolepolicy.model.Policy;
import rolepolicy.model.PolicyOverride;
import rolepolicy.spider.OverridesReader;
import rolepolicy.spider.Schema;

/** Guards {@code data/overrides.json}, the shipped review of all Spider databases (issue 5). */
class ShippedOverridesTest {
  static final Path FILE = Path.of("data", "overrides.json");
  static final Path NOTES = Path.of("docs", "review");

  static List<PolicyOverride> overrides;
  static Map<String, DatabasePolicies> policies;

  /** Read and applied exactly as the generator does; a bad entry fails here, naming itself. */
  @BeforeAll
  static void loadThroughTheRealRules() {
    overrides = OverridesReader.read(FILE);
    policies = new PolicyAssigner(TestData.rules()).assign(TestData.schemas(), overrides, FILE.toString());
  }

  @Test
  void everyEntryNamesAnExistingColumnAndIsApplied() {
    List<String> wrong = new ArrayList<>();
    for (PolicyOverride o : overrides) {
      Schema schema = TestData.schemas().get(o.dbId());
      if (schema == null || schema.columnByKey(o.key()).isEmpty()) {
        wrong.add(o.describe() + ": no such column");
        continue;
      }
      ColumnPolicy applied = policyOf(o);
      if (applied.finalPolicy() != o.finalPolicy() || applied.overrideRule() == null) {
        wrong.add(o.describe() + ": not applied");
      }
    }
    assertEquals(List.of(), wrong);
  }

  @Test
  void noEntrySetsTheFinalPolicyToTheAutomaticOne() {
    for (PolicyOverride o : overrides) {
      assertNotEquals(o.autoPolicy(), o.finalPolicy(), o.describe() + " changes nothing");
      assertEquals(o.autoPolicy(), policyOf(o).autoPolicy(), o.describe());
    }
  }

  @Test
  void everyReasonNamesItsTable() {
    for (PolicyOverride o : overrides) {
      assertTrue(
          o.reason().toLowerCase(Locale.ROOT).contains(o.table().toLowerCase(Locale.ROOT)),
          o.describe() + ": the reason does not name its table: " + o.reason());
    }
  }

  @Test
  void everyDatabaseHasAReviewNoteThatListsItsOverrides() throws IOException {
    List<String> missing = new ArrayList<>();
    for (String db : TestData.schemas().keySet()) {
      if (!Files.isRegularFile(NOTES.resolve(db + ".md"))) {
        missing.add(db + ": no " + NOTES.resolve(db + ".md"));
      }
    }
    for (PolicyOverride o : overrides) {
      Path note = NOTES.resolve(o.dbId() + ".md");
      if (Files.isRegularFile(note)
          && !Files.readString(note).contains("`" + o.table() + "." + o.column() + "`")) {
        missing.add(o.describe() + ": not in " + note);
      }
    }
    assertEquals(List.of(), missing);
  }

  /** RunCommandTest's summary of the first dev questions relies on it. */
  @Test
  void concertSingersAgeStaysHidden() {
    ColumnPolicy age =
        policies.get("concert_singer").columns().stream()
            .filter(c -> c.column().key().equals("singer.age"))
            .findFirst()
            .orElseThrow();
    assertEquals(Policy.Hidden, age.finalPolicy());
  }

  private static ColumnPolicy policyOf(PolicyOverride o) {
    return policies.get(o.dbId()).columns().stream()
        .filter(c -> c.column().key().equals(o.key()))
        .findFirst()
        .orElseThrow(() -> new AssertionError(o.describe() + ": no policy"));
  }
}

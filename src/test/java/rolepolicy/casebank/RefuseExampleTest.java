package rolepolicy.casebank;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.node.ArrayNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rolepolicy.TestData;
import rolepolicy.io.DatasetWriter;
import rolepolicy.generate.SpiderRun;

/**
 * REFUSE examples a model can follow: the reason in words, with the policy that forced it and the
 * policies of the columns the example's SQL touches; and no more REFUSE examples than the bank's
 * REFUSE rate unless the question looks like a REFUSE.
 */
class RefuseExampleTest {
  @TempDir static Path dir;
  static Map<String, Case> cases = new java.util.HashMap<>();

  @BeforeAll
  static void read() throws Exception {
    var train = SpiderRun.first("train", "train_spider.json", 10);
    ArrayNode first = DatasetWriter.JSON.createArrayNode();
    for (int i = 0; i < 10; i++) {
      first.add(train.get(i));
    }
    Path file = dir.resolve("train.json");
    DatasetWriter.JSON.writeValue(file.toFile(), first);
    CaseReader.read(file, TestData.schemas()).forEach(c -> cases.put(c.id(), c));
  }

  @Test
  void aSpecificRefuseExampleSaysWhichColumnWhereAndItsPolicy() {
    // train_0001, department_management: SELECT count(*) FROM head WHERE age > 56, head.age Hidden
    assertEquals("""
        Question: How many heads of the departments are older than 56 ?
        Column policies: head.age Hidden
        Answer: REFUSE — it needs head.age in a WHERE filter, which is Hidden""",
        PromptWriter.example(cases.get("train_0001"), true));
  }

  @Test
  void aSkeletonRefuseExampleSaysItWithPlaceholdersAndShowsTheQueryItWouldTake() {
    assertEquals("""
        Question (names and values masked): How many <mask> of the <mask> are older than <unk> ?
        Column policies: _col1 Hidden
        Query it would take: SELECT COUNT(*) FROM _tab1 WHERE _col1 > 1
        Answer: REFUSE — it needs _col1 in a WHERE filter, which is Hidden""",
        PromptWriter.example(CaseBank.skeletonOnly(cases.get("train_0001")), false));
  }

  @Test
  void everyViolationIsNamedWithTheAggregateItIsUnder() {
    // train_0002: name, born_state, age selected, age Hidden (R1 found no other _id column to select instead)
    assertEquals("it needs head.age in the SELECT list, which is Hidden", cases.get("train_0002").refusal());
    // train_0004: max and min of an AggOnly column
    assertEquals("it needs department.budget_in_billions inside MAX(...), which is AggOnly, and"
        + " department.budget_in_billions inside MIN(...), which is AggOnly", cases.get("train_0004").refusal());
  }

  @Test
  void aCompliantExampleShowsThePoliciesOfTheColumnsItsSqlTouches() {
    Case sql = cases.values().stream().filter(c -> !c.refuse() && c.goldSql().contains("JOIN")).sorted(
        java.util.Comparator.comparing(Case::id)).findFirst().orElseThrow();
    String example = PromptWriter.example(sql, true);
    for (var e : sql.policies().entrySet()) {
      assertEquals(true, example.contains(e.getKey() + " " + e.getValue()), example);
    }
    assertEquals(true, example.endsWith("Answer: " + sql.goldSql()), example);
  }

  private static CaseBank.Hit hit(String id, boolean refuse) {
    return new CaseBank.Hit("skeleton", 0.9, new Case(id, null, null, refuse ? "REFUSE" : "SQL", null, null, null, null,
        "q", "SELECT 1", "SELECT", null, Map.of(), null));
  }

  private static List<CaseBank.Hit> hits(String refuseFlags) {
    List<CaseBank.Hit> all = new ArrayList<>();
    for (int i = 0; i < refuseFlags.length(); i++) {
      all.add(hit("c" + i, refuseFlags.charAt(i) == 'R'));
    }
    return all;
  }

  private static List<String> ids(CaseBank.Selection s) {
    return s.hits().stream().map(h -> h.kase().id()).toList();
  }

  @Test
  void refuseExamplesAreCappedAtTheBanksRefuseRate() {
    // rate 0.29: one REFUSE of five, none of three or one
    assertEquals(List.of("c0", "c1", "c3", "c4", "c6"), ids(CaseBank.select(hits("RSRSSRSSS"), 5, 0.29)));
    assertEquals(List.of("c1", "c3", "c4"), ids(CaseBank.select(hits("RSRSSRSSS"), 3, 0.29)));
    assertEquals(List.of("c1"), ids(CaseBank.select(hits("RSRSSRSSS"), 1, 0.29)));
    assertEquals(true, CaseBank.select(hits("RSRSS"), 1, 0.29).why().contains("capped at 0 of 1"));
    assertEquals(List.of("c0", "c1", "c2"), ids(CaseBank.select(hits("SSSRR"), 3, 0.29)), "nothing to cap: as retrieved");
    assertEquals("", CaseBank.select(hits("SSSRR"), 3, 0.29).why());
  }

  @Test
  void aQuestionWhoseNearestCasesAreMostlyRefuseGetsThemAsRetrieved() {
    assertEquals(List.of("c0"), ids(CaseBank.select(hits("RSRRS"), 1, 0.29)));
    assertEquals(List.of("c0", "c1", "c2"), ids(CaseBank.select(hits("RSRRSS"), 3, 0.29)));
    assertEquals(true, CaseBank.select(hits("RSRRS"), 1, 0.29).why().contains("looks like a REFUSE (3 of its 5 nearest are)"));
  }
}

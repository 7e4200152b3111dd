package rolepolicy.rules;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import rolepolicy.TestData;
import rolepolicy.engine.Audit;
import rolepolicy.model.NegativeEdit;
import rolepolicy.model.Policy;
import rolepolicy.model.SelectItem;

/** One test per rule of {@code rules/negatives.drl} (SPEC §7, the negative example). */
class NegativeRulesTest {
  static final String N1 = "N1: append a Hidden column of a FROM table to the SELECT list";
  static final String N2 = "N2: drop the aggregate of a selected AggOnly column";
  static final String N3 = "N3: append a JoinOnly column of a FROM table to the SELECT list";

  @Test
  @DisplayName(N1)
  void appendAHiddenColumnOfAFromTable() {
    // SELECT name FROM student -> SELECT name, email FROM student (email before birth_date).
    assertAppend(negative(Query.from("student").select("student.name")),
        "N1", N1, "student.email", "student", Policy.Hidden);

    // Candidates in two tables: the first by FROM order, then by column order.
    assertAll(
        () -> assertAppend(
            negative(Query.from("student", "enrolment").select("student.name")),
            "N1", N1, "student.email", "student", Policy.Hidden),
        () -> assertAppend(
            negative(Query.from("enrolment", "student").select("student.name")),
            "N1", N1, "enrolment.phone", "enrolment", Policy.Hidden),
        () -> assertAppend(
            negative(Query.from("enrolment", "student").select("enrolment.phone")),
            "N1", N1, "student.email", "student", Policy.Hidden));
    assertAll(
        // a Hidden column used only in WHERE is not selected: it is appended
        () -> assertAppend(negative(Query.from("student").select("student.name").where("student.email")),
            "N1", N1, "student.email", "student", Policy.Hidden),
        // only FROM tables' columns: student is touched in WHERE, not in FROM
        () -> assertEquals("N3",
            negative(Query.from("club").select("club.title").where("student.name")).code()));
  }

  @Test
  @DisplayName("N1 skips a Hidden column selected bare, not one selected under an aggregate")
  void n1SkipsAColumnAlreadySelectedBare() {
    assertAppend(negative(Query.from("student").select("student.email")),
        "N1", N1, "student.birth_date", "student", Policy.Hidden);
    assertAppend(negative(Query.from("student").select(3, "student.email")),
        "N1", N1, "student.email", "student", Policy.Hidden);
  }

  @Test
  @DisplayName("N1 takes the FROM tables in FROM order, not schema order")
  void n1FollowsFromOrder() {
    // student's Hidden columns come first in the schema, but enrolment comes first in FROM.
    assertAppend(
        negative(
            Query.from("enrolment", "student")
                .select("student.name")
                .join("enrolment.student_id")
                .join("student.student_id")),
        "N1", N1, "enrolment.phone", "enrolment", Policy.Hidden);
  }

  @Test
  @DisplayName(N2)
  void dropTheAggregateOfASelectedAggOnlyColumn() {
    // SELECT title, count(club_id), sum(revenue), avg(budget) FROM club: club has no Hidden column;
    // count(club_id) aggregates a key, so sum(revenue) is the first aggregated AggOnly column.
    NegativeEdit edit =
        negative(
            Query.from("club")
                .select("club.title")
                .select(3, "club.club_id")
                .select(4, "club.revenue")
                .select(5, "club.budget"));
    assertNotNull(edit, "no negative");
    assertEquals("N2", edit.code());
    assertEquals(N2, edit.rule());
    assertEquals(new SelectItem(2, rolepolicy.model.Aggregate.SUM, "club.revenue", "/select/1/2"), edit.dropAggregateOf());
    assertNull(edit.appendColumn());
    assertAll(
        // a bare AggOnly column has no aggregate to drop; an aggregated Public one is no AggOnly
        () -> assertEquals("N3", negative(Query.from("club").select("club.budget")).code()),
        () -> assertEquals("N3", negative(Query.from("club").select(3, "club.title")).code()),
        // N1 applies first: N2 adds no second edit (it does not fire at all, whatever order the
        // engine returns the edits in)
        () -> assertEquals("N1", negative(Query.from("student").select(5, "student.score")).code()),
        () -> assertEquals(List.of(N1),
            negativeRulesFired(Query.from("student").select(5, "student.score"))));
  }

  @Test
  @DisplayName(N3)
  void appendAJoinOnlyColumnOfAFromTable() {
    // club has no Hidden column and nothing aggregated: append its key.
    assertAppend(negative(Query.from("club").select("club.title")),
        "N3", N3, "club.club_id", "club", Policy.JoinOnly);

    // Several JoinOnly candidates (every Hidden column already selected bare, so N1 does not
    // apply): the first by FROM order, then by column order.
    assertAll(
        () -> assertAppend( // advisor_id, student_id, house_id: the first in column order
            negative(Query.from("student").select("student.email").select("student.birth_date")),
            "N3", N3, "student.advisor_id", "student", Policy.JoinOnly),
        () -> assertAppend( // enrolment's course_id and student_id come before club's club_id
            negative(Query.from("enrolment", "club").select("enrolment.phone").select("club.title")),
            "N3", N3, "enrolment.course_id", "enrolment", Policy.JoinOnly),
        () -> assertAppend(
            negative(Query.from("club", "enrolment").select("club.title").select("enrolment.phone")),
            "N3", N3, "club.club_id", "club", Policy.JoinOnly),
        () -> assertAppend( // advisor_id is selected already: the next in column order
            negative(Query.from("student").select("student.email").select("student.birth_date")
                .select("student.advisor_id")),
            "N3", N3, "student.student_id", "student", Policy.JoinOnly));
    assertAll(
        // only a JoinOnly column of a FROM table that is not selected bare: here none
        () -> assertNull(negative(Query.from("club").select("club.club_id"))),
        () -> assertNull(negative(Query.from("club").select("club.club_id").where("student.name"))),
        // used only in WHERE, or only under an aggregate, it is not selected bare: appended
        () -> assertAppend(negative(Query.from("club").select("club.title").where("club.club_id")),
            "N3", N3, "club.club_id", "club", Policy.JoinOnly),
        () -> assertAppend(negative(Query.from("club").select(3, "club.club_id")),
            "N3", N3, "club.club_id", "club", Policy.JoinOnly),
        // the first FROM table's key is selected: the next table's first
        () -> assertAppend(negative(Query.from("club", "enrolment").select("club.club_id").select("enrolment.phone")),
            "N3", N3, "enrolment.course_id", "enrolment", Policy.JoinOnly),
        // phone selected, so N1 does not apply: course_id before student_id, in column order
        () -> assertAppend(negative(Query.from("enrolment").select("enrolment.phone")),
            "N3", N3, "enrolment.course_id", "enrolment", Policy.JoinOnly),
        () -> assertAppend(negative(Query.from("enrolment").select("enrolment.grade").select("enrolment.phone")),
            "N3", N3, "enrolment.course_id", "enrolment", Policy.JoinOnly),
        // the first key is the only column selected: the second is appended (college_2's prereq)
        () -> assertAppend(TestData.engine().decide(Query.from("prereq").select("prereq.course_id").walk(),
                TestData.autoPolicies().get("college_2"), 0, true, List.of(), null, "negative").negative(),
            "N3", N3, "prereq.prereq_id", "prereq", Policy.JoinOnly),
        // N1 applies first: N3 adds no second edit, and does not fire at all
        () -> assertEquals("N1", negative(Query.from("student").select("student.name")).code()),
        () -> assertEquals(List.of(N1), negativeRulesFired(Query.from("student").select("student.name"))));
  }

  @Test
  @DisplayName("N1 comes before N2")
  void n1BeforeN2() {
    assertEquals("N1", negative(Query.from("student").select(5, "student.score")).code());
  }

  @Test
  @DisplayName("N2 comes before N3")
  void n2BeforeN3() {
    assertEquals("N2", negative(Query.from("club").select(5, "club.budget")).code());
  }

  @Test
  @DisplayName("N1 and N3 do not apply to a query with a set operation; N2 still does")
  void setOperationsBlockN1AndN3() {
    // SELECT name FROM student UNION ...: N1 (email) and N3 (advisor_id) would apply otherwise.
    assertNull(negative(Query.from("student").select("student.name").withSetOperation()));
    assertEquals("N2",
        negative(Query.from("student").select(5, "student.score").withSetOperation()).code());
  }

  @Test
  @DisplayName("Two negative edits are an error naming both rules")
  void twoNegativeEditsAreAnErrorNamingBothRules(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
    // N2 without its `not NegativeEdit( )`: where N1 applies too, both would make an edit
    for (java.nio.file.Path f : rolepolicy.engine.RuleBase.ruleFiles(TestData.ruleSet())) {
      String text = java.nio.file.Files.readString(f);
      if (f.getFileName().toString().equals("negatives.drl")) {
        int n2 = text.indexOf("rule \"" + N2 + "\"");
        int guard = text.indexOf("    not NegativeEdit( )\n", n2);
        text = text.substring(0, guard) + text.substring(guard + "    not NegativeEdit( )\n".length());
      }
      java.nio.file.Files.writeString(dir.resolve(f.getFileName()), text);
    }
    var engine = new rolepolicy.engine.QuestionEngine(rolepolicy.engine.RuleBase.load(rolepolicy.engine.RuleSet.of(dir)));
    IllegalStateException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class,
        () -> engine.decide(Query.from("student").select(5, "student.score").walk(), School.POLICIES, 0, true, List.of(), null, "negative"));
    assertEquals("the negative rules made 2 edits (expected at most 1: each checks `not NegativeEdit( )`) at negative: "
        + N1 + ", " + N2, e.getMessage());
  }

  @Test
  @DisplayName("No rule applies: no negative")
  void noNegative() {
    // SELECT club_id FROM club: no Hidden column, no aggregate, its only key already selected.
    assertNull(negative(Query.from("club").select("club.club_id")));
  }

  /** The negative rules (N1, N2, N3) that fired for a query, in firing order, from the audit. */
  private static List<String> negativeRulesFired(Query query) {
    Audit audit = new Audit();
    TestData.engine().decide(query.walk(), School.POLICIES, 0, true, List.of(), audit, "negative");
    return audit.firings().stream().map(Audit.Firing::rule).filter(r -> r.matches("N[123]: .*")).toList();
  }

  private static NegativeEdit negative(Query query) {
    return TestData.engine().decide(query.walk(), School.POLICIES, 0, true, List.of(), null, "negative").negative();
  }

  private static void assertAppend(
      NegativeEdit edit, String code, String rule, String column, String table, Policy policy) {
    assertNotNull(edit, "no negative");
    assertEquals(code, edit.code());
    assertEquals(rule, edit.rule());
    assertEquals(column, edit.appendColumn().key());
    assertEquals(policy, edit.appendColumn().policy());
    assertEquals(table, edit.fromTable().table());
    assertNull(edit.dropAggregateOf());
  }
}

package rolepolicy.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import rolepolicy.TestData;
import rolepolicy.evaluate.GoldRecord;
import rolepolicy.interact.PolicyClarifier;
import rolepolicy.model.ClarificationOption;
import rolepolicy.model.ClarificationQuestion;
import rolepolicy.model.QueryShape;
import rolepolicy.spider.Schema;

/**
 * One test per rule of {@code rules/clarify.drl}: the policy clarification asked about SQL text
 * over Spider's {@code concert_singer}, where singer.name is Hidden, singer.song_name JoinOnly and
 * singer.age AggOnly.
 */
class ClarifyRulesTest {
  static final String ASK_REWRITE = "Ask about the violation the rewrite mends";
  static final String ASK_NO_REWRITE = "Ask about the violation that has no rewrite";
  static final String ASK_STAR = "Ask about SELECT *";
  static final String PROPOSE_R1 = "Propose R1: show another _id column of the table";
  static final String PROPOSE_R2 = "Propose R2: show the average instead of the values";
  static final String PROPOSE_COUNT_PK = "Propose COUNT(*) for COUNT of a JoinOnly primary key";
  static final String PROPOSE_COUNT_KEY = "Propose COUNT(*) and key IS NOT NULL for COUNT of another JoinOnly key";
  static final String OFFER_COUNT = "Offer COUNT(*) for COUNT of a key";
  static final String OFFER_R1 = "Offer R1: show another _id column of the table";
  static final String OFFER_R2 = "Offer R2: show the average instead of the values";
  static final String OFFER_REFUSE = "Offer no answer";
  static final String OFFER_OTHER = "Offer something else";

  private static Map<String, String> policies(Schema schema) {
    Map<String, String> policies = new LinkedHashMap<>();
    schema.realColumns().forEach(c -> policies.put(c.key(), "Public"));
    policies.put("singer.name", "Hidden");
    policies.put("singer.song_name", "JoinOnly");
    policies.put("singer.age", "AggOnly");
    return policies;
  }

  private static PolicyClarifier.Check check(String sql) {
    return check(sql, 0);
  }

  private static PolicyClarifier.Check check(String sql, int stepsTaken) {
    return check(sql, stepsTaken, Map.of());
  }

  /** With {@code joinOnly} columns JoinOnly besides the three above. */
  private static PolicyClarifier.Check check(String sql, String... joinOnly) {
    Map<String, String> extra = new LinkedHashMap<>();
    for (String column : joinOnly) {
      extra.put(column, "JoinOnly");
    }
    return check(sql, 0, extra);
  }

  private static PolicyClarifier.Check check(String sql, int stepsTaken, Map<String, String> extra) {
    Map<String, String> policies = policies(TestData.schemas().get("concert_singer"));
    policies.putAll(extra);
    GoldRecord gold = new GoldRecord("t", "concert_singer", false, "SELECT 1", sql, policies);
    return new PolicyClarifier(TestData.engine(), TestData.schemas(), TestData.spiderRunner()).check(gold, sql, stepsTaken);
  }

  /** The proposed edits, as "code rule notNull keepsResult: edited SQL | problem". */
  private static List<String> edits(PolicyClarifier.Check c) {
    return c.edits().stream().map(e -> e.edit().code() + " " + e.edit().rule() + " " + e.edit().notNullFilter() + " "
        + e.edit().keepsResult() + ": " + e.sql() + " | " + e.problem()).toList();
  }

  /** The clarification facts the rules produce for SQL text when no ClarificationRequest is inserted. */
  private static void assertSilentWithoutRequest(String sql) {
    PolicyClarifier.Check c = check(sql);
    var query = c.analysis().facts();
    Schema schema = TestData.schemas().get("concert_singer");
    GoldRecord gold = new GoldRecord("t", "concert_singer", false, "SELECT 1", sql, policies(schema));
    List<Object> facts = TestData.engine().fireRound(query,
        rolepolicy.evaluate.QuestionScorer.policed(gold, schema, query.refs()), 0, List.of(), null, "t");
    assertTrue(facts.stream().noneMatch(f -> f instanceof ClarificationQuestion || f instanceof ClarificationOption
            || f instanceof rolepolicy.model.ProposedEdit),
        "a clarification rule fired without a ClarificationRequest: " + facts);
  }

  private static List<String> codes(PolicyClarifier.Check c) {
    return c.options().stream().map(ClarificationOption::code).toList();
  }

  private static ClarificationOption option(PolicyClarifier.Check c, String code) {
    return c.options().stream().filter(o -> o.code().equals(code)).findFirst().orElseThrow();
  }

  @Test
  @DisplayName(ASK_REWRITE)
  void asksAboutTheViolationARewriteMends() {
    PolicyClarifier.Check c = check("SELECT country, name FROM singer");
    ClarificationQuestion q = c.question();
    assertEquals(ASK_REWRITE, q.rule());
    assertEquals("singer.name", q.violation().ref().column());
    assertEquals("The query selects singer.name, which is Hidden: it may not be used at all. What should the answer show?",
        q.text());
    assertEquals(List.of("R1", "REFUSE", "OTHER"), codes(c));
    // of two violations, the one the rewrite mends (the first), whichever was inserted last
    assertEquals("singer.name", check("SELECT name, age FROM singer").question().violation().ref().column());
    assertEquals("singer.age", check("SELECT age, name FROM singer").question().violation().ref().column());
    assertSilentWithoutRequest("SELECT country, name FROM singer");
  }

  @Test
  @DisplayName(ASK_NO_REWRITE)
  void asksAboutTheViolationThatHasNoRewrite() {
    // the AggOnly age in a filter has no rewrite (R3): the rules refuse, though R1 could mend the Hidden name
    PolicyClarifier.Check c = check("SELECT name FROM singer WHERE age > 30");
    assertEquals(ASK_NO_REWRITE, c.question().rule());
    assertEquals("singer.age", c.question().violation().ref().column());
    assertTrue(c.question().text().startsWith("The query filters on singer.age, which is AggOnly"), c.question().text());
    assertEquals(List.of("REFUSE", "OTHER"), codes(c));
    // max(age) has no rewrite (R4); the Hidden name after it is not what the rules refused for
    for (String sql : List.of("SELECT max(age), name FROM singer", "SELECT max(age), name, song_name FROM singer",
        "SELECT name, song_name FROM singer WHERE age > 30", "SELECT song_name, name FROM singer WHERE age > 30")) {
      ClarificationQuestion refused = check(sql).question();
      assertEquals("singer.age", refused.violation().ref().column(), sql);
      assertTrue(refused.text().contains("singer.age, which is AggOnly"), refused.text());
    }
    for (String sql : List.of("SELECT age FROM singer WHERE name = 'x'", "SELECT song_name, age FROM singer WHERE name = 'x'")) {
      ClarificationQuestion refused = check(sql).question();
      assertEquals("singer.name", refused.violation().ref().column(), sql);
      assertTrue(refused.text().contains("filters on singer.name, which is Hidden"), refused.text());
    }
    assertSilentWithoutRequest("SELECT name FROM singer WHERE age > 30");
  }

  @Test
  @DisplayName(ASK_STAR)
  void asksAboutSelectStar() {
    PolicyClarifier.Check c = check("SELECT * FROM stadium");
    assertEquals(ASK_STAR, c.question().rule());
    assertNull(c.question().violation());
    assertTrue(c.violations().isEmpty());
    assertEquals(List.of("REFUSE", "OTHER"), codes(c));
    assertNull(check("SELECT country FROM singer").question(), "a compliant query gets no question");
    assertEquals(ASK_REWRITE, check("SELECT name FROM singer").question().rule());
    assertSilentWithoutRequest("SELECT * FROM stadium");
  }

  @Test
  @DisplayName(PROPOSE_R1)
  void proposesTheR1RewriteOfTheViolationAsked() {
    assertEquals(List.of("R1 " + PROPOSE_R1 + " false false: SELECT singer.Singer_ID FROM singer | null"),
        edits(check("SELECT song_name FROM singer")));
    assertEquals(List.of("R2 " + PROPOSE_R2 + " false false: SELECT AVG(age) FROM singer | null"),
        edits(check("SELECT age FROM singer")), "no R1 for an R2 rewrite");
    assertEquals(List.of(), edits(check("SELECT name FROM singer", 2)), "after two rewrite steps nothing is proposed");
    assertEquals(List.of(), edits(check("SELECT name FROM singer WHERE age > 30")), "nor for a refusal");
    assertSilentWithoutRequest("SELECT song_name FROM singer");
  }

  @Test
  @DisplayName(OFFER_R1)
  void offersAnotherIdColumnOnlyWhenItIsCompliant() {
    ClarificationOption r1 = option(check("SELECT song_name FROM singer"), "R1");
    assertEquals(OFFER_R1, r1.rule());
    assertEquals("Show singer.singer_id instead of singer.song_name", r1.text());
    assertEquals("singer.singer_id", r1.step().replacement().key());
    assertEquals("SELECT singer.Singer_ID FROM singer", r1.edit().sql());
    // the _id column is itself JoinOnly: the edit would break its policy, so it is not offered
    PolicyClarifier.Check joinOnlyKey = check("SELECT song_name FROM singer", "singer.singer_id");
    assertEquals(List.of("REFUSE", "OTHER"), codes(joinOnlyKey));
    assertEquals(1, joinOnlyKey.edits().size());
    assertEquals("the edited text violates [singer.singer_id SelectExpr JoinOnly]", joinOnlyKey.edits().get(0).problem());
    // two violations: mending one leaves the other, so no option leads to compliant SQL
    assertEquals(List.of("REFUSE", "OTHER"), codes(check("SELECT song_name, name FROM singer")));
    assertEquals(List.of("REFUSE", "OTHER"), codes(check("SELECT name FROM singer", 2)),
        "after two rewrite steps the rules refuse, and R1 is not offered");
    assertEquals(List.of("R2", "REFUSE", "OTHER"), codes(check("SELECT age FROM singer")), "no R1 for an R2 rewrite");
    assertSilentWithoutRequest("SELECT song_name FROM singer");
  }

  @Test
  @DisplayName(PROPOSE_R2)
  void proposesTheR2RewriteOfTheViolationAsked() {
    assertEquals(List.of("R2 " + PROPOSE_R2 + " false false: SELECT AVG(age), country FROM singer GROUP BY country | null"),
        edits(check("SELECT age, country FROM singer GROUP BY country")));
    assertEquals(List.of("R1 " + PROPOSE_R1 + " false false: SELECT singer.Singer_ID FROM singer | null"),
        edits(check("SELECT song_name FROM singer")), "no R2 for an R1 rewrite");
    assertSilentWithoutRequest("SELECT age FROM singer");
  }

  @Test
  @DisplayName(PROPOSE_COUNT_PK)
  void proposesCountStarForCountOfAJoinOnlyPrimaryKey() {
    assertEquals(List.of("COUNT(*) " + PROPOSE_COUNT_PK + " false true: SELECT count(*) FROM singer | null"),
        edits(check("SELECT count(singer_id) FROM singer", "singer.singer_id")));
    assertEquals(List.of("COUNT(*) " + PROPOSE_COUNT_PK + " false true: SELECT country, COUNT(*) FROM singer GROUP BY country | null"),
        edits(check("SELECT country, COUNT(singer_id) FROM singer GROUP BY country", "singer.singer_id")));
    // not for another aggregate, nor for a column that is not JoinOnly (the Hidden name)
    assertEquals(List.of(), edits(check("SELECT max(singer_id) FROM singer", "singer.singer_id")));
    assertEquals(List.of(), edits(check("SELECT count(name) FROM singer")));
    assertEquals(List.of(), edits(check("SELECT count(singer_id) FROM singer")), "singer_id is Public here");
    assertSilentWithoutRequest("SELECT count(song_name) FROM singer");
  }

  @Test
  @DisplayName(PROPOSE_COUNT_KEY)
  void proposesCountStarWithANotNullFilterForCountOfAnotherJoinOnlyKey() {
    assertEquals(List.of("COUNT(*) " + PROPOSE_COUNT_KEY + " true true: SELECT count(*) FROM singer WHERE song_name IS NOT NULL | null"),
        edits(check("SELECT count(song_name) FROM singer")));
    assertEquals(List.of("COUNT(*) " + PROPOSE_COUNT_KEY + " true true: SELECT count(*) FROM concert AS T1 WHERE (T1.year > 2014)"
        + " AND T1.stadium_id IS NOT NULL | null"),
        edits(check("SELECT count(T1.stadium_id) FROM concert AS T1 WHERE T1.year > 2014", "concert.stadium_id")));
    assertEquals(List.of(), edits(check("SELECT sum(song_name) FROM singer")));
    assertSilentWithoutRequest("SELECT count(song_name) FROM singer");
  }

  @Test
  @DisplayName(OFFER_COUNT)
  void offersCountStarWhenTheEditIsCompliantAndKeepsTheResult() {
    PolicyClarifier.Check c = check("SELECT count(song_name) FROM singer");
    assertEquals(ASK_NO_REWRITE, c.question().rule());
    assertEquals(List.of("COUNT(*)", "REFUSE", "OTHER"), codes(c));
    ClarificationOption count = option(c, "COUNT(*)");
    assertEquals(OFFER_COUNT, count.rule());
    assertEquals("Count the rows with COUNT(*) instead of COUNT(singer.song_name), keeping the rows where"
        + " singer.song_name IS NOT NULL", count.text());
    assertEquals("SELECT count(*) FROM singer WHERE song_name IS NOT NULL", count.edit().sql());
    assertEquals("Count the rows with COUNT(*) instead of COUNT(singer.singer_id)",
        option(check("SELECT count(singer_id) FROM singer", "singer.singer_id"), "COUNT(*)").text());
    // another result on the database: each stadium's concerts, where a stadium without any counts 0
    PolicyClarifier.Check outer = check("SELECT T1.name, count(T2.concert_id) FROM stadium AS T1 LEFT JOIN concert AS T2"
        + " ON T1.stadium_id = T2.stadium_id GROUP BY T1.stadium_id", "concert.concert_id");
    assertEquals(List.of("REFUSE", "OTHER"), codes(outer), edits(outer).toString());
    assertEquals("the edited text gives other rows on the database", outer.edits().get(0).problem());
    // compliant edit, but another violation remains
    assertEquals(List.of("REFUSE", "OTHER"), codes(check("SELECT count(song_name), name FROM singer")));
    // not COUNT of the bare column: the edit cannot be made
    PolicyClarifier.Check distinct = check("SELECT count(DISTINCT song_name) FROM singer");
    assertEquals(List.of("REFUSE", "OTHER"), codes(distinct));
    assertTrue(distinct.edits().get(0).problem().contains("is not the bare argument of COUNT"), edits(distinct).toString());
    assertEquals(List.of("R2", "REFUSE", "OTHER"), codes(check("SELECT age FROM singer")), "no COUNT(*) for another edit");
    assertSilentWithoutRequest("SELECT count(song_name) FROM singer");
  }

  @Test
  @DisplayName(OFFER_R2)
  void offersTheAverageForASelectedAggOnlyColumn() {
    PolicyClarifier.Check c = check("SELECT age FROM singer");
    ClarificationOption r2 = option(c, "R2");
    assertEquals(OFFER_R2, r2.rule());
    assertEquals("Show the average of singer.age instead of its values", r2.text());
    assertEquals(rolepolicy.model.Aggregate.AVG, r2.step().wrap());
    assertEquals(List.of("R2", "REFUSE", "OTHER"), codes(c));
    assertEquals(List.of("R1", "REFUSE", "OTHER"), codes(check("SELECT song_name FROM singer")), "no R2 for an R1 rewrite");
    assertSilentWithoutRequest("SELECT age FROM singer");
  }

  @Test
  @DisplayName(OFFER_REFUSE)
  void offersNoAnswerWheneverItAsks() {
    for (String sql : List.of("SELECT name FROM singer", "SELECT age FROM singer", "SELECT * FROM stadium")) {
      ClarificationOption refuse = option(check(sql), "REFUSE");
      assertEquals(OFFER_REFUSE, refuse.rule());
      assertNull(refuse.step());
    }
    PolicyClarifier.Check compliant = check("SELECT avg(age), country FROM singer GROUP BY country");
    assertTrue(compliant.compliant());
    assertNull(compliant.question());
    assertEquals(List.of(), compliant.options());
    assertSilentWithoutRequest("SELECT age FROM singer");
  }

  @Test
  @DisplayName(OFFER_OTHER)
  void offersSomethingElseLast() {
    PolicyClarifier.Check c = check("SELECT name FROM singer");
    ClarificationOption other = c.options().get(c.options().size() - 1);
    assertEquals("OTHER", other.code());
    assertEquals(OFFER_OTHER, other.rule());
    assertEquals("Something else:", other.text(), "the user says what after the colon");
    assertNull(option(check("SELECT name FROM singer WHERE age > 30"), "OTHER").step());
    assertSilentWithoutRequest("SELECT name FROM singer");
  }

  @Test
  @DisplayName("The clarification rules stay silent without a ClarificationRequest")
  void silentWithoutARequest() {
    var refs = List.of(new rolepolicy.model.ColumnRef(0, "singer.name", rolepolicy.model.Role.SelectExpr, rolepolicy.model.Aggregate.NONE, 0, null, null));
    var columns = TestData.autoPolicies().get("concert_singer").policed(List.of("singer"));
    List<Object> facts = TestData.engine().fireRound(
        new rolepolicy.model.QueryFacts(refs, new QueryShape(false, false, false), List.of(), List.of(), List.of(), List.of(), List.of()),
        columns, 0, List.of(), null, "t");
    assertTrue(facts.stream().noneMatch(f -> f instanceof ClarificationQuestion || f instanceof ClarificationOption), facts.toString());
  }
}

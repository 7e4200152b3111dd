package rolepolicy.evaluate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import rolepolicy.TestData;
import rolepolicy.db.Execution;
import rolepolicy.db.SqliteRunner;
import rolepolicy.engine.ColumnPolicy;
import rolepolicy.engine.QuestionEngine;
import rolepolicy.spider.Schema;
import rolepolicy.tablescore.ColumnScore;

/** Column-level precision, recall and F1 in evaluate, on hand-made predictions over concert_singer. */
class ColumnLevelTest {
  private static final double EPS = 1e-9;
  private static SqliteRunner runner;
  private static Schema schema;

  @BeforeAll
  static void open() {
    runner = new SqliteRunner(TestData.spiderDir().resolve("database"), 30);
    schema = TestData.schemas().get("concert_singer");
  }

  @AfterAll
  static void close() {
    runner.close();
  }

  private static ColumnLevel.Figures score(String gold, String predicted) {
    Execution g = runner.run("concert_singer", gold);
    Execution p = runner.run("concert_singer", predicted);
    boolean ordered = gold.toUpperCase(java.util.Locale.ROOT).contains("ORDER BY");
    return ColumnLevel.score(gold, schema, g, p, ordered);
  }

  @Test
  void anExactMatchScoresOne() {
    ColumnLevel.Figures f = score("SELECT name, country FROM singer", "SELECT Name, Country FROM singer");
    assertEquals(1.0, f.precision(), EPS);
    assertEquals(1.0, f.recall(), EPS);
    assertEquals(1.0, f.f1(), EPS);
  }

  @Test
  void oneColumnWrong() {
    // no key: each column as a multiset; song_name instead of country shares no value: 0
    ColumnLevel.Figures f = score("SELECT name, country FROM singer", "SELECT name, song_name FROM singer");
    assertEquals(List.of(1.0, 0.0), f.perColumn().stream().map(ColumnScore::f1).toList());
    assertEquals(0.5, f.f1(), EPS);
  }

  @Test
  void oneColumnMissing() {
    ColumnLevel.Figures f = score("SELECT name, country FROM singer", "SELECT name FROM singer");
    assertEquals(List.of(1.0, 0.0), f.perColumn().stream().map(ColumnScore::recall).toList());
    assertEquals(0.5, f.recall(), EPS);
    assertEquals(0.5, f.precision(), EPS);
  }

  @Test
  void anExtraColumnCountsAsAWrongOne() {
    ColumnLevel.Figures f = score("SELECT name FROM singer", "SELECT name, age FROM singer");
    assertEquals("(extra) Age", f.perColumn().get(1).column());
    assertEquals(0.5, f.f1(), EPS);
  }

  @Test
  void columnsArePairedByNameBeforePosition() {
    ColumnLevel.Figures f = score("SELECT name, country FROM singer", "SELECT country, name FROM singer");
    assertEquals(1.0, f.f1(), EPS);
  }

  @Test
  void rowsReorderedCountOnlyWhenTheGoldIsOrdered() {
    assertEquals(1.0, score("SELECT name FROM singer", "SELECT name FROM singer ORDER BY name").f1(), EPS);
    // ages 52 32 29 41 43 25 by id; by age descending 52 43 41 32 29 25: positions 1 and 6 agree
    ColumnLevel.Figures f = score("SELECT name FROM singer ORDER BY age DESC", "SELECT name FROM singer ORDER BY singer_id");
    assertEquals(2.0 / 6, f.f1(), EPS);
  }

  @Test
  void twoEmptyResultsMatchButAMissingColumnStillScoresZero() {
    // execution match compares rows only, so two empty results match; the missing column counts
    ColumnLevel.Figures f = score("SELECT name, country FROM singer WHERE age > 99", "SELECT name FROM singer WHERE age > 99");
    assertEquals(List.of(1.0, 0.0), f.perColumn().stream().map(ColumnScore::f1).toList());
    assertEquals(0.5, f.f1(), EPS);
  }

  @Test
  void groupedRowsAreMatchedOnTheGroupByColumn() {
    // France 4, Netherlands 1, United States 1; the prediction counts only singers over 30:
    // France 2 (wrong), Netherlands 1, United States 1 → 2 of 3 counts right
    ColumnLevel.Figures f = score("SELECT country, count(*) FROM singer GROUP BY country",
        "SELECT country, count(*) FROM singer WHERE age > 30 GROUP BY country");
    assertEquals(List.of("Country"), f.keys());
    assertEquals(2.0 / 3, f.f1(), EPS);
  }

  @Test
  void selectedPrimaryKeysMatchRows() {
    assertEquals(Set.of(0), ColumnLevel.keyColumns("SELECT T1.singer_id, T1.name FROM singer AS T1", schema));
    assertEquals(Set.of(), ColumnLevel.keyColumns("SELECT name FROM singer", schema));
    assertEquals(Set.of(), ColumnLevel.keyColumns("SELECT singer_id FROM singer UNION SELECT stadium_id FROM stadium", schema));
    // stadium 1's name wrong: capacity is still right for all 9 rows, name for 8
    ColumnLevel.Figures f = score("SELECT stadium_id, name, capacity FROM stadium",
        "SELECT stadium_id, CASE WHEN stadium_id = 1 THEN 'x' ELSE name END, capacity FROM stadium ORDER BY capacity");
    assertEquals(List.of("Stadium_ID"), f.keys());
    assertEquals(List.of(8.0 / 9, 1.0), f.perColumn().stream().map(ColumnScore::f1).toList());
  }

  @Test
  void perQuestionResultsCarryTheFiguresOfExecutedPredictionsOnly() {
    Map<String, String> policies = new LinkedHashMap<>();
    for (ColumnPolicy c : TestData.autoPolicies().get("concert_singer").columns()) {
      policies.put(c.column().key(), c.finalPolicy().name());
    }
    QuestionScorer scorer = new QuestionScorer(new QuestionEngine(TestData.rules()), TestData.schemas(), runner);
    GoldRecord gold = new GoldRecord("t", "concert_singer", false, "SELECT name, country FROM singer",
        "SELECT name, country FROM singer", policies);
    QuestionResult r = scorer.score(gold, "SELECT name FROM singer");
    assertEquals("MISMATCH", r.execution());
    assertNotNull(r.columns());
    assertEquals(0.5, r.columns().f1(), EPS);
    assertNull(scorer.score(gold, "REFUSE").columns());
    Metrics m = Metrics.of(List.of(r, scorer.score(gold, "SELECT name, country FROM singer")), true);
    assertEquals(2, m.columns().scored());
    assertEquals(0.75, m.columns().f1(), EPS);
  }

  /** The fast parser's tree gives the key columns JSqlParser's gives, on every query of Spider's train and dev. */
  @Test
  @org.junit.jupiter.api.Tag("whole-spider") // 10 s a run: out of PIT's runs
  void keyColumnsOfTheFastParserAreJSqlParsers() throws Exception {
    Map<String, rolepolicy.spider.Schema> schemas = TestData.schemas();
    int compared = 0;
    for (String split : List.of("train_spider.json", "dev.json")) {
      for (com.fasterxml.jackson.databind.JsonNode q
          : new com.fasterxml.jackson.databind.ObjectMapper().readTree(TestData.spiderDir().resolve(split).toFile())) {
        String sql = q.get("query").asText();
        Schema s = schemas.get(q.get("db_id").asText());
        Set<Integer> slow;
        try {
          slow = net.sf.jsqlparser.parser.CCJSqlParserUtil.parse(sql) instanceof net.sf.jsqlparser.statement.select.PlainSelect p
              ? ColumnLevel.keyColumns(p, s) : Set.of();
        } catch (net.sf.jsqlparser.JSQLParserException e) {
          slow = Set.of();
        }
        assertEquals(slow, ColumnLevel.keyColumns(sql, s), sql);
        compared++;
      }
    }
    assertEquals(8034, compared);
  }
}

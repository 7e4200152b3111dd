package rolepolicy.exactmatch;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static rolepolicy.exactmatch.ExactMatch.Component.AND_OR;
import static rolepolicy.exactmatch.ExactMatch.Component.GROUP;
import static rolepolicy.exactmatch.ExactMatch.Component.GROUP_NO_HAVING;
import static rolepolicy.exactmatch.ExactMatch.Component.IUEN;
import static rolepolicy.exactmatch.ExactMatch.Component.KEYWORDS;
import static rolepolicy.exactmatch.ExactMatch.Component.ORDER;
import static rolepolicy.exactmatch.ExactMatch.Component.SELECT;
import static rolepolicy.exactmatch.ExactMatch.Component.SELECT_NO_AGG;
import static rolepolicy.exactmatch.ExactMatch.Component.TABLES;
import static rolepolicy.exactmatch.ExactMatch.Component.WHERE;
import static rolepolicy.exactmatch.ExactMatch.Component.WHERE_NO_OP;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import rolepolicy.TestData;
import rolepolicy.exactmatch.ExactMatch.Component;
import rolepolicy.model.SchemaColumn;
import rolepolicy.spider.Schema;

/**
 * Spider's exact set match on hand-made pairs over concert_singer: one test per component, each
 * with pairs that differ in that component alone (where Spider's components allow it) and pairs
 * that only look different (values, aliases, order of SELECT items, foreign keys).
 */
class ExactMatchTest {
  static final Schema SCHEMA = TestData.schemas().get("concert_singer");
  private static List<Component> differences(String predicted, String gold) {
    return new ExactMatch(SCHEMA).differences(SpiderSql.parse(predicted, SCHEMA), SpiderSql.parse(gold, SCHEMA));
  }

  private static void match(String predicted, String gold) {
    assertEquals(List.of(), differences(predicted, gold), predicted + "  vs  " + gold);
    assertEquals(true, new ExactMatch(SCHEMA).matches(SpiderSql.parse(predicted, SCHEMA), SpiderSql.parse(gold, SCHEMA)));
  }

  private static void differ(String predicted, String gold, Component... components) {
    assertEquals(List.of(components), differences(predicted, gold), predicted + "  vs  " + gold);
    assertEquals(false, new ExactMatch(SCHEMA).matches(SpiderSql.parse(predicted, SCHEMA), SpiderSql.parse(gold, SCHEMA)));
  }

  @Test
  void select() {
    match("SELECT Name, Country FROM singer", "SELECT Name, Country FROM singer");
    // the aggregate alone: select differs, select(no AGG) does not
    differ("SELECT max(Age) FROM singer", "SELECT min(Age) FROM singer", SELECT);
    differ("SELECT count(*) FROM singer", "SELECT sum(Age) FROM singer", SELECT, SELECT_NO_AGG);
    // one item more or fewer
    differ("SELECT Name FROM singer", "SELECT Name, Country FROM singer", SELECT, SELECT_NO_AGG);
    differ("SELECT Name, Country FROM singer", "SELECT Name FROM singer", SELECT, SELECT_NO_AGG);
    // a multiset: the same item twice is not the same as two items
    differ("SELECT Name, Name FROM singer", "SELECT Name, Country FROM singer", SELECT, SELECT_NO_AGG);
    differ("SELECT Age - Age FROM singer", "SELECT Age + Age FROM singer", SELECT, SELECT_NO_AGG);
  }

  @Test
  void selectNoAgg() {
    differ("SELECT Name FROM singer", "SELECT Country FROM singer", SELECT, SELECT_NO_AGG);
    differ("SELECT avg(Age) FROM singer", "SELECT avg(Song_release_year) FROM singer", SELECT, SELECT_NO_AGG);
    differ("SELECT count(*), max(Age) FROM singer", "SELECT max(*), count(Age) FROM singer", SELECT);
  }

  @Test
  void selectColumnOrderDoesNotMatter() {
    match("SELECT Country, Name, count(*) FROM singer GROUP BY Country, Name",
        "SELECT count(*), Name, Country FROM singer GROUP BY Country, Name");
  }

  @Test
  void selectDistinctIsNotCompared() {
    // Spider's evaluation.py drops DISTINCT (DISABLE_DISTINCT), in SELECT and in count(DISTINCT x)
    match("SELECT DISTINCT Country FROM singer", "SELECT Country FROM singer");
    match("SELECT count(DISTINCT Country) FROM singer", "SELECT count(Country) FROM singer");
  }

  @Test
  void where() {
    match("SELECT Name FROM singer WHERE Age > 20 AND Country = 'France'",
        "SELECT Name FROM singer WHERE Country = 'US' AND Age > 40");
    // the operator alone: where differs, where(no OP) does not
    differ("SELECT Name FROM singer WHERE Age > 20", "SELECT Name FROM singer WHERE Age < 20", WHERE);
    differ("SELECT Name FROM singer WHERE Age >= 20", "SELECT Name FROM singer WHERE Age <= 20", WHERE);
    differ("SELECT Name FROM singer WHERE Age = 20", "SELECT Name FROM singer WHERE Age != 20", WHERE);
    differ("SELECT Name FROM singer WHERE Age BETWEEN 1 AND 2", "SELECT Name FROM singer WHERE Age > 1", WHERE);
    // a condition more (and with it an AND: and/or compares the sets of connectors)
    differ("SELECT Name FROM singer WHERE Age > 20 AND Age < 30", "SELECT Name FROM singer WHERE Age > 20",
        WHERE, WHERE_NO_OP, AND_OR);
    differ("SELECT Name FROM singer", "SELECT Name FROM singer WHERE Age > 20", WHERE, WHERE_NO_OP, KEYWORDS);
    // the nested query of a condition keeps its structure (not its values)
    match("SELECT Name FROM singer WHERE Age > (SELECT avg(Age) FROM singer WHERE Country = 'a')",
        "SELECT Name FROM singer WHERE Age > (SELECT avg(Age) FROM singer WHERE Country = 'b')");
    differ("SELECT Name FROM singer WHERE Age > (SELECT avg(Age) FROM singer)",
        "SELECT Name FROM singer WHERE Age > (SELECT max(Age) FROM singer)", WHERE);
  }

  @Test
  void whereNoOp() {
    differ("SELECT Name FROM singer WHERE Age > 20", "SELECT Name FROM singer WHERE Song_release_year > 20",
        WHERE, WHERE_NO_OP);
    differ("SELECT Name FROM singer WHERE Age - Age > 20", "SELECT Name FROM singer WHERE Age + Age > 20",
        WHERE, WHERE_NO_OP);
    differ("SELECT Name FROM singer WHERE Age > 1 AND Age < 5", "SELECT Name FROM singer WHERE Age > 1 AND Name = 'a'",
        WHERE, WHERE_NO_OP);
    match("SELECT Name FROM singer WHERE Age > 1 AND Age < 5", "SELECT Name FROM singer WHERE Age < 1 AND Age > 5");
  }

  @Test
  void groupNoHaving() {
    differ("SELECT count(*) FROM singer GROUP BY Name", "SELECT count(*) FROM singer GROUP BY Country",
        GROUP_NO_HAVING, GROUP);
    differ("SELECT count(*) FROM singer GROUP BY Name, Country", "SELECT count(*) FROM singer GROUP BY Name",
        GROUP_NO_HAVING, GROUP);
    differ("SELECT count(*) FROM singer GROUP BY Name, Name", "SELECT count(*) FROM singer GROUP BY Name, Country",
        GROUP_NO_HAVING, GROUP);
  }

  @Test
  void group() {
    // group(no Having) compares column names without their table; group compares the columns
    differ("SELECT count(*) FROM stadium AS T1 JOIN singer AS T2 GROUP BY T1.Name",
        "SELECT count(*) FROM stadium AS T1 JOIN singer AS T2 GROUP BY T2.Name", GROUP);
    // group compares GROUP BY columns in order
    differ("SELECT count(*) FROM singer GROUP BY Country, Name", "SELECT count(*) FROM singer GROUP BY Name, Country",
        GROUP);
    differ("SELECT Name FROM singer", "SELECT Name FROM singer GROUP BY Name", GROUP_NO_HAVING, GROUP, KEYWORDS);
    differ("SELECT Name FROM singer GROUP BY Name", "SELECT Name FROM singer", GROUP_NO_HAVING, GROUP, KEYWORDS);
  }

  @Test
  void having() {
    match("SELECT Country FROM singer GROUP BY Country HAVING count(*) > 1",
        "SELECT Country FROM singer GROUP BY Country HAVING count(*) > 5");
    differ("SELECT Country FROM singer GROUP BY Country HAVING count(*) > 1",
        "SELECT Country FROM singer GROUP BY Country HAVING avg(Age) > 1", GROUP);
    differ("SELECT Country FROM singer GROUP BY Country HAVING count(*) > 1",
        "SELECT Country FROM singer GROUP BY Country HAVING count(*) < 1", GROUP);
    differ("SELECT Country FROM singer GROUP BY Country",
        "SELECT Country FROM singer GROUP BY Country HAVING count(*) > 1", GROUP, KEYWORDS);
  }

  @Test
  void order() {
    match("SELECT Name FROM singer ORDER BY Age DESC", "SELECT Name FROM singer ORDER BY Age DESC");
    differ("SELECT Name FROM singer ORDER BY Age", "SELECT Name FROM singer ORDER BY Name", ORDER);
    differ("SELECT Name FROM singer ORDER BY Age, Name", "SELECT Name FROM singer ORDER BY Name, Age", ORDER);
    differ("SELECT Name FROM singer ORDER BY Age", "SELECT Name FROM singer ORDER BY Age DESC", ORDER, KEYWORDS);
    differ("SELECT Name FROM singer", "SELECT Name FROM singer ORDER BY Age", ORDER, KEYWORDS);
    differ("SELECT Name FROM singer ORDER BY Age", "SELECT Name FROM singer", ORDER, KEYWORDS);
    // Spider keeps one direction for the clause: the last one written
    match("SELECT Name FROM singer ORDER BY Age DESC, Name", "SELECT Name FROM singer ORDER BY Age, Name DESC");
    match("SELECT Name FROM singer ORDER BY Age ASC", "SELECT Name FROM singer ORDER BY Age");
  }

  @Test
  void limit() {
    // LIMIT counts only where there is ORDER BY, and its value is not compared
    match("SELECT Name FROM singer ORDER BY Age LIMIT 1", "SELECT Name FROM singer ORDER BY Age LIMIT 3");
    differ("SELECT Name FROM singer ORDER BY Age LIMIT 1", "SELECT Name FROM singer ORDER BY Age", ORDER, KEYWORDS);
    differ("SELECT Name FROM singer ORDER BY Age", "SELECT Name FROM singer ORDER BY Age LIMIT 1", ORDER, KEYWORDS);
    differ("SELECT Name FROM singer LIMIT 3", "SELECT Name FROM singer", KEYWORDS);
  }

  @Test
  void andOr() {
    differ("SELECT Name FROM singer WHERE Age > 20 AND Country = 'a'",
        "SELECT Name FROM singer WHERE Age > 20 OR Country = 'a'", AND_OR, KEYWORDS);
    // the set of connectors: OR alone against OR and AND
    differ("SELECT Name FROM singer WHERE Age > 1 OR Age < 0 OR Country = 'a'",
        "SELECT Name FROM singer WHERE Age > 1 OR Age < 0 AND Country = 'a'", AND_OR);
    match("SELECT Name FROM singer WHERE Age > 1 OR Age < 0 AND Country = 'a'",
        "SELECT Name FROM singer WHERE Age > 1 AND Age < 0 OR Country = 'a'");
  }

  @Test
  void intersect() {
    String a = "SELECT Name FROM singer WHERE Age > 1";
    match(a + " INTERSECT SELECT Name FROM singer WHERE Age < 9", a + " INTERSECT SELECT Name FROM singer WHERE Age < 5");
    differ(a + " INTERSECT SELECT Name FROM singer", a + " INTERSECT SELECT Country FROM singer", IUEN);
    differ(a, a + " INTERSECT SELECT Name FROM singer", IUEN, KEYWORDS);
    differ(a + " INTERSECT SELECT Name FROM singer", a, IUEN, KEYWORDS);
  }

  @Test
  void union() {
    String a = "SELECT Name FROM singer WHERE Age > 1";
    differ(a + " UNION SELECT Name FROM singer", a + " UNION SELECT Country FROM singer", IUEN);
    differ(a, a + " UNION SELECT Name FROM singer", IUEN, KEYWORDS);
    differ(a + " UNION SELECT Name FROM singer", a + " INTERSECT SELECT Name FROM singer", IUEN, KEYWORDS);
    // the parts of a set operation are compared in their own tables too
    differ(a + " UNION SELECT Name FROM stadium", a + " UNION SELECT Name FROM singer", IUEN);
  }

  @Test
  void except() {
    String a = "SELECT Name FROM singer WHERE Age > 1";
    differ(a + " EXCEPT SELECT Name FROM singer", a + " EXCEPT SELECT Country FROM singer", IUEN);
    differ(a, a + " EXCEPT SELECT Name FROM singer", IUEN, KEYWORDS);
    differ(a + " EXCEPT SELECT Name FROM singer", a + " UNION SELECT Name FROM singer", IUEN, KEYWORDS);
    // a chain nests under its first part: A UNION B EXCEPT C is A UNION (B EXCEPT C)
    match(a + " UNION SELECT Name FROM singer EXCEPT SELECT Name FROM stadium",
        a + " UNION SELECT Name FROM singer EXCEPT SELECT Name FROM stadium");
    differ(a + " UNION SELECT Name FROM singer EXCEPT SELECT Name FROM stadium",
        a + " UNION SELECT Name FROM singer EXCEPT SELECT Location FROM stadium", IUEN);
  }

  @Test
  void keywords() {
    // NOT, IN, LIKE and OR anywhere in the conditions (ON included); DISTINCT is no keyword
    differ("SELECT Name FROM singer WHERE Name NOT LIKE '%a%'", "SELECT Name FROM singer WHERE Name LIKE '%a%'",
        WHERE, KEYWORDS);
    differ("SELECT Name FROM singer WHERE Singer_ID NOT IN (SELECT Singer_ID FROM singer_in_concert)",
        "SELECT Name FROM singer WHERE Singer_ID IN (SELECT Singer_ID FROM singer_in_concert)", WHERE, KEYWORDS);
    differ("SELECT Name FROM singer WHERE Name IN ('a', 'b')", "SELECT Name FROM singer WHERE Name = 'a'",
        WHERE, KEYWORDS);
    differ("SELECT Name FROM singer WHERE Name LIKE 'a'", "SELECT Name FROM singer WHERE Name = 'a'",
        WHERE, KEYWORDS);
    differ("SELECT T1.Name FROM singer AS T1 JOIN singer_in_concert AS T2 ON T1.Singer_ID = T2.Singer_ID OR T1.Age = 1",
        "SELECT T1.Name FROM singer AS T1 JOIN singer_in_concert AS T2 ON T1.Singer_ID = T2.Singer_ID AND T1.Age = 1",
        KEYWORDS);
    differ("SELECT T1.Name FROM singer AS T1 JOIN singer_in_concert AS T2 ON T1.Name NOT LIKE 'a'",
        "SELECT T1.Name FROM singer AS T1 JOIN singer_in_concert AS T2 ON T1.Name LIKE 'a'", KEYWORDS);
    differ("SELECT Country FROM singer GROUP BY Country HAVING Country IN ('a')",
        "SELECT Country FROM singer GROUP BY Country HAVING Country = 'a'", GROUP, KEYWORDS);
    differ("SELECT Country FROM singer GROUP BY Country HAVING Country = 'a' OR Country = 'b'",
        "SELECT Country FROM singer GROUP BY Country HAVING Country = 'a' AND Country = 'b'", GROUP, KEYWORDS);
    match("SELECT DISTINCT Name FROM singer", "SELECT Name FROM singer");
    assertEquals(List.of("where", "group", "having", "desc", "order", "limit", "except", "union", "intersect"),
        List.copyOf(ExactMatch.keywords(SpiderSql.parse("SELECT Name FROM singer WHERE Age > 1 GROUP BY Name "
            + "HAVING count(*) > 1 ORDER BY Name DESC LIMIT 1", SCHEMA)
            .withSetOperation("except", SpiderSql.parse("SELECT Name FROM singer", SCHEMA))
            .withSetOperation("union", SpiderSql.parse("SELECT Name FROM singer", SCHEMA))
            .withSetOperation("intersect", SpiderSql.parse("SELECT Name FROM singer", SCHEMA)))));
  }

  @Test
  void tables() {
    differ("SELECT count(*) FROM singer", "SELECT count(*) FROM stadium", TABLES);
    differ("SELECT count(*) FROM singer AS T1 JOIN concert AS T2", "SELECT count(*) FROM singer", TABLES);
    differ("SELECT count(*) FROM singer AS T1 JOIN singer AS T2", "SELECT count(*) FROM singer AS T1 JOIN stadium AS T2",
        TABLES);
    // a multiset: JOIN order does not matter
    match("SELECT count(*) FROM singer AS T1 JOIN concert AS T2", "SELECT count(*) FROM concert AS T1 JOIN singer AS T2");
    // ON conditions are not compared (beyond OR, NOT, IN and LIKE among the keywords)
    match("SELECT count(*) FROM singer AS T1 JOIN concert AS T2 ON T1.Singer_ID = T2.concert_ID",
        "SELECT count(*) FROM singer AS T1 JOIN concert AS T2 ON T1.Age = T2.Year");
    // a FROM subquery is compared as it is, values included (Spider rebuilds neither)
    match("SELECT count(*) FROM (SELECT Name FROM singer WHERE Age > 20)",
        "SELECT count(*) FROM (SELECT Name FROM singer WHERE Age > 20)");
    differ("SELECT count(*) FROM (SELECT Name FROM singer WHERE Age > 20)",
        "SELECT count(*) FROM (SELECT Name FROM singer WHERE Age > 30)", TABLES);
  }

  @Test
  void valuesAreNotCompared() {
    match("SELECT Name FROM singer WHERE Country = 'France' AND Age > 20",
        "SELECT Name FROM singer WHERE Country = 'Japan' AND Age > 45.5");
    match("SELECT Name FROM singer WHERE Age BETWEEN 1 AND 2", "SELECT Name FROM singer WHERE Age BETWEEN 3 AND 4");
    match("SELECT Name FROM singer WHERE Name IN ('a', 'b')", "SELECT Name FROM singer WHERE Name IN ('c')");
    // a column where the gold has a value is a value too
    match("SELECT Name FROM singer WHERE Age > Song_release_year", "SELECT Name FROM singer WHERE Age > 1990");
    match("SELECT Name FROM singer WHERE Country = \"France\"", "SELECT Name FROM singer WHERE Country = 'France'");
  }

  @Test
  void tableAliasesDoNotMatter() {
    match("SELECT T1.Name FROM singer AS T1 WHERE T1.Age > 1", "SELECT Name FROM singer WHERE Age > 1");
    match("SELECT s.Name FROM singer s", "SELECT singer.Name FROM singer");
    match("SELECT T2.Name FROM concert AS T1 JOIN stadium AS T2 ON T1.Stadium_ID = T2.Stadium_ID",
        "SELECT A.Name FROM concert AS B JOIN stadium AS A ON B.Stadium_ID = A.Stadium_ID");
  }

  @Test
  void foreignKeyColumnsStandForTheirKey() {
    // concert.Stadium_ID references stadium.Stadium_ID: with both tables in FROM they are one column
    match("SELECT T1.Stadium_ID FROM concert AS T1 JOIN stadium AS T2 ON T1.Stadium_ID = T2.Stadium_ID",
        "SELECT T2.Stadium_ID FROM concert AS T1 JOIN stadium AS T2 ON T1.Stadium_ID = T2.Stadium_ID");
    match("SELECT count(*) FROM concert AS T1 JOIN stadium AS T2 GROUP BY T1.Stadium_ID",
        "SELECT count(*) FROM concert AS T1 JOIN stadium AS T2 GROUP BY T2.Stadium_ID");
    // not inside a nested query of a condition, which Spider leaves as it is
    differ("SELECT Name FROM stadium WHERE Stadium_ID IN (SELECT T1.Stadium_ID FROM concert AS T1 JOIN stadium AS T2)",
        "SELECT Name FROM stadium WHERE Stadium_ID IN (SELECT T2.Stadium_ID FROM concert AS T1 JOIN stadium AS T2)",
        WHERE);
  }

  @Test
  void theForeignKeyMapIsSpidersGrouping() {
    // a pair joins the first group holding either column; a column in two groups takes the later's first
    List<SchemaColumn> columns = new java.util.ArrayList<>();
    columns.add(new SchemaColumn("db", 0, "", "*", "text", false));
    for (int i = 1; i <= 6; i++) {
      columns.add(new SchemaColumn("db", i, "t", "c" + i, "number", false));
    }
    Schema schema = new Schema("db", List.of("t"), columns, List.of(
        new Schema.ForeignKey(1, 2), new Schema.ForeignKey(4, 3), new Schema.ForeignKey(2, 3), new Schema.ForeignKey(6, 5)));
    assertArrayEquals(new int[] {-1, 1, 1, 3, 3, 5, 5}, ExactMatch.foreignKeyMap(schema));
    assertArrayEquals(new int[] {-1, -1}, ExactMatch.foreignKeyMap(new Schema("db", List.of("t"),
        List.of(columns.get(0), columns.get(1)))));
  }

  @Test
  void goldAgainstItselfMatches() {
    for (String sql : List.of(
        "SELECT count(*) FROM singer",
        "SELECT T2.Name, count(*) FROM concert AS T1 JOIN stadium AS T2 ON T1.Stadium_ID = T2.Stadium_ID GROUP BY T1.Stadium_ID",
        "SELECT Name FROM stadium WHERE Stadium_ID NOT IN (SELECT Stadium_ID FROM concert)",
        "SELECT Name FROM singer WHERE Age > 1 INTERSECT SELECT Name FROM singer WHERE Age < 9 ORDER BY Name LIMIT 2")) {
      match(sql, sql);
    }
  }

  @Test
  void predictionsBeyondSpidersGrammarHaveNoStructure() {
    Map<String, String> reasons = Map.ofEntries(
        Map.entry("WITH x AS (SELECT Name FROM singer) SELECT Name FROM x", "beyond Spider's grammar: WITH"),
        Map.entry("SELECT CASE WHEN Age > 30 THEN 'old' ELSE 'young' END FROM singer", "beyond Spider's grammar: CASE"),
        Map.entry("SELECT Name, rank() OVER (ORDER BY Age) FROM singer", "beyond Spider's grammar: window function"),
        Map.entry("SELECT avg(Age) OVER () FROM singer", "beyond Spider's grammar: window function"),
        Map.entry("SELECT upper(Name) FROM singer", "beyond Spider's grammar: function upper()"),
        Map.entry("SELECT T1.Name FROM singer AS T1 LEFT JOIN singer_in_concert AS T2 ON T1.Singer_ID = T2.Singer_ID",
            "beyond Spider's grammar: LEFT JOIN"),
        Map.entry("SELECT Name FROM singer UNION ALL SELECT Name FROM stadium", "beyond Spider's grammar: UNION ALL"),
        Map.entry("SELECT Name FROM singer LIMIT 1 OFFSET 2", "beyond Spider's grammar: OFFSET / FETCH"),
        Map.entry("SELECT Name FROM singer WHERE Name GLOB 'a*'", "beyond Spider's grammar: GLOB"),
        Map.entry("SELECT Name FROM singer WHERE NOT Age > 1", "beyond Spider's grammar: NOT before a condition"),
        Map.entry("SELECT Name FROM singer WHERE (Age > 1 OR Age < 0) AND Name = 'a'",
            "beyond Spider's grammar: a parenthesised condition or list"),
        Map.entry("SELECT Name FROM singer WHERE EXISTS (SELECT 1 FROM concert)", "beyond Spider's grammar: EXISTS"),
        Map.entry("SELECT Name FROM singer WHERE Age > 1 + 2", "beyond Spider's grammar: arithmetic in a value"),
        Map.entry("SELECT Age + Age + Age FROM singer", "beyond Spider's grammar: arithmetic on more than two operands"),
        Map.entry("SELECT 1 FROM singer", "beyond Spider's grammar: a value where Spider has a column"),
        Map.entry("SELECT Name", "beyond Spider's grammar: SELECT without FROM"),
        Map.entry("SELECT x.Name FROM (SELECT Name FROM singer) AS x", "beyond Spider's grammar: a column of a FROM subquery"),
        Map.entry("SELECT Nmae FROM singer", "unknown column Nmae"),
        Map.entry("SELECT Name FROM singers", "unknown table singers"),
        Map.entry("SELECT T9.Name FROM singer AS T1", "unknown table or alias T9"));
    reasons.forEach((sql, reason) ->
        assertEquals(reason, assertThrows(SpiderSqlException.class, () -> SpiderSql.parse(sql, SCHEMA), sql).getMessage(), sql));
    assertEquals("empty SQL text", assertThrows(SpiderSqlException.class, () -> SpiderSql.parse(" ", SCHEMA)).getMessage());
    String parse = assertThrows(SpiderSqlException.class, () -> SpiderSql.parse("SELEC Name FROM singer", SCHEMA)).getMessage();
    assertEquals(true, parse.startsWith("cannot parse SQL"), parse);
  }
}

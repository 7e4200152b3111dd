package rolepolicy.exactmatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import rolepolicy.TestData;
import rolepolicy.exactmatch.SpiderSql.ColUnit;
import rolepolicy.exactmatch.SpiderSql.CondUnit;
import rolepolicy.exactmatch.SpiderSql.Condition;
import rolepolicy.exactmatch.SpiderSql.Literal;
import rolepolicy.exactmatch.SpiderSql.OrderBy;
import rolepolicy.exactmatch.SpiderSql.SelectItem;
import rolepolicy.exactmatch.SpiderSql.TableUnit;
import rolepolicy.exactmatch.SpiderSql.ValUnit;
import rolepolicy.spider.Schema;

/**
 * SQL text into Spider's structure, as Spider's process_sql.py builds it, on concert_singer
 * (stadium 0, singer 1, concert 2, singer_in_concert 3; singer.Name is column 9, Age 13).
 */
class SpiderSqlTest {
  private static final Schema SCHEMA = TestData.schemas().get("concert_singer");
  private static final int STADIUM_ID = 1;
  private static final int STADIUM_NAME = 3;
  private static final int SINGER_ID = 8;
  private static final int NAME = 9;
  private static final int COUNTRY = 10;
  private static final int AGE = 13;
  private static final int CONCERT_STADIUM_ID = 18;

  private static SpiderSql parse(String sql) {
    return SpiderSql.parse(sql, SCHEMA);
  }

  private static ColUnit col(int column) {
    return new ColUnit(0, column, false);
  }

  private static ValUnit val(int column) {
    return new ValUnit(0, col(column), null);
  }

  @Test
  void selectItemsCarryTheirAggregateAndCountDistinctItsColumn() {
    SpiderSql sql = parse("SELECT count(*), count(DISTINCT Country), avg(Age * Age), Age - Song_release_year, "
        + "(Name), max(T1.Age) FROM singer AS T1");
    assertEquals(List.of(
        new SelectItem(3, new ValUnit(0, col(0), null)),
        new SelectItem(3, new ValUnit(0, new ColUnit(0, COUNTRY, true), null)),
        new SelectItem(5, new ValUnit(3, col(AGE), col(AGE))),
        new SelectItem(0, new ValUnit(1, col(AGE), col(12))),
        new SelectItem(0, val(NAME)),
        new SelectItem(1, val(AGE))), sql.select());
    assertFalse(sql.distinct());
    assertTrue(parse("SELECT DISTINCT Name FROM singer").distinct());
    assertEquals(List.of(new SelectItem(0, val(0))), parse("SELECT * FROM singer").select());
    assertEquals(List.of(new SelectItem(0, new ValUnit(2, new ColUnit(4, AGE, false), new ColUnit(2, AGE, true)))),
        parse("SELECT sum(Age) + min(DISTINCT Age) FROM singer").select());
  }

  @Test
  void anUnqualifiedColumnBelongsToTheFirstFromTableThatHasIt() {
    assertEquals(List.of(new SelectItem(0, val(STADIUM_NAME))),
        parse("SELECT Name FROM stadium JOIN singer").select());
    assertEquals(List.of(new SelectItem(0, val(NAME))), parse("SELECT Name FROM singer JOIN stadium").select());
    assertEquals(List.of(new SelectItem(0, val(NAME))), parse("SELECT \"name\" FROM singer").select());
    assertEquals(List.of(new SelectItem(0, val(NAME))), parse("SELECT `singer`.[NAME] FROM singer").select());
    // a qualifier names an alias first, then a table
    assertEquals(List.of(new SelectItem(0, val(NAME))), parse("SELECT stadium.Name FROM singer AS stadium").select());
    assertEquals(List.of(new TableUnit(1, null), new TableUnit(0, null)),
        parse("SELECT count(*) FROM singer, stadium").tables());
  }

  @Test
  void aNestedQuerySeesTheColumnsAroundIt() {
    SpiderSql sql = parse("SELECT Name FROM stadium AS T1 WHERE Capacity > "
        + "(SELECT count(*) FROM concert WHERE concert.Stadium_ID = T1.Stadium_ID AND Name = 'a')");
    SpiderSql nested = ((SpiderSql.Nested) sql.where().units().get(0).first()).query();
    assertEquals(new CondUnit(false, 2, val(CONCERT_STADIUM_ID), col(STADIUM_ID), null), nested.where().units().get(0));
    assertEquals(val(STADIUM_NAME), nested.where().units().get(1).left());
  }

  @Test
  void conditionsAreSpidersFlatListInTextOrder() {
    SpiderSql sql = parse("SELECT Name FROM singer WHERE Age > 1 OR Age < 0 AND Name LIKE 'a%' "
        + "AND Age NOT BETWEEN 2 AND 3 AND Country IS NOT NULL AND Name = \"x\" AND Age != -5");
    assertEquals(List.of("or", "and", "and", "and", "and", "and"), sql.where().connectors());
    assertEquals(List.of(
        new CondUnit(false, 3, val(AGE), new Literal(1.0), null),
        new CondUnit(false, 4, val(AGE), new Literal(0.0), null),
        new CondUnit(false, 9, val(NAME), new Literal("a%"), null),
        new CondUnit(true, 1, val(AGE), new Literal(2.0), new Literal(3.0)),
        new CondUnit(true, 10, val(COUNTRY), Literal.NULL, null),
        new CondUnit(false, 2, val(NAME), new Literal("x"), null),
        new CondUnit(false, 7, val(AGE), new Literal(-5.0), null)), sql.where().units());
    assertEquals(new CondUnit(false, 6, val(AGE), new Literal(2.5), null),
        parse("SELECT Name FROM singer WHERE Age <= 2.5").where().units().get(0));
    assertEquals(new CondUnit(false, 5, val(AGE), new Literal("it's"), null),
        parse("SELECT Name FROM singer WHERE Age >= 'it''s'").where().units().get(0));
    assertEquals(new CondUnit(false, 7, val(AGE), Literal.NULL, null),
        parse("SELECT Name FROM singer WHERE Age <> NULL").where().units().get(0));
    assertEquals(new CondUnit(false, 2, val(AGE), new Literal(5.0), null),
        parse("SELECT Name FROM singer WHERE Age == +(5)").where().units().get(0));
    assertEquals(new CondUnit(false, 2, val(AGE), new Literal(-2.5), null),
        parse("SELECT Name FROM singer WHERE Age = -2.5").where().units().get(0));
  }

  @Test
  void anInOperandTakesOnlyItsQueryOrList() {
    // JSqlParser reads "x IN (...) AND y = 1" as an IN over "(...) AND y = 1"
    SpiderSql sql = parse("SELECT Name FROM singer WHERE Singer_ID IN (SELECT Singer_ID FROM singer_in_concert) "
        + "AND Age > 1 OR Name NOT IN ('a', 'b') AND Country IN ('c')");
    assertEquals(List.of("and", "or", "and"), sql.where().connectors());
    List<CondUnit> units = sql.where().units();
    assertEquals(4, units.size());
    assertEquals(8, units.get(0).op());
    assertEquals(List.of(new SelectItem(0, val(21))),
        ((SpiderSql.Nested) units.get(0).first()).query().select());
    assertEquals(new CondUnit(false, 3, val(AGE), new Literal(1.0), null), units.get(1));
    assertEquals(new CondUnit(true, 8, val(NAME), new Literal(List.of("a", "b")), null), units.get(2));
    assertEquals(new CondUnit(false, 8, val(COUNTRY), new Literal("c"), null), units.get(3));
  }

  @Test
  void joinConditionsFollowEachOtherWithAnd() {
    SpiderSql sql = parse("SELECT T1.Name FROM singer AS T1 JOIN singer_in_concert AS T2 ON T1.Singer_ID = T2.Singer_ID "
        + "JOIN concert AS T3 ON T2.concert_ID = T3.concert_ID OR T3.Year = 1");
    assertEquals(List.of(new TableUnit(1, null), new TableUnit(3, null), new TableUnit(2, null)), sql.tables());
    assertEquals(List.of("and", "or"), sql.joinConditions().connectors());
    assertEquals(List.of("and", "and"), parse("SELECT count(*) FROM singer AS T1 JOIN singer_in_concert AS T2 "
        + "ON T1.Singer_ID = T2.Singer_ID JOIN concert AS T3 ON T2.concert_ID = T3.concert_ID "
        + "JOIN stadium AS T4 ON T3.Stadium_ID = T4.Stadium_ID").joinConditions().connectors());
    assertEquals(new CondUnit(false, 2, val(SINGER_ID), col(21), null), sql.joinConditions().units().get(0));
    assertEquals(Condition.NONE, parse("SELECT Name FROM singer").joinConditions());
    assertEquals(Condition.NONE, parse("SELECT Name FROM singer").where());
    assertTrue(parse("SELECT Name FROM singer").where().isEmpty());
  }

  @Test
  void groupByHavingOrderByAndLimit() {
    SpiderSql sql = parse("SELECT Country, count(*) AS n FROM singer GROUP BY Country HAVING count(*) > 2 "
        + "ORDER BY n DESC, Country LIMIT 3");
    assertEquals(List.of(col(COUNTRY)), sql.groupBy());
    assertEquals(List.of(new CondUnit(false, 3, new ValUnit(0, new ColUnit(3, 0, false), null), new Literal(2.0), null)),
        sql.having().units());
    // an item alias stands for its item, its aggregate on the column unit
    assertEquals(new OrderBy("desc", List.of(new ValUnit(0, new ColUnit(3, 0, false), null), val(COUNTRY))),
        sql.orderBy());
    assertEquals(3, sql.limit());
    assertNull(parse("SELECT Name FROM singer").orderBy());
    assertNull(parse("SELECT Name FROM singer").limit());
    assertEquals(new OrderBy("asc", List.of(new ValUnit(1, col(AGE), col(12)))),
        parse("SELECT Age - Song_release_year AS d FROM singer ORDER BY d").orderBy());
    assertEquals(List.of(col(AGE)), parse("SELECT Age AS a FROM singer GROUP BY a").groupBy());
    assertEquals(List.of(new ColUnit(1, AGE, false)), parse("SELECT max(Age) AS a FROM singer GROUP BY a").groupBy());
    // a FROM column wins over an item alias of the same name
    assertEquals(List.of(col(AGE)), parse("SELECT Name AS Age FROM singer GROUP BY Age").groupBy());
    assertEquals(List.of(col(NAME)), parse("SELECT Name AS x FROM singer WHERE Name = 'a' GROUP BY x").groupBy());
  }

  @Test
  void aSetOperationChainNestsUnderItsFirstPart() {
    SpiderSql sql = parse("SELECT Name FROM singer UNION SELECT Name FROM stadium INTERSECT SELECT Country FROM singer "
        + "ORDER BY Name LIMIT 2");
    assertNull(sql.orderBy());
    assertNull(sql.intersect());
    assertNull(sql.except());
    SpiderSql second = sql.union();
    assertEquals(List.of(new TableUnit(0, null)), second.tables());
    SpiderSql third = second.intersect();
    assertNull(second.orderBy());
    assertEquals(List.of(new SelectItem(0, val(COUNTRY))), third.select());
    // ORDER BY and LIMIT after the chain belong to its last part, as Spider reads them
    assertEquals(new OrderBy("asc", List.of(val(NAME))), third.orderBy());
    assertEquals(2, third.limit());
    SpiderSql except = parse("(SELECT Name FROM singer) EXCEPT (SELECT Name FROM singer ORDER BY Age LIMIT 1)");
    assertEquals(1, except.except().limit());
    assertNull(except.limit());
  }

  @Test
  void aFromSubqueryIsATableUnit() {
    SpiderSql sql = parse("SELECT count(*) FROM (SELECT Name FROM singer INTERSECT SELECT Name FROM stadium)");
    assertNull(sql.tables().get(0).table());
    assertEquals(List.of(new TableUnit(0, null)), sql.tables().get(0).query().intersect().tables());
    assertEquals(List.of(new SelectItem(3, val(0))), sql.select());
  }

  @Test
  void constructsBeyondTheGrammarAreNamed() {
    List<List<String>> cases = List.of(
        List.of("SELECT Name FROM singer INTERSECT ALL SELECT Name FROM singer", "INTERSECT ALL"),
        List.of("SELECT Name FROM singer EXCEPT ALL SELECT Name FROM singer", "EXCEPT ALL"),
        List.of("SELECT Name FROM singer UNION (SELECT Name FROM singer UNION SELECT Name FROM stadium)",
            "a parenthesised set operation inside a set operation"),
        List.of("SELECT Name FROM singer UNION (SELECT Name FROM singer ORDER BY Age) ORDER BY Name",
            "two ORDER BY or LIMIT clauses on one query"),
        List.of("SELECT Name FROM singer WHERE Age IN (WITH x AS (SELECT 1) SELECT Age FROM singer)", "WITH"),
        List.of("SELECT Name FROM singer ORDER BY 1", "ORDER BY a column position"),
        List.of("SELECT Name FROM singer GROUP BY 1", "GROUP BY a column position"),
        List.of("SELECT Name FROM singer ORDER BY Age NULLS FIRST", "NULLS FIRST / LAST"),
        List.of("SELECT Name FROM singer LIMIT 2, 3", "OFFSET / FETCH"),
        List.of("SELECT Name FROM singer FETCH FIRST 1 ROWS ONLY", "OFFSET / FETCH"),
        List.of("SELECT Name FROM singer UNION SELECT Name FROM singer LIMIT 1 OFFSET 1", "OFFSET / FETCH"),
        List.of("SELECT Name FROM singer UNION SELECT Name FROM singer OFFSET 1", "OFFSET / FETCH"),
        List.of("SELECT Name FROM singer LIMIT ALL", "LIMIT of other than a number"),
        List.of("SELECT TOP 1 Name FROM singer", "a clause of another SQL dialect"),
        List.of("SELECT Name INTO x FROM singer", "a clause of another SQL dialect"),
        List.of("SELECT Name FROM singer QUALIFY Age > 1", "a clause of another SQL dialect"),
        List.of("SELECT DISTINCT ON (Name) Name FROM singer", "DISTINCT ON / UNIQUE"),
        List.of("SELECT UNIQUE Name FROM singer", "DISTINCT ON / UNIQUE"),
        List.of("SELECT Name FROM singer WINDOW w AS (ORDER BY Age)", "window function"),
        List.of("SELECT Name FROM singer WHERE Age > ALL (SELECT Age FROM singer)", "ANY / ALL"),
        List.of("SELECT count(*) FROM singer WHERE Name ILIKE 'a'", "ILIKE"),
        List.of("SELECT Name FROM main.singer", "unknown table main.singer"),
        List.of("SELECT main.singer.Name FROM singer", "unknown column main.singer.Name"),
        List.of("SELECT Name FROM singer GROUP BY ROLLUP(Name)", "function rollup()"),
        List.of("SELECT none(Age) FROM singer", "function none()"),
        List.of("SELECT Name FROM singer GROUP BY GROUPING SETS ((Name), ())", "GROUPING SETS"),
        List.of("SELECT 'x' FROM singer", "a value where Spider has a column"),
        List.of("SELECT 1.5 FROM singer", "a value where Spider has a column"),
        List.of("SELECT NULL FROM singer", "a value where Spider has a column"),
        List.of("SELECT -Age FROM singer", "a value where Spider has a column"),
        List.of("SELECT Name FROM singer WHERE Age = ?", "JdbcParameter"),
        List.of("SELECT T1.Nmae FROM singer AS T1", "unknown column T1.Nmae"),
        List.of("SELECT Name FROM singer UNION (WITH x AS (SELECT 1) SELECT Name FROM singer)", "WITH"),
        List.of("SELECT Name FROM singer LIMIT (SELECT 1)", "LIMIT of other than a number"),
        List.of("SELECT T1.* FROM singer AS T1", "T.* in SELECT"),
        List.of("SELECT count(T1.*) FROM singer AS T1", "T.* in an aggregate"),
        List.of("SELECT max(Age, 3) FROM singer", "max() with other than one argument"),
        List.of("SELECT max(count(*) + 1) FROM singer", "a value where Spider has a column"),
        List.of("SELECT count(max(Age)) FROM singer WHERE Age > 1 GROUP BY count(max(Age))",
            "an aggregate inside an aggregate"),
        List.of("SELECT Name FROM singer WHERE Name LIKE 'a' ESCAPE '!'", "LIKE ... ESCAPE"),
        List.of("SELECT Name FROM singer WHERE Age IN (1, Age)", "IN with a list of other than values"),
        List.of("SELECT Name || Country FROM singer", "||"),
        List.of("SELECT CAST(Age AS TEXT) FROM singer", "CAST"),
        List.of("SELECT (SELECT 1) FROM singer", "a nested query outside FROM and conditions"),
        List.of("SELECT Name FROM singer NATURAL JOIN stadium", "NATURAL JOIN"),
        List.of("SELECT Name FROM singer CROSS JOIN stadium", "CROSS JOIN"),
        List.of("SELECT Name FROM singer JOIN stadium USING (Name)", "JOIN ... USING"),
        List.of("SELECT Name FROM singer ORDER BY count(*) >= 5", "a condition inside an expression"),
        List.of("SELECT Name FROM singer ORDER BY Age BETWEEN 1 AND 2", "a condition inside an expression"),
        List.of("SELECT Age IN (1) FROM singer", "a condition inside an expression"),
        List.of("SELECT Name LIKE 'a' FROM singer", "a condition inside an expression"),
        List.of("SELECT Name IS NULL FROM singer", "a condition inside an expression"),
        List.of("SELECT Name FROM singer ORDER BY Age > 1 OR Age < 0", "AND / OR inside an expression"),
        List.of("SELECT Name FROM singer AS T1 WHERE Age > 1 GROUP BY Name ORDER BY x",
            "unknown column x"));
    for (List<String> c : cases) {
      String message = assertThrows(SpiderSqlException.class, () -> parse(c.get(0)), c.get(0)).getMessage();
      assertTrue(message.endsWith(c.get(1)), c.get(0) + " -> " + message);
    }
  }

  @Test
  void globIsFoundOutsideQuotesOnly() {
    assertTrue(SpiderSqlBuilder.hasWord("SELECT a FROM t WHERE a glob 'x'", "GLOB"));
    assertFalse(SpiderSqlBuilder.hasWord("SELECT a FROM t WHERE a = 'glob'", "GLOB"));
    assertFalse(SpiderSqlBuilder.hasWord("SELECT \"glob\", `glob`, [glob] FROM globe", "GLOB"));
    assertTrue(SpiderSqlBuilder.hasWord("SELECT [a] FROM t WHERE a GLOB 'x'", "GLOB"));
    assertFalse(SpiderSqlBuilder.hasWord("SELECT globs, _glob, glob2 FROM t", "GLOB"));
    assertTrue(SpiderSqlBuilder.hasWord("GLOB", "GLOB"));
    assertFalse(SpiderSqlBuilder.hasWord("'unclosed glob", "GLOB"));
    assertEquals("the SQL text nests parentheses deeper than the limit of 10", assertThrows(SpiderSqlException.class,
        () -> parse("SELECT Name FROM singer WHERE Age > " + "(".repeat(20_000) + "1" + ")".repeat(20_000)))
        .getMessage());
  }
}

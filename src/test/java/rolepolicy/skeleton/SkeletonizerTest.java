package rolepolicy.skeleton;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import net.sf.jsqlparser.expression.LongValue;
import net.sf.jsqlparser.parser.CCJSqlParserUtil;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.Select;
import org.junit.jupiter.api.Test;

/** The skeleton's rules (docs/skeleton.md), one test each, on hand-made queries. */
class SkeletonizerTest {
  private final Skeletonizer skeletonizer = new Skeletonizer();

  /** The skeleton's text, after checking that it did not fail and that it re-parses. */
  private String skeleton(String sql) {
    Skeleton skeleton = skeletonizer.skeletonize(sql);
    assertFalse(skeleton.failed(), () -> sql + ": " + skeleton.error());
    return reparsed(skeleton.sql()).toString();
  }

  private static Select reparsed(String skeleton) {
    try {
      return (Select) CCJSqlParserUtil.parse(skeleton);
    } catch (Exception e) {
      throw new AssertionError("skeleton does not re-parse: " + skeleton, e);
    }
  }

  private String signature(String sql) {
    return skeletonizer.skeletonize(sql).opSignature();
  }

  @Test
  void tableAliasesAreDroppedForTheirTablesPlaceholder() {
    assertEquals(
        "SELECT _tab1._col1 FROM _tab1 JOIN _tab2 ON _tab1._col2 = _tab2._col3",
        skeleton("SELECT T1.name FROM singer AS T1 JOIN concert AS T2 ON T1.id = T2.sid"));
  }

  @Test
  void anAliasMapsToItsTablesPlaceholderInEveryClauseAndNestedQuery() {
    assertEquals(
        "SELECT _tab1._col1, COUNT(*) FROM _tab1 JOIN _tab2 ON _tab1._col2 = _tab2._col3"
            + " WHERE _tab2._col4 > 1 AND _tab1._col2 IN (SELECT _tab3._col5 FROM _tab3"
            + " WHERE _tab3._col6 = _tab2._col4) GROUP BY _tab1._col1"
            + " HAVING COUNT(_tab2._col7) > 1 ORDER BY _tab1._col1",
        skeleton(
            "SELECT T1.name, count(*) FROM singer AS T1 JOIN concert AS T2"
                + " ON T1.singer_id = T2.singer_id WHERE T2.year > 2010 AND T1.singer_id IN"
                + " (SELECT S.singer_id FROM song AS S WHERE S.year = T2.year) GROUP BY T1.name"
                + " HAVING count(T2.concert_id) > 1 ORDER BY T1.name"));
  }

  @Test
  void aliasesResolvePerPartOfASetOperation() {
    assertEquals(
        "SELECT _tab1._col1 FROM _tab1 UNION SELECT _tab1._col1 FROM _tab1",
        skeleton("SELECT T1.name FROM singer AS T1 UNION SELECT T2.name FROM singer AS T2"));
    assertEquals(
        "SELECT _tab1._col1 FROM _tab1 INTERSECT SELECT _tab2._col2 FROM _tab2",
        skeleton("SELECT T1.name FROM singer AS T1 INTERSECT SELECT T1.title FROM song AS T1"));
  }

  @Test
  void aDerivedTablesAliasBecomesATablePlaceholder() {
    assertEquals(
        "SELECT _tab1._alias1 FROM (SELECT COUNT(*) AS _alias1 FROM _tab2) AS _tab1"
            + " WHERE _tab1._alias1 > 1",
        skeleton("SELECT T.cnt FROM (SELECT count(*) AS cnt FROM singer) AS T WHERE T.cnt > 2"));
  }

  @Test
  void aColumnWrittenQualifiedOrNotGetsOnePlaceholder() {
    assertEquals(
        "SELECT _col1, _tab1._col1 FROM _tab1 WHERE _tab1._col1 = '_str1'",
        skeleton("SELECT name, singer.name FROM singer AS S WHERE S.name = 'x'"));
    assertEquals(
        Map.of("singer", "_tab1"),
        skeletonizer.skeletonize("SELECT S.name FROM singer S").tables());
  }

  @Test
  void anUnqualifiedColumnAmongSeveralTablesTakesTheOnlyTableItIsKnownFor() {
    Skeleton skeleton =
        skeletonizer.skeletonize(
            "SELECT name FROM singer AS T1 JOIN concert AS T2 ON T1.id = T2.sid WHERE T1.name >"
                + " ''");
    assertEquals(
        "SELECT _col1 FROM _tab1 JOIN _tab2 ON _tab1._col2 = _tab2._col3 WHERE _tab1._col1 >"
            + " '_str1'",
        skeleton.sql());
    assertEquals("_col1", skeleton.columns().get("singer.name"));
  }

  @Test
  void anUnqualifiedColumnAmongSeveralTablesIsElseKeyedByItsName() {
    Skeleton unknown =
        skeletonizer.skeletonize(
            "SELECT year FROM singer AS T1 JOIN concert AS T2 ON T1.id = T2.sid");
    assertEquals(
        List.of("year", "singer.id", "concert.sid"), List.copyOf(unknown.columns().keySet()));
    Skeleton ambiguous =
        skeletonizer.skeletonize(
            "SELECT name FROM singer AS T1 JOIN song AS T2 ON T1.id = T2.sid WHERE T1.name ="
                + " T2.name");
    assertEquals(
        "SELECT _col1 FROM _tab1 JOIN _tab2 ON _tab1._col2 = _tab2._col3"
            + " WHERE _tab1._col4 = _tab2._col5",
        ambiguous.sql());
  }

  @Test
  void aColumnAliasAndItsReferencesShareAPlaceholder() {
    Skeleton skeleton =
        skeletonizer.skeletonize(
            "SELECT count(*) AS cnt, name FROM singer GROUP BY name HAVING cnt > 1 ORDER BY cnt"
                + " DESC");
    assertEquals(
        "SELECT COUNT(*) AS _alias1, _col1 FROM _tab1 GROUP BY _col1 HAVING _alias1 > 1"
            + " ORDER BY _alias1 DESC",
        skeleton.sql());
    assertEquals(Map.of("cnt", "_alias1"), skeleton.aliases());
  }

  @Test
  void limitAndOffsetStayNumbers() {
    String skeleton = skeleton("SELECT name FROM singer ORDER BY age DESC LIMIT 3 OFFSET 10");
    assertEquals("SELECT _col1 FROM _tab1 ORDER BY _col2 DESC LIMIT 1 OFFSET 1", skeleton);
    PlainSelect reparsed = (PlainSelect) reparsed(skeleton);
    assertInstanceOf(LongValue.class, reparsed.getLimit().getRowCount());
  }

  @Test
  void stringsBecomeNumberedStringsAndNumbersBecomeOne() {
    Skeleton skeleton =
        skeletonizer.skeletonize(
            "SELECT name FROM singer WHERE country = 'France' AND city = \"Paris\""
                + " AND age > 30 AND height < 1.85 AND country != 'France' AND id = -7");
    assertEquals(
        "SELECT _col1 FROM _tab1 WHERE _col2 = '_str1' AND _col3 = '_str2' AND _col4 > 1"
            + " AND _col5 < 1.0 AND _col2 != '_str1' AND _col6 = -1",
        skeleton.sql());
    assertEquals(
        "{'France'='_str1', \"Paris\"='_str2', 30=1, 1.85=1.0, 7=1}",
        skeleton.literals().toString());
  }

  @Test
  void theEscapeOfLikeAndTheNumbersOfACastTypeAreLiteralsToo() {
    Skeleton skeleton =
        skeletonizer.skeletonize(
            "SELECT CAST(name AS VARCHAR(10)), CAST(age AS DECIMAL(5, 2)), CAST(age AS INT8)"
                + " FROM singer WHERE name LIKE 'x!%' ESCAPE '!'");
    assertEquals(
        "SELECT CAST(_col1 AS VARCHAR (1)), CAST(_col2 AS DECIMAL (1, 1)), CAST(_col2 AS INT8)"
            + " FROM _tab1 WHERE _col1 LIKE '_str1' ESCAPE '_str2'",
        skeleton.sql());
    assertEquals("{10=1, 5=1, 2=1, 'x!%'='_str1', '!'='_str2'}", skeleton.literals().toString());
  }

  @Test
  void aDoubleQuotedNameIsAColumnWhenWrittenAsOneElsewhere() {
    assertEquals(
        "SELECT _col1 FROM _tab1 WHERE _col1 = '_str1'",
        skeleton("SELECT \"name\" FROM singer WHERE name = 'x'"));
  }

  @Test
  void functionsKeywordsAndStarStay() {
    assertEquals(
        "SELECT DISTINCT COUNT(*), AVG(_col1), MAX(DISTINCT _col2) FROM _tab1"
            + " WHERE _col3 LIKE '_str1' AND _col1 BETWEEN 1 AND 1 AND _col4 IS NOT NULL",
        skeleton(
            "select distinct count(*), avg(age), max(distinct height) from singer"
                + " where name like '%a%' and age between 20 and 30 and id is not null"));
  }

  @Test
  void theOpSignatureListsJoinGroupByHavingOrderLimitInOrder() {
    assertEquals(
        "SELECT JOIN GROUPBY HAVING ORDER LIMIT",
        signature(
            "SELECT T1.name, count(*) FROM singer AS T1 JOIN concert AS T2 ON T1.id = T2.sid"
                + " GROUP BY T1.name HAVING count(*) > 1 ORDER BY count(*) DESC LIMIT 1"));
    assertEquals("SELECT", signature("SELECT name FROM singer"));
  }

  @Test
  void theOpSignatureNamesSetOperations() {
    assertEquals("SELECT UNION", signature("SELECT a FROM t UNION SELECT a FROM u"));
    assertEquals("SELECT INTERSECT", signature("SELECT a FROM t INTERSECT SELECT a FROM u"));
    assertEquals("SELECT EXCEPT", signature("SELECT a FROM t EXCEPT SELECT a FROM u"));
    assertEquals(
        "SELECT ORDER UNION INTERSECT EXCEPT",
        signature(
            "SELECT a FROM t UNION SELECT a FROM u INTERSECT SELECT a FROM v"
                + " EXCEPT SELECT a FROM w ORDER BY a"));
  }

  @Test
  void theOpSignatureNamesExistsAndItsSubquery() {
    String sql =
        "SELECT name FROM singer AS S WHERE EXISTS (SELECT 1 FROM concert AS C WHERE C.sid = S.id)";
    assertEquals("SELECT EXISTS SUBQUERY", signature(sql));
    assertEquals(
        "SELECT _col1 FROM _tab1 WHERE EXISTS (SELECT 1 FROM _tab2 WHERE _tab2._col2 ="
            + " _tab1._col3)",
        skeleton(sql));
    assertEquals("SELECT SUBQUERY", signature("SELECT count(*) FROM (SELECT a FROM t)"));
  }

  @Test
  void theOpSignatureNamesCommonTableExpressions() {
    String sql =
        "WITH old AS (SELECT name, age FROM singer WHERE age > 30) SELECT old.name FROM old";
    assertEquals("SELECT CTE", signature(sql));
    assertEquals(
        "WITH _tab1 AS (SELECT _col1, _col2 FROM _tab2 WHERE _col2 > 1) SELECT _tab1._col1 FROM"
            + " _tab1",
        skeleton(sql));
  }

  @Test
  void theOpSignatureNamesWindowFunctions() {
    String sql = "SELECT name, rank() OVER (PARTITION BY country ORDER BY age DESC) FROM singer";
    assertEquals("SELECT WINDOW", signature(sql));
    assertEquals(
        "SELECT _col1, RANK() OVER (PARTITION BY _col2 ORDER BY _col3 DESC) FROM _tab1",
        skeleton(sql));
  }

  @Test
  void theOpSignatureNamesCase() {
    String sql = "SELECT CASE WHEN age > 30 THEN 'old' ELSE 'young' END FROM singer";
    assertEquals("SELECT CASE", signature(sql));
    assertEquals(
        "SELECT CASE WHEN _col1 > 1 THEN '_str1' ELSE '_str2' END FROM _tab1", skeleton(sql));
  }

  @Test
  void aSelfJoinMapsBothAliasesToOnePlaceholder() {
    assertEquals(
        "SELECT _tab1._col1 FROM _tab1 JOIN _tab1 ON _tab1._col2 = _tab1._col3",
        skeleton("SELECT T1.name FROM friend AS T1 JOIN friend AS T2 ON T1.id = T2.friend_id"));
  }

  @Test
  void garbageGivesParseErrorAndAnEmptySkeleton() {
    for (String sql :
        List.of(
            "",
            "SELECT FROM WHERE 'France'",
            "singer France 'France'",
            "DROP TABLE singer",
            "SELECT name FROM singer; SELECT 'France' FROM concert")) {
      Skeleton skeleton = skeletonizer.skeletonize(sql);
      assertTrue(skeleton.failed(), sql);
      assertEquals("", skeleton.sql(), sql);
      assertEquals("PARSE_ERROR", skeleton.opSignature(), sql);
      assertFalse(skeleton.error().contains("France"), skeleton.error());
    }
  }

  @Test
  void aFormWithoutARuleFailsRatherThanPassThrough() {
    Skeleton skeleton = skeletonizer.skeletonize("SELECT TOP 5 name FROM singer");
    assertTrue(skeleton.failed());
    assertEquals("", skeleton.sql());
  }

  @Test
  void theSameInputGivesTheSameSkeleton() {
    String sql =
        "SELECT T2.name, count(*) AS n FROM concert AS T1 JOIN singer AS T2 ON T1.sid = T2.id"
            + " WHERE T1.year = 2014 OR country = 'France' GROUP BY T2.name ORDER BY n LIMIT 3";
    Skeleton first = new Skeletonizer().skeletonize(sql);
    Skeleton second = new Skeletonizer().skeletonize(sql);
    assertEquals(first.toString(), second.toString());
    assertEquals(first.toString(), skeletonizer.skeletonize(sql).toString());
  }

  @Test
  void sqliteOperatorsParseAsTheAnalyserParsesThem() {
    // the analyser's parse: SQLite's ==, which JSqlParser lacks, reads as =
    Skeleton skeleton = new Skeletonizer().skeletonize("SELECT name FROM singer WHERE country == 'France'");
    assertFalse(skeleton.failed(), skeleton.error());
    assertEquals("SELECT _col1 FROM _tab1 WHERE _col2 = '_str1'", skeleton.sql().replaceAll("\\s+", " "));
  }
}

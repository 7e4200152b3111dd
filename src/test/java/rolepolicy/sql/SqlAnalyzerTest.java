package rolepolicy.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class SqlAnalyzerTest {
  private static final SqlAnalyzer ANALYZER = new SqlAnalyzer(TestSchemas.CONCERT_SINGER);

  /** The references as {@code column role agg item}, in walk order. */
  private static List<String> refs(String sql) {
    return ANALYZER.analyse(sql).refs().stream()
        .filter(r -> !r.role().unjudgedInSpec()) // GROUP BY, HAVING, ORDER BY: ClauseReferencesTest
        .map(r -> r.column() + " " + r.role() + " " + r.aggregate().id() + " " + r.selectItem())
        .toList();
  }

  @Test
  void keyInNestedQueryOperandTakesThePredicateRole() {
    assertEquals(
        List.of(
            "stadium.name SelectExpr 0 0",
            "stadium.stadium_id WherePred 0 -1",
            "concert.stadium_id WherePred 0 -1"),
        refs("SELECT name FROM stadium WHERE stadium_id NOT IN (SELECT stadium_id FROM concert)"));
  }

  @Test
  void doubleQuotedTextIsAStringValue() {
    assertEquals(
        List.of("singer.name SelectExpr 0 0", "singer.country WherePred 0 -1"),
        refs("SELECT T1.Name FROM singer AS T1 WHERE T1.Country  =  \"France\""));
    assertEquals(
        List.of("singer.name SelectExpr 0 0", "singer.name WherePred 0 -1"),
        refs("SELECT Name FROM singer WHERE Name IN (\"Bob\", 'Ann') AND \"x\" = \"x\""));
  }

  @Test
  void itemAggregateAppliesToAllItsColumns() {
    assertEquals(
        List.of(
            "singer.price AggArg 5 0",
            "singer.country AggArg 3 2",
            "singer.age AggArg 4 3",
            "singer.price AggArg 4 3",
            "singer.age SelectExpr 0 4",
            "singer.price AggArg 1 4"),
        refs(
            "SELECT avg(DISTINCT T1.Price), count(*), count(DISTINCT Country), sum(Age - Price),"
                + " Age - max(Price) FROM singer AS T1"));
  }

  @Test
  void aggregateInConditionKeepsTheConditionRole() {
    assertEquals(
        List.of(
            "singer.name SelectExpr 0 0", "singer.age WherePred 0 -1", "singer.age WherePred 1 -1"),
        refs("SELECT Name FROM singer WHERE Age = max(Age)"));
    assertEquals(
        List.of(
            "singer.name SelectExpr 0 0", "singer.age WherePred 0 -1", "singer.age AggArg 5 -1"),
        refs("SELECT Name FROM singer WHERE Age > (SELECT avg(Age) FROM singer)"));
  }

  @Test
  void walkOrderIsSelectJoinFromWhereHavingSetOperation() {
    assertEquals(
        List.of(
            "singer.name SelectExpr 0 0",
            "singer.singer_id JoinCond 0 -1",
            "concert.concert_id JoinCond 0 -1",
            "stadium.location SelectExpr 0 -1",
            "singer.age WherePred 0 -1",
            "stadium.capacity AggArg 3 -1",
            "stadium.name SelectExpr 0 -1"),
        refs(
            "SELECT T1.Name FROM singer AS T1 JOIN concert AS T2 ON T1.Singer_ID = T2.concert_ID"
                + " JOIN (SELECT Location FROM stadium) AS T3 WHERE T1.Age > 20 GROUP BY T1.Country"
                + " HAVING count(T1.Age) > (SELECT count(Capacity) FROM stadium) ORDER BY T1.Year"
                + " UNION SELECT Name FROM stadium"));
  }

  @Test
  void setOperationPartsOfAnOperandInheritItsRole() {
    assertEquals(
        List.of(
            "stadium.name SelectExpr 0 0",
            "stadium.stadium_id JoinCond 0 -1",
            "concert.stadium_id JoinCond 0 -1",
            "concert.stadium_id JoinCond 0 -1",
            "singer.singer_id JoinCond 0 -1",
            "concert.stadium_id WherePred 0 -1",
            "concert.stadium_id WherePred 0 -1",
            "stadium.stadium_id WherePred 0 -1"),
        refs(
            "SELECT T1.Name FROM stadium AS T1 JOIN concert AS T2 ON T1.Stadium_ID = T2.Stadium_ID"
                + " AND T2.Stadium_ID IN (SELECT Singer_ID FROM singer) WHERE T2.Stadium_ID IN"
                + " (SELECT Stadium_ID FROM concert EXCEPT SELECT Stadium_ID FROM stadium)"));
  }

  @Test
  void selectStarIsFlaggedAtAnyDepthButCountStarIsNot() {
    assertTrue(ANALYZER.analyse("SELECT * FROM singer").selectStar());
    assertTrue(ANALYZER.analyse("SELECT T1.* FROM singer AS T1").selectStar());
    assertTrue(ANALYZER.analyse("SELECT count(*) FROM (SELECT * FROM singer)").selectStar());
    assertFalse(ANALYZER.analyse("SELECT count(*) FROM singer").selectStar());
    assertEquals(List.of(), refs("SELECT count(*) FROM singer"));
  }

  @Test
  void unqualifiedColumnBelongsToTheFirstFromTableThatHasIt() {
    assertEquals(
        List.of("singer.name SelectExpr 0 0", "concert.year SelectExpr 0 1"),
        refs("SELECT Name, Year FROM concert JOIN singer JOIN stadium"));
  }

  @Test
  void namesResolveCaseInsensitively() {
    assertEquals(List.of("singer.name SelectExpr 0 0"), refs("select t1.NAME from SINGER as t1"));
  }

  @Test
  void aliasesAreScopedToTheirQuery() {
    assertEquals(
        List.of(
            "singer.name SelectExpr 0 0",
            "stadium.stadium_id JoinCond 0 -1",
            "singer.singer_id JoinCond 0 -1",
            "stadium.name SelectExpr 0 -1",
            "concert.stadium_id JoinCond 0 -1",
            "stadium.stadium_id JoinCond 0 -1"),
        refs(
            "SELECT T2.Name FROM stadium AS T1 JOIN singer AS T2 ON T1.Stadium_ID = T2.Singer_ID"
                + " INTERSECT SELECT T2.Name FROM concert AS T1 JOIN stadium AS T2"
                + " ON T1.Stadium_ID = T2.Stadium_ID"));
  }

  @Test
  void correlatedReferenceResolvesInTheEnclosingQuery() {
    assertEquals(
        List.of(
            "singer.name SelectExpr 0 0",
            "concert.concert_id WherePred 0 -1",
            "singer.singer_id WherePred 0 -1"),
        refs(
            "SELECT T1.Name FROM singer AS T1 WHERE EXISTS"
                + " (SELECT 1 FROM concert AS T2 WHERE T2.concert_ID = T1.Singer_ID)"));
  }

  @Test
  void setOperationAndFromTablesAreReported() {
    String sql =
        "SELECT DISTINCT T1.Name ,  count(*) AS n FROM singer AS T1 JOIN concert"
            + " ON T1.Singer_ID = concert.concert_ID GROUP BY T1.Name";
    SqlAnalysis analysis = ANALYZER.analyse(sql);
    assertEquals(
        List.of(new TextTable("singer", "T1", "singer"), new TextTable("concert", null, "concert")),
        analysis.fromTables());
    assertEquals(sql.indexOf(" FROM"), analysis.selectListEnd());
    assertFalse(analysis.setOperation());
    assertTrue(
        ANALYZER.analyse("SELECT Name FROM singer EXCEPT SELECT Name FROM stadium").setOperation());
  }

  @Test
  void spansAreOffsetsOfTheTextAcrossTabsLineBreaksAndUnicode() {
    String sql =
        "SELECT\tT1.Name , \"😀é\" ,\r\n  avg(DISTINCT  T1.Price) AS p\n"
            + "FROM singer AS T1\rWHERE T1.Country = \"Bøb😀\" AND\tT1.`Home Town` = 'x'";
    List<TextRef> refs = ANALYZER.analyse(sql).refs();
    assertEquals(4, refs.size());
    assertEquals("T1.Name", refs.get(0).columnSpan().text(sql));
    assertEquals("T1.Name", refs.get(0).itemSpan().text(sql));
    assertNull(refs.get(0).aggregateSpan());
    assertEquals("T1.Price", refs.get(1).columnSpan().text(sql));
    assertEquals("Price", refs.get(1).nameSpan().text(sql));
    assertEquals("avg(DISTINCT  T1.Price)", refs.get(1).itemSpan().text(sql));
    assertEquals("avg(DISTINCT  T1.Price)", refs.get(1).aggregateSpan().text(sql));
    assertEquals("T1.Country", refs.get(2).columnSpan().text(sql));
    assertNull(refs.get(2).itemSpan());
    assertEquals("singer.home town", refs.get(3).column());
    assertEquals("T1.`Home Town`", refs.get(3).columnSpan().text(sql));
    assertEquals("`Home Town`", refs.get(3).nameSpan().text(sql));
  }

  @Test
  void parseErrorSaysWhere() {
    SqlAnalysisException e =
        assertThrows(
            SqlAnalysisException.class, () -> ANALYZER.analyse("SELECT Name\nFROM singer WHERE"));
    assertTrue(e.getMessage().startsWith("cannot parse SQL at line 2"), e.getMessage());
  }

  @Test
  void onlyOneStatementIsAnalysed() {
    assertEquals(List.of("singer.name SelectExpr 0 0"), refs("SELECT Name FROM singer ;  "));
    assertEquals(
        "more than one statement: text goes on at line 1, column 26 (offset 25)",
        assertThrows(
                SqlAnalysisException.class,
                () -> ANALYZER.analyse("SELECT Name FROM singer; SELECT Age FROM singer"))
            .getMessage());
    assertEquals(
        "empty SQL text",
        assertThrows(SqlAnalysisException.class, () -> ANALYZER.analyse(" ")).getMessage());
  }

  @Test
  void unresolvedNamesAreNamed() {
    assertEquals(
        "unknown table singers (not in concert_singer)",
        assertThrows(SqlAnalysisException.class, () -> ANALYZER.analyse("SELECT Name FROM singers"))
            .getMessage());
    assertEquals(
        "cannot resolve column T1.Nme at offset 7: table singer has no column Nme",
        assertThrows(
                SqlAnalysisException.class,
                () -> ANALYZER.analyse("SELECT T1.Nme FROM singer AS T1"))
            .getMessage());
    assertEquals(
        "cannot resolve column T9.Name at offset 7: no table or alias T9 in FROM",
        assertThrows(
                SqlAnalysisException.class,
                () -> ANALYZER.analyse("SELECT T9.Name FROM singer AS T1"))
            .getMessage());
    assertEquals(
        "cannot resolve column Capacity at offset 7: no table in FROM has a column Capacity",
        assertThrows(
                SqlAnalysisException.class, () -> ANALYZER.analyse("SELECT Capacity FROM singer"))
            .getMessage());
  }

  @Test
  void errorsQuoteAShortExcerptNotTheWholeQuery() {
    String longList = "'[" + "1, ".repeat(200) + "2]'";
    String message =
        assertThrows(
                SqlAnalysisException.class,
                () -> ANALYZER.analyse("SELECT value FROM json_each(" + longList + ")"))
            .getMessage();
    assertEquals(
        "unsupported FROM item: json_each('[1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, …",
        message);
    assertEquals(
        "an alias on a parenthesised join is not supported: (singer AS T1 JOIN concert AS T2 ON"
            + " T1.Singer_ID = T2.concer…",
        assertThrows(
                SqlAnalysisException.class,
                () ->
                    ANALYZER.analyse(
                        "SELECT Name FROM (singer AS T1 JOIN concert AS T2 ON T1.Singer_ID ="
                            + " T2.concert_ID\n\n   JOIN stadium AS T3 ON T2.Stadium_ID ="
                            + " T3.Stadium_ID) AS j"))
            .getMessage());
    assertEquals("short text", SqlAnalysisException.excerpt("  short\n\ttext "));
  }

  // BIRD's SQLite (docs/decisions.md, "BIRD and KaggleDBQA SQL")

  private static final SqlAnalyzer SCHOOLS = new SqlAnalyzer(TestSchemas.SCHOOLS);

  private static List<String> schoolRefs(String sql) {
    return SCHOOLS.analyse(sql).refs().stream()
        .filter(r -> !r.role().unjudgedInSpec()) // GROUP BY, HAVING, ORDER BY: ClauseReferencesTest
        .map(r -> r.column() + " " + r.role() + " " + r.aggregate().id() + " " + r.selectItem())
        .toList();
  }

  @Test
  void backquotedDoubleQuotedAndBracketedNamesWithSpacesAndParentheses() {
    String sql =
        "SELECT `Free Meal Count (K-12)` / \"Enrollment (K-12)\", T.[County Name] FROM \"frpm\" AS T"
            + " WHERE T.`Percent (%) Eligible FRPM (K-12)` > 0.5";
    assertEquals(
        List.of(
            "frpm.free meal count (k-12) SelectExpr 0 0",
            "frpm.enrollment (k-12) SelectExpr 0 0",
            "frpm.county name SelectExpr 0 1",
            "frpm.percent (%) eligible frpm (k-12) WherePred 0 -1"),
        schoolRefs(sql));
    List<TextRef> refs = SCHOOLS.analyse(sql).refs();
    assertEquals("\"Enrollment (K-12)\"", refs.get(1).nameSpan().text(sql));
    assertEquals("T.[County Name]", refs.get(2).columnSpan().text(sql));
    assertEquals("`Percent (%) Eligible FRPM (K-12)`", refs.get(3).nameSpan().text(sql));
    assertEquals("\"frpm\"", SCHOOLS.analyse(sql).fromTables().get(0).table());
  }

  @Test
  void arithmeticOnCastAggregatesGivesEachColumnItsOwnAggregate() {
    String sql =
        "SELECT CAST(SUM(T1.`Free Meal Count (K-12)`) AS REAL) * 100 / COUNT(T2.CDSCode)"
            + " FROM frpm AS T1 INNER JOIN schools AS T2 ON T1.CDSCode = T2.CDSCode";
    assertEquals(
        List.of(
            "frpm.free meal count (k-12) AggArg 4 0",
            "schools.cdscode AggArg 3 0",
            "frpm.cdscode JoinCond 0 -1",
            "schools.cdscode JoinCond 0 -1"),
        schoolRefs(sql));
    List<TextRef> refs = SCHOOLS.analyse(sql).refs();
    assertEquals("SUM(T1.`Free Meal Count (K-12)`)", refs.get(0).aggregateSpan().text(sql));
    assertEquals("COUNT(T2.CDSCode)", refs.get(1).aggregateSpan().text(sql));
    assertEquals(
        "CAST(SUM(T1.`Free Meal Count (K-12)`) AS REAL) * 100 / COUNT(T2.CDSCode)",
        refs.get(1).itemSpan().text(sql));
  }

  @Test
  void conditionalAggregationPutsTheConditionsColumnsUnderTheAggregate() {
    assertEquals(
        List.of(
            "schools.county AggArg 4 0",
            "schools.virtual AggArg 3 1",
            "schools.school AggArg 3 1",
            "schools.opendate AggArg 5 2"),
        schoolRefs(
            "SELECT SUM(CASE WHEN County = 'Alameda' THEN 1 ELSE 0 END),"
                + " COUNT(IIF(Virtual = 'F', School, NULL)),"
                + " AVG(CASE WHEN OpenDate IS NULL THEN 0 ELSE 1 END) FROM schools"));
  }

  @Test
  void anAggregateInsideCaseOrIifIsThatAggregateAndTheRestIsSelected() {
    assertEquals(
        List.of(
            "satscores.avgscrmath AggArg 4 0",
            "satscores.cds SelectExpr 0 0",
            "satscores.avgscrmath AggArg 5 1",
            "satscores.numtsttakr AggArg 5 1"),
        schoolRefs(
            "SELECT CASE WHEN SUM(AvgScrMath) > 100 THEN 'high' ELSE cds END,"
                + " IIF(AVG(AvgScrMath) > AVG(NumTstTakr), 'a', 'b') FROM satscores GROUP BY cds"));
  }

  @Test
  void caseAndIifConditionsInASelectItemTakeTheItemsRole() {
    assertEquals(
        List.of(
            "schools.virtual SelectExpr 0 0",
            "frpm.school name SelectExpr 0 0",
            "schools.county SelectExpr 0 1",
            "frpm.cdscode JoinCond 0 -1",
            "schools.cdscode JoinCond 0 -1",
            "schools.phone WherePred 0 -1"),
        schoolRefs(
            "SELECT CASE WHEN T2.Virtual = 'F' THEN T1.`School Name` END,"
                + " IIF(T2.County IS NULL, 'none', 'some') FROM frpm AS T1 INNER JOIN schools AS T2"
                + " ON T1.CDSCode = T2.CDSCode WHERE CASE WHEN T2.Phone IS NULL THEN 0 ELSE 1 END = 1"));
  }

  @Test
  void scalarFunctionsAndNullTestsKeepTheColumnsRole() {
    assertEquals(
        List.of(
            "schools.phone SelectExpr 0 0",
            "schools.opendate SelectExpr 0 1",
            "schools.opendate SelectExpr 0 2",
            "schools.school SelectExpr 0 3",
            "schools.opendate WherePred 0 -1",
            "schools.county WherePred 0 -1",
            "schools.phone WherePred 0 -1",
            "schools.virtual WherePred 0 -1"),
        schoolRefs(
            "SELECT SUBSTR(Phone, 1, 3), STRFTIME('%Y', OpenDate),"
                + " JULIANDAY(OpenDate) - JULIANDAY('2000-01-01'), INSTR(School, ' ') FROM schools"
                + " WHERE STRFTIME('%Y', OpenDate) = '1990' AND SUBSTR(County, 1, 1) = 'A'"
                + " AND Phone IS NOT NULL AND Virtual IS NULL"));
  }

  @Test
  void limitWithOffsetOrTwoNumbersJudgesNothingOfItsOwn() {
    String nested =
        " FROM schools AS T1 JOIN satscores AS T2 ON T1.CDSCode = T2.cds WHERE T2.AvgScrMath ="
            + " (SELECT AvgScrMath FROM satscores ORDER BY AvgScrMath DESC LIMIT 1, 1)";
    List<String> expected =
        List.of(
            "schools.school SelectExpr 0 0",
            "schools.cdscode JoinCond 0 -1",
            "satscores.cds JoinCond 0 -1",
            "satscores.avgscrmath WherePred 0 -1",
            "satscores.avgscrmath WherePred 0 -1");
    assertEquals(expected, schoolRefs("SELECT T1.School" + nested + " LIMIT 3 OFFSET 2"));
    assertEquals(expected, schoolRefs("SELECT T1.School" + nested + " LIMIT 2, 3"));
    assertEquals(
        List.of(
            "schools.school SelectExpr 0 0",
            "schools.cdscode WherePred 0 -1",
            "satscores.cds WherePred 0 -1"),
        schoolRefs(
            "SELECT School FROM schools WHERE CDSCode IN (SELECT cds FROM satscores LIMIT 1 OFFSET"
                + " 1) LIMIT 9, 2"));
  }

  @Test
  void aDerivedTableWithAWindowIsReadByName() {
    assertEquals(
        List.of(
            "schools.school SelectExpr 0 -1",
            "satscores.cds JoinCond 0 -1",
            "schools.cdscode JoinCond 0 -1",
            "schools.virtual WherePred 0 -1"),
        schoolRefs(
            "SELECT School FROM (SELECT T2.School, RANK() OVER (PARTITION BY T2.County ORDER BY"
                + " T1.AvgScrMath DESC) AS rnk FROM satscores AS T1 INNER JOIN schools AS T2 ON"
                + " T1.cds = T2.CDSCode WHERE T2.Virtual = 'F') ranked_schools WHERE rnk <= 5"));
  }
}

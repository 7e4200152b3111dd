package rolepolicy.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.sqlite.SQLiteConfig;
import rolepolicy.TestData;

/**
 * SQL as Text-to-SQL models write it, beyond Spider's grammar, on Spider's real concert_singer
 * schema: each construct's exact references ({@code column role agg item}, in walk order), and
 * every query here runs in SQLite on the real database, so the test SQL is real SQLite.
 */
class SqlAnalyzerModelSqlTest {
  private static final String DB = "concert_singer";

  /** Every query constant below, registered as the class initialises; each must run in SQLite. */
  private static final List<String> RUNNABLE = new ArrayList<>();

  private static String sql(String text) {
    RUNNABLE.add(text);
    return text;
  }

  private static SqlAnalyzer analyzer() {
    return new SqlAnalyzer(TestData.schemas().get(DB));
  }

  private static List<String> refs(String sql) {
    return analyzer().analyse(sql).refs().stream()
        .filter(r -> !r.role().unjudgedInSpec()) // GROUP BY, HAVING, ORDER BY: ClauseReferencesTest
        .map(r -> r.column() + " " + r.role() + " " + r.aggregate().id() + " " + r.selectItem())
        .toList();
  }

  private static String error(String sql) {
    return assertThrows(SqlAnalysisException.class, () -> analyzer().analyse(sql)).getMessage();
  }

  // Common table expressions

  private static final String CTE =
      sql(
          "WITH big AS (SELECT Stadium_ID, Name FROM stadium WHERE Capacity > 5000)"
              + " SELECT T1.concert_Name, big.Name FROM concert AS T1"
              + " JOIN big ON T1.Stadium_ID = big.Stadium_ID");

  @Test
  void commonTableBodyIsWalkedFirstLikeAFromSubquery() {
    assertEquals(
        List.of(
            "stadium.stadium_id SelectExpr 0 -1",
            "stadium.name SelectExpr 0 -1",
            "stadium.capacity WherePred 0 -1",
            "concert.concert_name SelectExpr 0 0",
            "concert.stadium_id JoinCond 0 -1"),
        refs(CTE));
    SqlAnalysis analysis = analyzer().analyse(CTE);
    assertEquals(List.of(new TextTable("concert", "T1", "concert")), analysis.fromTables());
    assertFalse(analysis.setOperation());
    assertFalse(analysis.selectStar());
  }

  private static final String CTES_WITH_COLUMN_LISTS =
      sql(
          "WITH counts(sid, n) AS (SELECT Stadium_ID, count(*) FROM concert GROUP BY Stadium_ID),"
              + " busy AS (SELECT sid FROM counts WHERE n >= 1)"
              + " SELECT s.Name FROM stadium AS s WHERE s.Stadium_ID IN (SELECT sid FROM busy)");

  @Test
  void severalCommonTablesWithColumnListsReadingEachOther() {
    assertEquals(
        List.of(
            "concert.stadium_id SelectExpr 0 -1",
            "stadium.name SelectExpr 0 0",
            "stadium.stadium_id WherePred 0 -1"),
        refs(CTES_WITH_COLUMN_LISTS));
  }

  private static final String RECURSIVE_CTE =
      sql(
          "WITH RECURSIVE years(y) AS (SELECT CAST(min(Year) AS INTEGER) FROM concert"
              + " UNION ALL SELECT y + 1 FROM years WHERE y < 2015) SELECT y FROM years");

  @Test
  void recursiveCommonTableReadsItself() {
    assertEquals(List.of("concert.year AggArg 2 -1"), refs(RECURSIVE_CTE));
  }

  private static final String CTE_NAMED_LIKE_A_TABLE =
      sql("WITH singer AS (SELECT Theme AS Name FROM concert) SELECT Name FROM singer");

  @Test
  void commonTableHidesTheSchemaTableOfItsName() {
    assertEquals(List.of("concert.theme SelectExpr 0 -1"), refs(CTE_NAMED_LIKE_A_TABLE));
  }

  private static final String CTE_ON_A_SET_OPERATION =
      sql(
          "WITH young AS (SELECT Name FROM singer WHERE Age < 30)"
              + " SELECT Name FROM young UNION SELECT Name FROM stadium");

  @Test
  void commonTableOfASetOperation() {
    assertEquals(
        List.of(
            "singer.name SelectExpr 0 -1",
            "singer.age WherePred 0 -1",
            "stadium.name SelectExpr 0 -1"),
        refs(CTE_ON_A_SET_OPERATION));
    assertTrue(analyzer().analyse(CTE_ON_A_SET_OPERATION).setOperation());
  }

  private static final String CTE_INSIDE_A_SUBQUERY =
      sql(
          "SELECT Name FROM (WITH q AS (SELECT Name, Age FROM singer) SELECT Name FROM q"
              + " WHERE Age > 30)");

  @Test
  void commonTableInsideANestedQueryIsWalkedOnce() {
    assertEquals(
        List.of("singer.name SelectExpr 0 -1", "singer.age SelectExpr 0 -1"),
        refs(CTE_INSIDE_A_SUBQUERY));
  }

  @Test
  void editsWorkOnAQueryWithCommonTables() {
    SqlAnalysis analysis = analyzer().analyse(CTE);
    TextRef concertName = analysis.refs().get(3);
    assertTrue(
        SqlEdits.wrapItem(CTE, concertName, "AVG")
            .contains("SELECT AVG(T1.concert_Name), big.Name FROM"));
    String appended =
        SqlEdits.appendSelectItem(CTE, analysis, analysis.fromTables().get(0), "Theme");
    assertEquals("concert.theme SelectExpr 0 2", refs(appended).get(4));
  }

  // Output columns of derived tables and common tables

  private static final String DERIVED_COLUMNS =
      sql(
          "SELECT t.cnt, t.Country FROM (SELECT Country, count(*) AS cnt FROM singer"
              + " GROUP BY Country) AS t WHERE t.cnt > 1 ORDER BY t.cnt DESC");
  private static final String UNQUALIFIED_DERIVED_COLUMN =
      sql(
          "SELECT max(cnt) FROM (SELECT count(*) AS cnt FROM singer_in_concert"
              + " GROUP BY Singer_ID)");

  @Test
  void outputColumnsOfADerivedTableAreNoReferences() {
    assertEquals(List.of("singer.country SelectExpr 0 -1"), refs(DERIVED_COLUMNS));
    assertEquals(List.of(), refs(UNQUALIFIED_DERIVED_COLUMN));
  }

  private static final String DERIVED_THEN_TABLE =
      sql("SELECT t.Singer_ID, Theme FROM (SELECT Singer_ID FROM singer) AS t JOIN concert");

  @Test
  void columnNotInADerivedTableBelongsToTheNextTableThatHasIt() {
    assertEquals(
        List.of("concert.theme SelectExpr 0 1", "singer.singer_id SelectExpr 0 -1"),
        refs(DERIVED_THEN_TABLE));
  }

  private static final String DERIVED_STAR = sql("SELECT t.Name FROM (SELECT * FROM singer) AS t");

  @Test
  void derivedTableOfStarHasItsTablesColumns() {
    assertEquals(List.of(), refs(DERIVED_STAR));
    assertTrue(analyzer().analyse(DERIVED_STAR).selectStar());
  }

  // Joins

  private static final String USING =
      sql(
          "SELECT T1.Name, count(*) FROM singer AS T1 JOIN singer_in_concert USING (Singer_ID)"
              + " GROUP BY T1.Name");
  private static final String USING_TWICE =
      sql(
          "SELECT concert_Name FROM concert JOIN singer_in_concert USING (concert_ID)"
              + " JOIN singer USING (Singer_ID)");

  @Test
  void joinUsingGivesBothSidesJoinCond() {
    assertEquals(
        List.of(
            "singer.name SelectExpr 0 0",
            "singer.singer_id JoinCond 0 -1",
            "singer_in_concert.singer_id JoinCond 0 -1"),
        refs(USING));
    assertEquals(
        List.of(
            "concert.concert_name SelectExpr 0 0",
            "concert.concert_id JoinCond 0 -1",
            "singer_in_concert.concert_id JoinCond 0 -1",
            "singer_in_concert.singer_id JoinCond 0 -1",
            "singer.singer_id JoinCond 0 -1"),
        refs(USING_TWICE));
    List<TextRef> refs = analyzer().analyse(USING).refs();
    assertEquals("Singer_ID", refs.get(1).columnSpan().text(USING));
    assertEquals("T1", refs.get(1).qualifier());
    assertEquals("singer_in_concert", refs.get(2).qualifier());
  }

  private static final String NATURAL = sql("SELECT Theme FROM concert NATURAL JOIN stadium");

  @Test
  void naturalJoinGivesTheSharedColumnsJoinCond() {
    assertEquals(
        List.of(
            "concert.theme SelectExpr 0 0",
            "concert.stadium_id JoinCond 0 -1",
            "stadium.stadium_id JoinCond 0 -1"),
        refs(NATURAL));
  }

  private static final String OUTER_JOINS =
      sql(
          "SELECT T1.Name, T2.Year FROM singer AS T1 LEFT JOIN singer_in_concert AS T3"
              + " ON T1.Singer_ID = T3.Singer_ID LEFT OUTER JOIN concert AS T2"
              + " ON T3.concert_ID = T2.concert_ID RIGHT JOIN stadium AS T4"
              + " ON T4.Stadium_ID = T2.Stadium_ID CROSS JOIN singer AS T5 WHERE T4.Capacity > 0");
  private static final String FULL_AND_INNER_JOINS =
      sql(
          "SELECT T1.Name FROM stadium AS T1 FULL OUTER JOIN concert AS T2"
              + " ON T1.Stadium_ID = T2.Stadium_ID INNER JOIN singer");
  private static final String COMMA_JOIN =
      sql(
          "SELECT T1.Name FROM singer AS T1, singer_in_concert AS T2"
              + " WHERE T1.Singer_ID = T2.Singer_ID");

  @Test
  void outerCrossInnerAndCommaJoins() {
    assertEquals(
        List.of(
            "singer.name SelectExpr 0 0",
            "concert.year SelectExpr 0 1",
            "singer.singer_id JoinCond 0 -1",
            "singer_in_concert.singer_id JoinCond 0 -1",
            "singer_in_concert.concert_id JoinCond 0 -1",
            "concert.concert_id JoinCond 0 -1",
            "stadium.stadium_id JoinCond 0 -1",
            "concert.stadium_id JoinCond 0 -1",
            "stadium.capacity WherePred 0 -1"),
        refs(OUTER_JOINS));
    assertEquals(
        List.of(
            "stadium.name SelectExpr 0 0",
            "stadium.stadium_id JoinCond 0 -1",
            "concert.stadium_id JoinCond 0 -1"),
        refs(FULL_AND_INNER_JOINS));
    assertEquals(
        List.of(
            "singer.name SelectExpr 0 0",
            "singer.singer_id WherePred 0 -1",
            "singer_in_concert.singer_id WherePred 0 -1"),
        refs(COMMA_JOIN));
  }

  private static final String PARENTHESISED_JOIN =
      sql(
          "SELECT T1.Name FROM (singer AS T1 JOIN singer_in_concert AS T2"
              + " ON T1.Singer_ID = T2.Singer_ID) JOIN concert AS T3"
              + " ON T2.concert_ID = T3.concert_ID");

  @Test
  void parenthesisedJoinIsFlattened() {
    assertEquals(
        List.of(
            "singer.name SelectExpr 0 0",
            "singer.singer_id JoinCond 0 -1",
            "singer_in_concert.singer_id JoinCond 0 -1",
            "singer_in_concert.concert_id JoinCond 0 -1",
            "concert.concert_id JoinCond 0 -1"),
        refs(PARENTHESISED_JOIN));
  }

  // Expressions

  private static final String CASE =
      sql(
          "SELECT Name, CASE WHEN Age > 40 THEN 'senior' ELSE 'junior' END AS band,"
              + " sum(CASE WHEN Is_male = 'T' THEN 1 ELSE 0 END) FROM singer GROUP BY Name");

  @Test
  void caseConditionsInASelectItemTakeTheItemsRole() {
    assertEquals(
        List.of(
            "singer.name SelectExpr 0 0", "singer.age SelectExpr 0 1", "singer.is_male AggArg 4 2"),
        refs(CASE));
  }

  private static final String FUNCTIONS =
      sql(
          "SELECT upper(Name), round(avg(Age), 1), count(DISTINCT Country), max(Age, 30),"
              + " length(Song_Name) FROM singer WHERE substr(Song_release_year, 1, 2) = '20'");

  @Test
  void scalarFunctionsKeepTheColumnsRoleAndTwoArgumentMaxIsScalar() {
    assertEquals(
        List.of(
            "singer.name SelectExpr 0 0",
            "singer.age AggArg 5 1",
            "singer.country AggArg 3 2",
            "singer.age SelectExpr 0 3",
            "singer.song_name SelectExpr 0 4",
            "singer.song_release_year WherePred 0 -1"),
        refs(FUNCTIONS));
  }

  private static final String OTHER_AGGREGATES =
      sql("SELECT group_concat(Name, ', '), total(Age) FROM singer");

  @Test
  void aggregatesBeyondSpidersFiveAreNotAggregates() {
    assertEquals(
        List.of("singer.name SelectExpr 0 0", "singer.age SelectExpr 0 1"), refs(OTHER_AGGREGATES));
  }

  private static final String EXISTS =
      sql(
          "SELECT Name FROM stadium AS T1 WHERE EXISTS (SELECT 1 FROM concert AS T2"
              + " WHERE T2.Stadium_ID = T1.Stadium_ID AND T2.Year = '2014')"
              + " AND NOT EXISTS (SELECT T3.Theme FROM concert AS T3"
              + " WHERE T3.Stadium_ID = T1.Stadium_ID AND T3.Year = '1900')");

  @Test
  void existsSubqueryTakesThePredicateRole() {
    assertEquals(
        List.of(
            "stadium.name SelectExpr 0 0",
            "concert.stadium_id WherePred 0 -1",
            "stadium.stadium_id WherePred 0 -1",
            "concert.year WherePred 0 -1",
            "concert.theme WherePred 0 -1",
            "concert.stadium_id WherePred 0 -1",
            "stadium.stadium_id WherePred 0 -1",
            "concert.year WherePred 0 -1"),
        refs(EXISTS));
  }

  private static final String OPERATORS =
      sql(
          "SELECT Name || ' (' || Country || ')' FROM singer"
              + " WHERE Country IN ('France', 'Netherlands') AND Song_Name IS NOT NULL"
              + " AND Name LIKE '%a%' AND Song_Name GLOB '*e*'"
              + " AND CAST(Song_release_year AS INTEGER) > 2000 AND Age BETWEEN 20 AND 60");

  @Test
  void inListIsNullLikeGlobCastAndConcatenation() {
    assertEquals(
        List.of(
            "singer.name SelectExpr 0 0",
            "singer.country SelectExpr 0 0",
            "singer.country WherePred 0 -1",
            "singer.song_name WherePred 0 -1",
            "singer.name WherePred 0 -1",
            "singer.song_name WherePred 0 -1",
            "singer.song_release_year WherePred 0 -1",
            "singer.age WherePred 0 -1"),
        refs(OPERATORS));
    assertEquals(
        List.of(
            "Name",
            "Country",
            "Country",
            "Song_Name",
            "Name",
            "Song_Name",
            "Song_release_year",
            "Age"),
        analyzer().analyse(OPERATORS).refs().stream()
            .map(r -> r.columnSpan().text(OPERATORS))
            .toList());
  }

  private static final String SQLITE_OPERATORS =
      sql(
          "SELECT Name FROM singer WHERE Country == 'France' AND Song_Name IS NOT Name"
              + " AND Age IS 52 AND Song_release_year NOT NULL AND Is_male Is  Not 'T'");

  @Test
  void sqliteOnlyOperatorsParseAndKeepTheTextsOffsets() {
    assertEquals(
        List.of(
            "singer.name SelectExpr 0 0",
            "singer.country WherePred 0 -1",
            "singer.song_name WherePred 0 -1",
            "singer.name WherePred 0 -1",
            "singer.age WherePred 0 -1",
            "singer.song_release_year WherePred 0 -1",
            "singer.is_male WherePred 0 -1"),
        refs(SQLITE_OPERATORS));
    assertEquals(
        List.of("Name", "Country", "Song_Name", "Name", "Age", "Song_release_year", "Is_male"),
        analyzer().analyse(SQLITE_OPERATORS).refs().stream()
            .map(r -> r.columnSpan().text(SQLITE_OPERATORS))
            .toList());
  }

  private static final String WINDOWS =
      sql(
          "SELECT Name, rank() OVER (PARTITION BY Country ORDER BY Age DESC),"
              + " avg(Age) OVER (PARTITION BY Country),"
              + " count(*) FILTER (WHERE Is_male = 'T') OVER (),"
              + " lag(Song_Name) OVER (ORDER BY Song_release_year) FROM singer");

  @Test
  void windowAggregateStaysThatAggregateAndOverIsNotJudged() {
    assertEquals(
        List.of(
            "singer.name SelectExpr 0 0",
            "singer.age AggArg 5 2",
            "singer.is_male AggArg 3 3",
            "singer.song_name SelectExpr 0 4"),
        refs(WINDOWS));
  }

  private static final String FILTER =
      sql("SELECT sum(Age) FILTER (WHERE Country = 'France') FROM singer");

  @Test
  void filterClauseIsUnderItsAggregate() {
    assertEquals(List.of("singer.age AggArg 4 0", "singer.country AggArg 4 0"), refs(FILTER));
    assertEquals(
        "sum(Age) FILTER (WHERE Country = 'France')",
        analyzer().analyse(FILTER).refs().get(0).aggregateSpan().text(FILTER));
  }

  private static final String NAMED_WINDOW =
      sql("SELECT Name, row_number() OVER w FROM singer WINDOW w AS (ORDER BY Age)");

  @Test
  void namedWindowIsNotJudged() {
    assertEquals(List.of("singer.name SelectExpr 0 0"), refs(NAMED_WINDOW));
  }

  private static final String DISTINCT_LIMIT_OFFSET =
      sql(
          "SELECT DISTINCT Country, count(*) AS n FROM singer GROUP BY Country HAVING n > 1"
              + " ORDER BY n DESC LIMIT 3 OFFSET 1");

  @Test
  void distinctLimitOffsetAndAliasesInHavingAndOrderBy() {
    assertEquals(List.of("singer.country SelectExpr 0 0"), refs(DISTINCT_LIMIT_OFFSET));
  }

  private static final String NESTED_OFFSET =
      sql(
          "SELECT Name FROM singer ORDER BY Age LIMIT 1"
              + " OFFSET (SELECT count(Age) FROM singer) / 2");

  @Test
  void nestedQueryInLimitOrOffsetIsWalkedAsAPredicateOperand() {
    assertEquals(
        List.of("singer.name SelectExpr 0 0", "singer.age AggArg 3 -1"), refs(NESTED_OFFSET));
  }

  private static final String ALIAS_IN_WHERE =
      sql("SELECT Name, Age * 2 AS doubled FROM singer WHERE doubled > 80");

  private static final String ALIAS_IN_ON_AND_NESTED_WHERE =
      sql(
          "SELECT Name, Age * 2 AS doubled FROM singer AS T1 JOIN singer_in_concert AS T2"
              + " ON T1.Singer_ID = T2.Singer_ID AND doubled > 0"
              + " WHERE EXISTS (SELECT 1 WHERE doubled > 80)");

  @Test
  void aliasInWhereOrOnStandsForItsExpression() {
    assertEquals(
        List.of(
            "singer.name SelectExpr 0 0", "singer.age SelectExpr 0 1", "singer.age WherePred 0 -1"),
        refs(ALIAS_IN_WHERE));
    assertEquals(
        List.of(
            "singer.name SelectExpr 0 0",
            "singer.age SelectExpr 0 1",
            "singer.singer_id JoinCond 0 -1",
            "singer_in_concert.singer_id JoinCond 0 -1",
            "singer.age JoinCond 0 -1",
            "singer.age WherePred 0 -1"),
        refs(ALIAS_IN_ON_AND_NESTED_WHERE));
  }

  private static final String QUOTED =
      sql(
          "SELECT \"Name\", `Country`, [Age] FROM singer AS \"s\""
              + " WHERE \"Country\" = \"France\" AND s.\"Song_Name\" <> \"Name\"");

  @Test
  void quotedIdentifiersAndDoubleQuotedStrings() {
    assertEquals(
        List.of(
            "singer.name SelectExpr 0 0",
            "singer.country SelectExpr 0 1",
            "singer.age SelectExpr 0 2",
            "singer.country WherePred 0 -1",
            "singer.song_name WherePred 0 -1",
            "singer.name WherePred 0 -1"),
        refs(QUOTED));
  }

  private static final String ROW_ID =
      sql("SELECT rowid, Name FROM singer AS T1 WHERE T1.rowid = 1");

  @Test
  void rowIdIsNoReference() {
    assertEquals(List.of("singer.name SelectExpr 0 1"), refs(ROW_ID));
  }

  // The ORDER BY flag

  private static final String ORDERED = sql("SELECT Name FROM singer ORDER BY Age");
  private static final String ORDERED_UNION =
      sql("SELECT Name FROM singer UNION SELECT Name FROM stadium ORDER BY Name");
  private static final String ORDERED_CTE =
      sql("WITH t AS (SELECT Name FROM singer ORDER BY Age LIMIT 2) SELECT Name FROM t");
  private static final String ORDERED_WINDOW = sql("SELECT rank() OVER (ORDER BY Age) FROM singer");
  private static final String ORDERED_SUBQUERY =
      sql("SELECT Name FROM (SELECT Name FROM singer ORDER BY Age)");

  @Test
  void orderByIsTheTopLevelQuerysOrItsSetOperations() {
    assertTrue(analyzer().analyse(ORDERED).orderBy());
    assertTrue(analyzer().analyse(ORDERED_UNION).orderBy());
    assertTrue(analyzer().analyse(DERIVED_COLUMNS).orderBy());
    assertTrue(analyzer().analyse(DISTINCT_LIMIT_OFFSET).orderBy());
    assertFalse(analyzer().analyse(ORDERED_CTE).orderBy());
    assertFalse(analyzer().analyse(ORDERED_WINDOW).orderBy());
    assertFalse(analyzer().analyse(ORDERED_SUBQUERY).orderBy());
    assertFalse(analyzer().analyse(CTE).orderBy());
  }

  // Errors

  @Test
  void unparseableOrUnresolvableTextSaysWhatAndWhere() {
    assertTrue(
        error("SELECT Name FROM singer WHERE Age >").startsWith("cannot parse SQL at line 1"));
    assertEquals(
        "cannot resolve column t.Age at offset 7: derived table t has no column Age",
        error("SELECT t.Age FROM (SELECT Name FROM singer) AS t"));
    assertEquals(
        "cannot resolve column Nme at offset 43: no table in FROM has a column Nme",
        error("WITH t AS (SELECT Name FROM singer) SELECT Nme FROM t"));
    assertEquals(
        "cannot resolve USING column Theme at offset 44: no table before the JOIN has it",
        error("SELECT Name FROM singer JOIN concert USING (Theme)"));
    assertEquals(
        "cannot resolve USING column Age at offset 44: the joined table has no such column",
        error("SELECT Name FROM singer JOIN concert USING (Age)"));
    assertEquals(
        "WITH t names 2 columns but its query has 1",
        error("WITH t(a, b) AS (SELECT Name FROM singer) SELECT a FROM t"));
  }

  @Test
  void unsupportedFormsAreRejectedByName() {
    assertEquals("unsupported query form: Values", error("VALUES (1)"));
    assertEquals(
        "unsupported FROM item: json_each('[1]')", error("SELECT value FROM json_each('[1]')"));
    assertTrue(
        error("SELECT rank() OVER (ORDER BY (SELECT max(Age) FROM singer)) FROM singer")
            .startsWith("a nested query in a window's PARTITION BY or ORDER BY is not supported"));
  }

  @Test
  void everyQueryHereRunsInSqliteOnTheRealDatabase() throws SQLException {
    Path file = TestData.spiderDir().resolve("database").resolve(DB).resolve(DB + ".sqlite");
    assertTrue(Files.isRegularFile(file), "no database at " + file);
    SQLiteConfig config = new SQLiteConfig();
    config.setReadOnly(true);
    List<String> failed = new ArrayList<>();
    try (Connection connection = config.createConnection("jdbc:sqlite:" + file);
        Statement statement = connection.createStatement()) {
      for (String sql : RUNNABLE) {
        try (ResultSet rows = statement.executeQuery(sql)) {
          while (rows.next()) {
            // step through every row: some errors show only while stepping
          }
        } catch (SQLException e) {
          failed.add(sql + "\n    " + e.getMessage());
        }
      }
    }
    assertEquals(37, RUNNABLE.size());
    assertEquals(List.of(), failed);
  }
}

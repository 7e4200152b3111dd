package rolepolicy.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class SqlEditsTest {
  private static final SqlAnalyzer ANALYZER = new SqlAnalyzer(TestSchemas.CONCERT_SINGER);

  private static TextRef ref(String sql, int index) {
    return ANALYZER.analyse(sql).refs().get(index);
  }

  private static List<String> refs(String sql) {
    return ANALYZER.analyse(sql).refs().stream()
        .filter(r -> !r.role().unjudgedInSpec()) // GROUP BY, HAVING, ORDER BY: ClauseReferencesTest
        .map(TextRef::toString).toList();
  }

  @Test
  void replaceColumnKeepsTheQualifier() {
    String sql = "SELECT T1.Name FROM singer AS T1 WHERE T1.Country  =  \"France\"";
    String edited = SqlEdits.replaceColumn(sql, ref(sql, 0), "Singer_ID");
    assertEquals("SELECT T1.Singer_ID FROM singer AS T1 WHERE T1.Country  =  \"France\"", edited);
    assertEquals(
        List.of("singer.singer_id SelectExpr item=0", "singer.country WherePred"), refs(edited));
  }

  @Test
  void replaceColumnQualifiesAnUnqualifiedReference() {
    String sql = "SELECT Name ,  Age FROM singer";
    assertEquals(
        "SELECT Name ,  singer.Email FROM singer",
        SqlEdits.replaceColumn(sql, ref(sql, 1), "Email"));
    String join = "SELECT Country FROM concert AS T1 JOIN singer AS T2";
    String edited = SqlEdits.replaceColumn(join, ref(join, 0), "Year");
    assertEquals("SELECT T2.Year FROM concert AS T1 JOIN singer AS T2", edited);
    assertEquals(List.of("singer.year SelectExpr item=0"), refs(edited));
  }

  @Test
  void replaceColumnQuotesAnAwkwardName() {
    String sql = "SELECT T1.Name FROM singer AS T1";
    String edited = SqlEdits.replaceColumn(sql, ref(sql, 0), "Home Town");
    assertEquals("SELECT T1.`Home Town` FROM singer AS T1", edited);
    assertEquals(List.of("singer.home town SelectExpr item=0"), refs(edited));
  }

  @Test
  void wrapItemWrapsTheWholeItemAndKeepsItsAlias() {
    String sql = "SELECT T1.Price AS p ,  T1.Name FROM singer AS T1";
    String edited = SqlEdits.wrapItem(sql, ref(sql, 0), "AVG");
    assertEquals("SELECT AVG(T1.Price) AS p ,  T1.Name FROM singer AS T1", edited);
    assertEquals(
        List.of("singer.price AggArg agg=5 item=0", "singer.name SelectExpr item=1"), refs(edited));
  }

  @Test
  void wrapItemKeepsAWordBeforeItApart() {
    String sql = "SELECT distinct(Price) FROM singer";
    String edited = SqlEdits.wrapItem(sql, ref(sql, 0), "AVG");
    assertEquals("SELECT distinct AVG((Price)) FROM singer", edited);
    assertEquals(List.of("singer.price AggArg agg=5 item=0"), refs(edited));
  }

  @Test
  void wrapItemNeedsASelectItem() {
    String sql = "SELECT T1.Name FROM singer AS T1 WHERE T1.Age > 3";
    assertThrows(IllegalArgumentException.class, () -> SqlEdits.wrapItem(sql, ref(sql, 1), "AVG"));
  }

  @Test
  void unwrapAggregateLeavesTheBareColumn() {
    String sql = "SELECT avg(DISTINCT T1.Price) ,  T1.Name FROM singer AS T1 GROUP BY T1.Name";
    String edited = SqlEdits.unwrapAggregate(sql, ref(sql, 0));
    assertEquals("SELECT T1.Price ,  T1.Name FROM singer AS T1 GROUP BY T1.Name", edited);
    assertEquals(
        List.of("singer.price SelectExpr item=0", "singer.name SelectExpr item=1"), refs(edited));
  }

  @Test
  void unwrapAggregateNeedsAnAggregate() {
    String sql = "SELECT T1.Name FROM singer AS T1";
    assertThrows(IllegalArgumentException.class, () -> SqlEdits.unwrapAggregate(sql, ref(sql, 0)));
  }

  @Test
  void appendSelectItemQualifiesWithTheAlias() {
    String sql =
        "SELECT T2.Name ,  count(*) AS n FROM concert AS T1 JOIN singer AS T2"
            + " ON T1.concert_ID  =  T2.Singer_ID GROUP BY T2.Name";
    SqlAnalysis analysis = ANALYZER.analyse(sql);
    String edited = SqlEdits.appendSelectItem(sql, analysis, analysis.fromTables().get(1), "Email");
    assertEquals(
        "SELECT T2.Name ,  count(*) AS n, T2.Email FROM concert AS T1 JOIN singer AS T2"
            + " ON T1.concert_ID  =  T2.Singer_ID GROUP BY T2.Name",
        edited);
    assertEquals(
        List.of(
            "singer.name SelectExpr item=0",
            "singer.email SelectExpr item=2",
            "concert.concert_id JoinCond",
            "singer.singer_id JoinCond"),
        refs(edited));
  }

  @Test
  void appendSelectItemQualifiesWithTheTableNameAsWritten() {
    String sql = "SELECT DISTINCT Name FROM SINGER WHERE Age > 20";
    SqlAnalysis analysis = ANALYZER.analyse(sql);
    assertEquals(
        "SELECT DISTINCT Name, SINGER.Year FROM SINGER WHERE Age > 20",
        SqlEdits.appendSelectItem(sql, analysis, analysis.fromTables().get(0), "Year"));
  }

  @Test
  void appendSelectItemQuotesAKeywordName() {
    String sql = "SELECT concert_Name FROM concert";
    SqlAnalysis analysis = ANALYZER.analyse(sql);
    String edited = SqlEdits.appendSelectItem(sql, analysis, analysis.fromTables().get(0), "From");
    assertEquals("SELECT concert_Name, concert.`From` FROM concert", edited);
    assertEquals(
        List.of("concert.concert_name SelectExpr item=0", "concert.from SelectExpr item=1"),
        refs(edited));
  }

  @Test
  void appendSelectItemNeedsTheAnalysisOfTheSameText() {
    SqlAnalysis analysis = ANALYZER.analyse("SELECT Name FROM singer");
    assertThrows(
        IllegalArgumentException.class,
        () ->
            SqlEdits.appendSelectItem(
                "SELECT Age FROM singer", analysis, analysis.fromTables().get(0), "Email"));
  }

  @Test
  void anEditedItemOfAFromSubqueryKeepsItsOutputName() {
    String sql = "SELECT t.Name FROM (SELECT T1.Name FROM singer AS T1) AS t";
    String replaced = SqlEdits.replaceColumn(sql, ref(sql, 0), "Home Town");
    assertEquals(
        "SELECT t.Name FROM (SELECT T1.`Home Town` AS Name FROM singer AS T1) AS t", replaced);
    assertEquals(List.of("singer.home town SelectExpr"), refs(replaced));
    String wrapped = SqlEdits.wrapItem(sql, ref(sql, 0), "AVG");
    assertEquals("SELECT t.Name FROM (SELECT AVG(T1.Name) AS Name FROM singer AS T1) AS t", wrapped);
    assertEquals(List.of("singer.name AggArg agg=5"), refs(wrapped));
    String unqualified = "SELECT count(*) FROM concert JOIN (SELECT `Name` FROM singer)";
    assertEquals(
        "SELECT count(*) FROM concert JOIN (SELECT singer.Age AS `Name` FROM singer)",
        SqlEdits.replaceColumn(unqualified, ref(unqualified, 0), "Age"));
  }

  @Test
  void anEditedItemOfACommonTableKeepsItsOutputNameUnlessAColumnListNamesIt() {
    String sql = "WITH c AS (SELECT Name FROM singer) SELECT Name FROM c";
    assertEquals(
        "WITH c AS (SELECT singer.Age AS Name FROM singer) SELECT Name FROM c",
        SqlEdits.replaceColumn(sql, ref(sql, 0), "Age"));
    String listed = "WITH c(n) AS (SELECT Name FROM singer) SELECT n FROM c";
    assertEquals(
        "WITH c(n) AS (SELECT singer.Age FROM singer) SELECT n FROM c",
        SqlEdits.replaceColumn(listed, ref(listed, 0), "Age"));
  }

  @Test
  void onlyTheFirstPartOfASetOperationNamesTheColumns() {
    String sql =
        "SELECT x.Name FROM (SELECT Name FROM singer UNION SELECT Name FROM stadium) AS x";
    assertEquals(
        "SELECT x.Name FROM (SELECT singer.Age AS Name FROM singer UNION SELECT Name FROM stadium)"
            + " AS x",
        SqlEdits.replaceColumn(sql, ref(sql, 0), "Age"));
    assertEquals(
        "SELECT x.Name FROM (SELECT Name FROM singer UNION SELECT stadium.Capacity FROM stadium)"
            + " AS x",
        SqlEdits.replaceColumn(sql, ref(sql, 1), "Capacity"));
  }

  @Test
  void theOrderByOfATopLevelSetOperationReadsTheFirstPartsNames() {
    String sql = "SELECT Name FROM singer UNION SELECT Name FROM stadium ORDER BY Name";
    assertEquals(
        "SELECT singer.Age AS Name FROM singer UNION SELECT Name FROM stadium ORDER BY Name",
        SqlEdits.replaceColumn(sql, ref(sql, 0), "Age"));
    assertEquals(
        "SELECT AVG(Name) AS Name FROM singer UNION SELECT Name FROM stadium ORDER BY Name",
        SqlEdits.wrapItem(sql, ref(sql, 0), "AVG"));
    String unordered = "SELECT Name FROM singer UNION SELECT Name FROM stadium";
    assertEquals(
        "SELECT singer.Age FROM singer UNION SELECT Name FROM stadium",
        SqlEdits.replaceColumn(unordered, ref(unordered, 0), "Age"));
  }

  @Test
  void wrapItemRefusesAnItemThatAlreadyCallsAnAggregateOrWindow() {
    for (String sql :
        List.of(
            "SELECT Age - count(*) FROM singer",
            "SELECT CASE WHEN sum(Age) > 0 THEN Name END FROM singer",
            "SELECT Age * rank() OVER (ORDER BY Name) FROM singer",
            "SELECT total(Age) FROM singer",
            "SELECT group_concat(Name) FROM singer")) {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> SqlEdits.wrapItem(sql, ref(sql, 0), "AVG"), sql);
      assertTrue(e.getMessage().contains("already calls an aggregate or window function"), e.getMessage());
    }
    for (String sql :
        List.of(
            "SELECT max(Age, 3) FROM singer",
            "SELECT Age + (SELECT count(*) FROM stadium) FROM singer",
            "SELECT upper(Name) FROM singer")) {
      assertTrue(SqlEdits.wrapItem(sql, ref(sql, 0), "AVG").startsWith("SELECT AVG("), sql);
    }
  }

  @Test
  void itemsReadByPositionAliasedItemsAndExpressionsGetNoAlias() {
    String operand = "SELECT Name FROM singer WHERE Age IN (SELECT Capacity FROM stadium)";
    assertEquals(
        "SELECT Name FROM singer WHERE Age IN (SELECT stadium.Location FROM stadium)",
        SqlEdits.replaceColumn(operand, ref(operand, 2), "Location"));
    String aliased = "SELECT t.n FROM (SELECT Name AS n FROM singer) AS t";
    assertEquals(
        "SELECT t.n FROM (SELECT AVG(Name) AS n FROM singer) AS t",
        SqlEdits.wrapItem(aliased, ref(aliased, 0), "AVG"));
    String expression = "SELECT count(*) FROM (SELECT Age + 1 FROM singer)";
    assertEquals(
        "SELECT count(*) FROM (SELECT singer.Price + 1 FROM singer)",
        SqlEdits.replaceColumn(expression, ref(expression, 0), "Price"));
    String nested =
        "SELECT count(*) FROM (SELECT Name FROM singer WHERE Age > (SELECT avg(Age) FROM"
            + " (SELECT Age FROM singer)))";
    assertEquals(
        "SELECT count(*) FROM (SELECT Name FROM singer WHERE Age > (SELECT avg(Age) FROM"
            + " (SELECT singer.Price AS Age FROM singer)))",
        SqlEdits.replaceColumn(nested, ref(nested, 2), "Price"));
  }

  @Test
  void sqliteKeywordsAndNamesThatAreNoPlainWordAreWrittenInBackticks() {
    assertEquals("`index`", SqlEdits.identifier("index"));
    assertEquals("`No`", SqlEdits.identifier("No"));
    assertEquals("`Free Meal Count (K-12)`", SqlEdits.identifier("Free Meal Count (K-12)"));
    assertEquals("`Percent (%) Eligible FRPM`", SqlEdits.identifier("Percent (%) Eligible FRPM"));
    assertEquals("`T-CHO`", SqlEdits.identifier("T-CHO"));
    assertEquals("`2FM_MHz`", SqlEdits.identifier("2FM_MHz"));
    assertEquals("`a``b`", SqlEdits.identifier("a`b"));
    assertEquals("Name", SqlEdits.identifier("Name"));
    assertEquals("Year", SqlEdits.identifier("Year"));
    assertEquals("date", SqlEdits.identifier("date"));
  }
}

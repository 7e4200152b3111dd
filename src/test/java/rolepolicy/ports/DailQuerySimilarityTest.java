package rolepolicy.ports;

import rolepolicy.ports.QuerySimilarity;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import rolepolicy.TestData;
import rolepolicy.spider.Question;
import rolepolicy.spider.Schema;
import rolepolicy.spider.SplitReader;

/**
 * DAIL-SQL's query similarity, ported from BeachWang/DAIL-SQL {@code utils/utils.py}. Each
 * skeleton test follows their code path step by step: {@code sql_normalization} (strip, drop the
 * final ";", double to single quotes, sql_metadata tokens joined by spaces, lower case outside
 * quotes, {@code add_asc}, {@code remove_table_alias}), then {@code sql2skeleton} (mask each
 * token, then the string rewrites). "Python:" gives what their code outputs, worked out by hand
 * from their code and sql_metadata's; a scratch re-implementation on sqlparse 0.4.2 agreed.
 */
class DailQuerySimilarityTest {
  private static Schema concertSinger;
  private static Schema grants;

  @BeforeAll
  static void schemas() {
    concertSinger = TestData.schemas().get("concert_singer");
    grants = TestData.schemas().get("tracking_grants_for_research");
  }

  private static String skeleton(String sql) {
    return QuerySimilarity.dailSkeleton(sql, concertSinger);
  }

  @Test
  void valuesAndNamesBecomeUnderscoresAndWhereConditionsCollapse() {
    String sql = "SELECT name FROM singer WHERE age > 30 AND country = \"France\"";
    // normalized: select name from singer where age > 30 and country = 'France'
    // masked:     select _ from _ where _ > _ and _ = _     (names, the number, the string)
    // "_ = _" -> "_", then "_ > _" -> "_": select _ from _ where _ and _; then "where _ and _" -> "where _"
    // Python: "select _ from _ where _"
    assertEquals(
        "select name from singer where age > 30 and country = 'France'", QuerySimilarity.normalize(sql));
    assertEquals("select _ from _ where _", skeleton(sql));
  }

  @Test
  void aliasesResolveToTablesAndJoinsDisappear() {
    String sql = "SELECT T2.name ,  count(*) FROM concert AS T1 JOIN stadium AS T2 "
        + "ON T1.stadium_id  =  T2.stadium_id GROUP BY T1.stadium_id";
    // sql_metadata's tables_aliases: t1 -> concert, t2 -> stadium; "as t1" goes, t1.x -> concert.x
    // normalized: select stadium.name , count ( * ) from concert join stadium
    //             on concert.stadium_id = stadium.stadium_id group by concert.stadium_id
    // masked: select _ , count ( _ ) from _ join _ on _ = _ group by _  ("*" is a column name too)
    // " on _ = _" removed, "_ join _ " -> "_ "
    // Python: "select _ , count ( _ ) from _ group by _"
    assertEquals("select stadium.name , count ( * ) from concert join stadium on concert.stadium_id"
        + " = stadium.stadium_id group by concert.stadium_id", QuerySimilarity.normalize(sql));
    assertEquals("select _ , count ( _ ) from _ group by _", skeleton(sql));
  }

  @Test
  void aliasWithoutAsAndOneLetterAliasesResolveToo() {
    String sql = "SELECT a.name FROM singer a WHERE a.age > (SELECT avg(b.age) FROM singer b)";
    // a and b are aliases (no AS) used as prefixes, so remove_table_alias keeps them;
    // "singer a": the alias right after its table is dropped
    // normalized: select singer.name from singer where singer.age > ( select avg ( singer.age ) from singer )
    // Python: "select _ from _ where _ > ( select avg ( _ ) from _ )" ("_ > (" is no "_ > _")
    assertEquals("select _ from _ where _ > ( select avg ( _ ) from _ )", skeleton(sql));
  }

  @Test
  void nestedQueryKeepsItsParenthesesAndLimit() {
    String sql = "select count(*) from concert where stadium_id = "
        + "(select stadium_id from stadium order by capacity desc limit 1)";
    // has "desc", so add_asc does nothing; "_ = (" is not "_ = _" and stays
    // Python: "select count ( _ ) from _ where _ = ( select _ from _ order by _ desc limit _ )"
    assertEquals(
        "select count ( _ ) from _ where _ = ( select _ from _ order by _ desc limit _ )", skeleton(sql));
  }

  @Test
  void setOperationsKeepBothHalves() {
    String intersect = "SELECT T2.name ,  T2.location FROM concert AS T1 JOIN stadium AS T2 ON "
        + "T1.stadium_id  =  T2.stadium_id WHERE T1.Year  =  2014 INTERSECT SELECT T2.name ,  "
        + "T2.location FROM concert AS T1 JOIN stadium AS T2 ON T1.stadium_id  =  T2.stadium_id "
        + "WHERE T1.Year  =  2015";
    // each half: select _ , _ from _ join _ on _ = _ where _ = _ -> select _ from _ where _
    // Python: "select _ from _ where _ intersect select _ from _ where _"
    assertEquals("select _ from _ where _ intersect select _ from _ where _", skeleton(intersect));

    String except = "SELECT name FROM singer EXCEPT SELECT T1.name FROM singer AS T1 "
        + "JOIN singer_in_concert AS T2 ON T1.singer_id = T2.singer_id";
    // the join chain at the very end leaves the trailing space of its "_ " replacement
    // Python: "select _ from _ except select _ from _ "
    assertEquals("select _ from _ except select _ from _ ", skeleton(except));
  }

  @Test
  void anAliasUsedTwiceTakesItsLastTable() {
    String sql = "SELECT T1.name FROM singer AS T1 WHERE T1.singer_id IN "
        + "(SELECT T1.singer_id FROM singer_in_concert AS T1)";
    // tables_aliases is a dict: t1 -> singer, then t1 -> singer_in_concert; every t1.x becomes
    // singer_in_concert.x, still masked since DAIL masks any table.column pair of the database
    // Python normalized: select singer_in_concert.name from singer where singer_in_concert.singer_id
    //                    in ( select singer_in_concert.singer_id from singer_in_concert )
    // Python: "select _ from _ where _ in ( select _ from _ )"
    assertEquals("select singer_in_concert.name from singer where singer_in_concert.singer_id in"
        + " ( select singer_in_concert.singer_id from singer_in_concert )", QuerySimilarity.normalize(sql));
    assertEquals("select _ from _ where _ in ( select _ from _ )", skeleton(sql));
  }

  @Test
  void notInNotLikeAndBetweenAreSingleTokensThatStay() {
    // sqlparse lexes "NOT IN" and "NOT LIKE" as one token each; "between _ and _" is no comparison
    // Python: "select _ from _ where _ not in ( select _ from _ )"
    assertEquals("select _ from _ where _ not in ( select _ from _ )",
        skeleton("SELECT name FROM singer WHERE singer_id NOT IN (SELECT singer_id FROM singer_in_concert)"));
    // Python: "select _ from _ where _ not like _ and _ between _ and _"
    assertEquals("select _ from _ where _ not like _ and _ between _ and _",
        skeleton("SELECT name FROM singer WHERE name NOT LIKE '%a%' AND age BETWEEN 20 AND 30"));
  }

  @Test
  void orderByWithoutDirectionGetsAsc() {
    // add_asc: "order by age" -> "order by age asc"; the key after "order by" is masked
    // Python: "select _ from _ order by _ asc"
    assertEquals("select _ from _ order by _ asc", skeleton("SELECT name FROM singer ORDER BY age"));
    // two equal ORDER BY matches: each one's str.replace hits both places, so "asc asc"
    // Python: "select _ from _ order by _ asc asc union select _ from _ order by _ asc asc"
    assertEquals("select _ from _ order by _ asc asc union select _ from _ order by _ asc asc",
        skeleton("SELECT name FROM singer ORDER BY age UNION SELECT name FROM singer ORDER BY age"));
  }

  @Test
  void descInsideANameStopsAddAsc() {
    // train_spider #4372: "desc" occurs inside organisation_type_description, so no "asc" is added
    String sql = "SELECT organisation_details FROM Organisations AS T1 JOIN organisation_Types AS T2 "
        + "ON T1.organisation_type  =  T2.organisation_type WHERE T2.organisation_type_description  "
        + "=  'Sponsor' ORDER BY organisation_details";
    // Python: "select _ from _ where _ order by _"
    assertEquals("select _ from _ where _ order by _", QuerySimilarity.dailSkeleton(sql, grants));
  }

  @Test
  void columnAliasesGoAndNumbersOfEveryKindAreMasked() {
    // "as cnt" is dropped with its AS; "order by cnt" -> "order by cnt asc"
    // Python: "select count ( _ ) , _ from _ group by _ having count ( _ ) > _ order by _ asc"
    assertEquals("select count ( _ ) , _ from _ group by _ having count ( _ ) > _ order by _ asc",
        skeleton("SELECT count(*) AS cnt , name FROM singer GROUP BY name "
            + "HAVING count(*) > 1 ORDER BY cnt"));
    // -1.5 is one sqlparse number and isFloat; 2.0e3 is one number but not isFloat, so it stays
    // Python: "select _ from _ where _ < 2.0e3"
    assertEquals("select _ from _ where _ < 2.0e3",
        skeleton("SELECT name FROM singer WHERE age > -1.5 OR age < 2.0e3"));
  }

  @Test
  void aNameOutsideTheSchemaStaysAndBlocksTheCollapse() {
    // nosuchcolumn is not masked, so "nosuchcolumn = _" is no "_ = _"
    // Python: "select _ from _ where _ and nosuchcolumn = _ order by _ desc limit _"
    assertEquals("select _ from _ where _ and nosuchcolumn = _ order by _ desc limit _",
        skeleton("SELECT name FROM singer WHERE is_male = 'T' AND nosuchcolumn = 3 "
            + "ORDER BY nosuchcolumn DESC LIMIT 3"));
  }

  @Test
  void whitespaceCaseAndTheFinalSemicolonDoNotMatter() {
    // newlines and tabs are sqlparse whitespace; the final ";" is removed before tokenising
    // Python: "select _ from _ where _"
    assertEquals("select _ from _ where _", skeleton("SELECT name\nFROM singer\tWHERE\n\nage>30;"));
    assertEquals("select _ from _ where _ order by _ asc",
        skeleton("SELECT Name FROM Singer WHERE Country = 'France' ORDER BY Age ASC"));
    // Python: "" (no tokens)
    assertEquals("", skeleton("   "));
  }

  @Test
  void identicalSkeletonsScoreOne() {
    assertEquals(1.0, QuerySimilarity.jaccard("select _ from _ where _", "select _ from _ where _"));
    // both strip to "select _ from _" (DAIL strips before splitting)
    assertEquals(1.0, QuerySimilarity.jaccard("select _ from _ ", "select _ from _"));
  }

  @Test
  void disjointSkeletonsScoreZero() {
    assertEquals(0.0, QuerySimilarity.jaccard("select _", "limit desc"));
    // "" splits to one empty token, which "select _" does not have: 0 / (1 + 2)
    assertEquals(0.0, QuerySimilarity.jaccard("", "select _"));
  }

  @Test
  void twoEmptySkeletonsScoreOne() {
    // Python: "".split(" ") == [""] on both sides, 1 shared of 1 + 1 - 1
    assertEquals(1.0, QuerySimilarity.jaccard("", ""));
  }

  @Test
  void tokensCountWithMultiplicity() {
    // DAIL's jaccard_similarity counts tokens: shared min(2,1) + min(1,2) = 2, union 3 + 3 - 2 = 4
    // (a set Jaccard would give 1.0)
    assertEquals(0.5, QuerySimilarity.jaccard("a a b", "a b b"));
  }

  @Test
  void workedExampleOfTheDocs() {
    // docs/retrieval.md: dev #22 (concert_singer) beside train_spider #157 (bike_1)
    String dev = "SELECT T2.name ,  count(*) FROM concert AS T1 JOIN stadium AS T2 "
        + "ON T1.stadium_id  =  T2.stadium_id GROUP BY T1.stadium_id";
    String train = "SELECT zip_code , count(*) FROM weather WHERE max_wind_Speed_mph  >=  25 "
        + "GROUP BY zip_code";
    Schema bike = TestData.schemas().get("bike_1");
    assertEquals("select _ , count ( _ ) from _ where _ group by _", QuerySimilarity.dailSkeleton(train, bike));
    // 12 tokens and 14 tokens, 12 shared: 12 / (12 + 14 - 12)
    assertEquals(12.0 / 14, QuerySimilarity.similarity(dev, concertSinger, train, bike), 1e-12);
  }

  /**
   * Spider dev against train: DAIL reports a query similarity of 0.47–0.48 for random example
   * selection. Each dev gold SQL is paired with one train gold SQL drawn uniformly with
   * {@code new Random(0)} (DAIL seeds Python's generator with 0 too, but the draws differ); the
   * exact expectation over all dev × train pairs is printed and checked too. Outside 0.40–0.55
   * the port is broken. The expectation is also pinned: 0.4766, as a scratch Python
   * re-implementation on sqlparse 0.4.2 computed it.
   */
  @Test
  void randomSelectionOnSpiderLandsWhereDailReportsIt() {
    final long seed = 0;
    List<String> dev = skeletons("dev.json");
    List<String> train = skeletons("train_spider.json");
    Random random = new Random(seed);
    double sum = 0;
    for (String target : dev) {
      sum += QuerySimilarity.jaccard(target, train.get(random.nextInt(train.size())));
    }
    double sampled = sum / dev.size();

    Map<String, Integer> trainCounts = new HashMap<>();
    train.forEach(s -> trainCounts.merge(s, 1, Integer::sum));
    double expected = 0;
    for (String target : dev) {
      double row = 0;
      for (Map.Entry<String, Integer> e : trainCounts.entrySet()) {
        row += e.getValue() * QuerySimilarity.jaccard(target, e.getKey());
      }
      expected += row / train.size();
    }
    expected /= dev.size();

    System.out.println(String.format(Locale.ROOT,
        "DAIL query similarity, Spider dev (%d) vs one random train_spider (%d) query each, "
            + "seed %d: %.4f; expectation over all pairs: %.4f (DAIL: 0.47-0.48)",
        dev.size(), train.size(), seed, sampled, expected));
    assertTrue(sampled >= 0.40 && sampled <= 0.55, "random-selection similarity " + sampled);
    assertTrue(expected >= 0.40 && expected <= 0.55, "expected similarity " + expected);
    assertEquals(0.4766, expected, 0.0005);
  }

  private static List<String> skeletons(String split) {
    Map<String, Schema> schemas = TestData.schemas();
    List<String> skeletons = new ArrayList<>();
    try (SplitReader reader = new SplitReader(TestData.spiderDir().resolve(split))) {
      for (Question q = reader.next(); q != null; q = reader.next()) {
        skeletons.add(QuerySimilarity.dailSkeleton(q.query(), schemas.get(q.dbId())));
      }
    }
    return skeletons;
  }
}

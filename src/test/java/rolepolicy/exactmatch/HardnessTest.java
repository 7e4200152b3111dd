package rolepolicy.exactmatch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import rolepolicy.TestData;
import rolepolicy.spider.Schema;

/**
 * Spider's hardness levels: hand-made queries on concert_singer for each level and each rule of
 * {@code eval_hardness}, and the levels of Spider dev's 1,034 gold queries.
 */
class HardnessTest {
  private static final Schema SCHEMA = TestData.schemas().get("concert_singer");

  private static SpiderSql parse(String sql) {
    return SpiderSql.parse(sql, SCHEMA);
  }

  private static Hardness of(String sql) {
    return Hardness.of(parse(sql));
  }

  /** Component 1, component 2 and others, as Spider counts them. */
  private static List<Integer> counts(String sql) {
    SpiderSql s = parse(sql);
    return List.of(Hardness.component1(s), Hardness.component2(s), Hardness.others(s));
  }

  @Test
  void easy() {
    assertEquals(Hardness.EASY, of("SELECT count(*) FROM singer"));
    assertEquals(Hardness.EASY, of("SELECT Name FROM singer WHERE Age > 20"));
    assertEquals(Hardness.EASY, of("SELECT Name FROM singer ORDER BY Age"));
    assertEquals(Hardness.EASY, of("SELECT T1.Name FROM singer AS T1 JOIN singer_in_concert AS T2 ON T1.Singer_ID = T2.Singer_ID"));
    assertEquals("easy", Hardness.EASY.label());
  }

  @Test
  void medium() {
    assertEquals(Hardness.MEDIUM, of("SELECT Name, Country FROM singer"));
    assertEquals(Hardness.MEDIUM, of("SELECT Name, Country FROM singer WHERE Age > 1 AND Age < 9"));
    assertEquals(Hardness.MEDIUM, of("SELECT T2.Name, count(*) FROM concert AS T1 JOIN stadium AS T2 "
        + "ON T1.Stadium_ID = T2.Stadium_ID GROUP BY T1.Stadium_ID"));
    assertEquals(Hardness.MEDIUM, of("SELECT Name FROM singer WHERE Age > 1 ORDER BY Age"));
    assertEquals("medium", Hardness.MEDIUM.label());
  }

  @Test
  void hard() {
    // a nested query and nothing else
    assertEquals(Hardness.HARD, of("SELECT Name FROM singer WHERE Age > (SELECT avg(Age) FROM singer)"));
    assertEquals(Hardness.HARD, of("SELECT Name FROM singer INTERSECT SELECT Name FROM stadium"));
    // three of component 1
    assertEquals(Hardness.HARD, of("SELECT Name FROM singer WHERE Age > 1 ORDER BY Age LIMIT 1"));
    // three others
    assertEquals(Hardness.HARD, of("SELECT max(Age), min(Age) FROM singer WHERE Age > 1 AND Age < 9"));
    assertEquals("hard", Hardness.HARD.label());
  }

  @Test
  void extra() {
    assertEquals(Hardness.EXTRA, of("SELECT Name FROM singer WHERE Age > (SELECT avg(Age) FROM singer) ORDER BY Name"));
    assertEquals(Hardness.EXTRA, of("SELECT T1.Name FROM singer AS T1 JOIN singer_in_concert AS T2 JOIN concert AS T3 "
        + "WHERE T3.Year > 1 ORDER BY T1.Age LIMIT 1"));
    assertEquals(Hardness.EXTRA, of("SELECT Name FROM singer WHERE Age > 1 AND Age < 5 UNION SELECT Name FROM stadium"));
    assertEquals(Hardness.EXTRA, of("SELECT max(Age), min(Age), Name FROM singer WHERE Age > 1 AND Age < 9 "
        + "GROUP BY Name, Country ORDER BY Name LIMIT 1"));
    assertEquals("extra", Hardness.EXTRA.label());
  }

  @Test
  void eachRuleAtItsBoundary() {
    // easy: component1 <= 1, others 0, component2 0
    assertEquals(List.of(1, 0, 0), counts("SELECT Name FROM singer WHERE Age > 20"));
    // medium: others <= 2 with component1 <= 1 ...
    assertEquals(List.of(1, 0, 2), counts("SELECT Name, Country FROM singer WHERE Age > 1 AND Age < 9"));
    // ... or component1 <= 2 with others < 2
    assertEquals(List.of(2, 0, 1), counts("SELECT Name, Age FROM singer WHERE Age > 1 ORDER BY Age"));
    assertEquals(Hardness.MEDIUM, of("SELECT Name, Age FROM singer WHERE Age > 1 ORDER BY Age"));
    // component1 2 and others 2: neither medium rule, so hard (others > 2 fails; 2 < c1 fails) -> extra
    assertEquals(List.of(2, 0, 2), counts("SELECT Name, Age FROM singer WHERE Age > 1 AND Age < 2 ORDER BY Age"));
    assertEquals(Hardness.EXTRA, of("SELECT Name, Age FROM singer WHERE Age > 1 AND Age < 2 ORDER BY Age"));
    // hard: others > 2 with component1 <= 2
    assertEquals(List.of(2, 0, 3), counts("SELECT max(Age), min(Age) FROM singer WHERE Age > 1 AND Age < 9 ORDER BY Age"));
    assertEquals(Hardness.HARD, of("SELECT max(Age), min(Age) FROM singer WHERE Age > 1 AND Age < 9 ORDER BY Age"));
    // hard: component1 3 with others <= 2; 4 is extra
    assertEquals(List.of(3, 0, 2), counts("SELECT Name, Age FROM singer WHERE Age > 1 AND Age < 2 ORDER BY Age LIMIT 1"));
    assertEquals(Hardness.HARD, of("SELECT Name, Age FROM singer WHERE Age > 1 AND Age < 2 ORDER BY Age LIMIT 1"));
    assertEquals(List.of(4, 0, 0), counts("SELECT count(*) FROM singer WHERE Age > 1 GROUP BY Name ORDER BY Age LIMIT 1"));
    assertEquals(Hardness.EXTRA, of("SELECT count(*) FROM singer WHERE Age > 1 GROUP BY Name ORDER BY Age LIMIT 1"));
    assertEquals(List.of(3, 0, 3), counts("SELECT max(Age), min(Age) FROM singer WHERE Age > 1 AND Age < 9 ORDER BY Age LIMIT 1"));
    assertEquals(Hardness.EXTRA, of("SELECT max(Age), min(Age) FROM singer WHERE Age > 1 AND Age < 9 ORDER BY Age LIMIT 1"));
    // hard: one nested query with component1 <= 1 and others 0; two are extra
    assertEquals(List.of(1, 1, 0), counts("SELECT Name FROM singer WHERE Age > (SELECT avg(Age) FROM singer)"));
    assertEquals(List.of(1, 2, 0), counts("SELECT Name FROM singer WHERE Age BETWEEN (SELECT min(Age) FROM singer) "
        + "AND (SELECT avg(Age) FROM singer)"));
    assertEquals(Hardness.EXTRA, of("SELECT Name FROM singer WHERE Age BETWEEN (SELECT min(Age) FROM singer) "
        + "AND (SELECT avg(Age) FROM singer)"));
    assertEquals(List.of(0, 1, 1), counts("SELECT Name, Age FROM singer EXCEPT SELECT Name, Age FROM singer"));
    assertEquals(List.of(0, 1, 0), counts("SELECT Name FROM singer INTERSECT SELECT Name FROM singer"));
    assertEquals(List.of(0, 1, 0), counts("SELECT Name FROM singer UNION SELECT Name FROM singer"));
    assertEquals(Hardness.EXTRA, of("SELECT Name, Age FROM singer EXCEPT SELECT Name, Age FROM singer"));
  }

  @Test
  void componentOneCountsJoinsOrAndLikeEverywhere() {
    assertEquals(List.of(4, 0, 0), counts("SELECT T1.Name FROM singer AS T1 JOIN singer_in_concert AS T2 "
        + "ON T1.Singer_ID = T2.Singer_ID OR T1.Name LIKE 'a' JOIN concert AS T3"));
    assertEquals(List.of(3, 0, 0), counts("SELECT Country FROM singer GROUP BY Country HAVING Country LIKE 'a' OR Country = 'b'"));
    assertEquals(List.of(3, 1, 1), counts("SELECT Name FROM singer WHERE Name LIKE 'a' OR Age IN (SELECT Age FROM singer)"));
    // a FROM subquery is no nested query here, and its own clauses do not count
    assertEquals(List.of(0, 0, 0), counts("SELECT count(*) FROM (SELECT Name FROM singer WHERE Age > 1 ORDER BY Age)"));
    assertEquals(List.of(1, 1, 0), counts("SELECT Name FROM singer AS T1 JOIN concert AS T2 "
        + "ON T1.Age = (SELECT max(Age) FROM singer)"));
    assertEquals(List.of(1, 1, 0), counts("SELECT Country FROM singer GROUP BY Country HAVING count(*) > "
        + "(SELECT count(*) FROM stadium)"));
  }

  @Test
  void othersCountAggregatesItemsConditionsAndGroupColumns() {
    assertEquals(2, Hardness.others(parse("SELECT max(Age), min(Age) FROM singer")));
    assertEquals(0, Hardness.others(parse("SELECT max(Age) FROM singer")));
    assertEquals(1, Hardness.others(parse("SELECT count(*) FROM singer GROUP BY Name ORDER BY count(*)")));
    assertEquals(1, Hardness.others(parse("SELECT count(*) FROM singer GROUP BY Name ORDER BY Age - count(*)")));
    assertEquals(0, Hardness.others(parse("SELECT count(*) FROM singer GROUP BY Name ORDER BY Age - Age")));
    assertEquals(1, Hardness.others(parse("SELECT Name FROM singer ORDER BY max(Age) - min(Age)")));
    assertEquals(1, Hardness.others(parse("SELECT count(*) FROM singer GROUP BY count(*)")));
    assertEquals(1, Hardness.others(parse("SELECT count(*) FROM singer GROUP BY Name, Country")));
    assertEquals(0, Hardness.others(parse("SELECT count(*) FROM singer WHERE Age > 1")));
    // aggregates in WHERE and HAVING conditions are not counted ...
    assertEquals(0, Hardness.others(parse("SELECT count(*) FROM singer GROUP BY Name HAVING avg(Age) > 1")));
  }

  @Test
  void spidersAggregateCountReadsNotFlagsAndHavingConnectors() {
    // Spider's has_agg reads a condition unit's first field, its NOT flag, and counts every AND / OR
    // of HAVING: ported as it is
    assertEquals(Hardness.EASY, of("SELECT count(*) FROM singer WHERE Name IN ('a')"));
    assertEquals(Hardness.MEDIUM, of("SELECT count(*) FROM singer WHERE Name NOT IN ('a')"));
    assertEquals(1, Hardness.others(parse("SELECT count(*) FROM singer WHERE Name NOT IN ('a')")));
    assertEquals(0, Hardness.others(parse("SELECT Country FROM singer GROUP BY Country HAVING count(*) > 1")));
    assertEquals(1, Hardness.others(parse("SELECT Country FROM singer GROUP BY Country HAVING count(*) > 1 AND max(Age) > 1 OR Age > 1")));
    assertEquals(1, Hardness.others(parse("SELECT Country FROM singer GROUP BY Country HAVING Country NOT LIKE 'a' AND Age > 1")));
    assertEquals(0, Hardness.others(parse("SELECT Country FROM singer GROUP BY Country HAVING Country NOT LIKE 'a'")));
  }

  /** Spider's published distribution of dev (evaluation.py's count row): 248, 446, 174, 166. */
  @Test
  @Tag("whole-spider")
  void spiderDevGoldQueriesHaveThePublishedDistribution() throws IOException {
    JsonNode dev = new ObjectMapper().readTree(TestData.spiderDir().resolve("dev.json").toFile());
    Map<String, Schema> schemas = TestData.schemas();
    Map<Hardness, Integer> levels = new EnumMap<>(Hardness.class);
    for (JsonNode record : dev) {
      SpiderSql sql = SpiderSql.parse(record.get("query").asText(), schemas.get(record.get("db_id").asText()));
      levels.merge(Hardness.of(sql), 1, Integer::sum);
    }
    assertEquals(Map.of(Hardness.EASY, 248, Hardness.MEDIUM, 446, Hardness.HARD, 174, Hardness.EXTRA, 166), levels);
  }
}

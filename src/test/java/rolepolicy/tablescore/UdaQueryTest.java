package rolepolicy.tablescore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import rolepolicy.TestData;
import rolepolicy.db.Execution;

/** Reading the benchmark's SQL files and queries, on the real Player and Med data. */
class UdaQueryTest {
  private static GroundTruth player;
  private static Attributes playerAttributes;
  private static GroundTruth med;
  private static Attributes medAttributes;

  @BeforeAll
  static void load() {
    Path p = TestData.udaDir().resolve("Player");
    playerAttributes = Attributes.read(p.resolve("Player_attributes.json"));
    player = GroundTruth.load(p, playerAttributes, List.of(), 30);
    Path m = TestData.udaDir().resolve("Med");
    medAttributes = Attributes.read(m.resolve("Med_attributes.json"));
    med = GroundTruth.load(m, medAttributes, List.of(), 30);
  }

  @AfterAll
  static void close() {
    player.close();
    med.close();
  }

  private static UdaQuery player(String sql) throws UdaQuery.Unscorable {
    return UdaQuery.analyse(sql, KeyColumns.none(), playerAttributes, player);
  }

  @Test
  void everySqlFileSplitsIntoItsQueriesWithTheirNumbersAndLines() {
    List<QueryFile.Query> join = QueryFile.read(TestData.udaDir().resolve("Player/Join/join_queries.sql"));
    assertEquals(20, join.size());
    // the numbers restart with the second category; the ordinal does not
    assertEquals("1", join.get(10).number());
    assertEquals(11, join.get(10).ordinal());
    assertEquals("multi_table_join (player, team, city)", join.get(10).label());
    assertEquals(33, join.get(10).line());
    assertTrue(join.get(10).sql().startsWith("SELECT player.fiba_world_cup"));
    assertTrue(!join.get(10).sql().endsWith(";"));
  }

  @Test
  void aSelectGetsItsDocumentIdAsAKey() throws Exception {
    UdaQuery q = player("SELECT name, age FROM player WHERE age > 30");
    assertEquals("SELECT name AS \"name\", age AS \"age\", \"player\".\"id\" AS \"id\" FROM player WHERE age > 30", q.goldSql());
    assertEquals(List.of(ColumnRole.VALUE, ColumnRole.VALUE, ColumnRole.KEY),
        q.columns().stream().map(UdaQuery.OutputColumn::role).toList());
    Execution run = player.query(q.goldSql());
    assertEquals(List.of("name", "age", "id"), run.columns());
  }

  @Test
  void aJoinGetsEveryTablesIdAndQualifiedNames() throws Exception {
    UdaQuery q = player("SELECT t.team_name, p.name FROM player AS p JOIN team AS t ON p.team = t.team_name");
    assertEquals(List.of("t.team_name", "p.name", "player.id", "team.id"),
        q.columns().stream().map(UdaQuery.OutputColumn::name).toList());
    assertEquals("team", q.columns().get(0).table());
    assertTrue(q.goldSql().contains("\"p\".\"id\" AS \"player.id\""), q.goldSql());
    assertEquals(Execution.Status.OK, player.query(q.goldSql()).status());
  }

  @Test
  void anAggregationIsKeyedOnItsGroupByColumns() throws Exception {
    UdaQuery q = player("SELECT nationality, COUNT(*) AS count_all, AVG(age) FROM player GROUP BY nationality");
    assertTrue(q.aggregation());
    assertEquals(List.of(ColumnRole.KEY, ColumnRole.AGGREGATE, ColumnRole.AGGREGATE),
        q.columns().stream().map(UdaQuery.OutputColumn::role).toList());
    assertEquals("AVG(age)", q.columns().get(2).name());
    assertEquals("age", q.columns().get(2).attribute());
    assertEquals(null, q.columns().get(1).attribute());
  }

  @Test
  void multiValuedAttributesAreScoredByValue() throws Exception {
    UdaQuery q = UdaQuery.analyse("SELECT side_effects, brand_name FROM drug", KeyColumns.none(), medAttributes, med);
    assertEquals(ColumnRole.MULTI_VALUE, q.columns().get(0).role());
  }

  @Test
  void anEntityKeyIsAddedForMultiEntityTables() throws Exception {
    KeyColumns keys = new KeyColumns(Map.of(), Map.of("drug", "generic_name"));
    UdaQuery q = UdaQuery.analyse("SELECT brand_name FROM drug", keys, medAttributes, med);
    assertEquals(List.of("brand_name", "id", "generic_name"), q.columns().stream().map(UdaQuery.OutputColumn::name).toList());
    UdaQuery selected = UdaQuery.analyse("SELECT generic_name, brand_name FROM drug", keys, medAttributes, med);
    assertEquals(ColumnRole.KEY, selected.columns().get(0).role());
    assertEquals(3, selected.columns().size());
  }

  @Test
  void whatCannotBeScoredSaysWhy() {
    assertEquals("GROUP BY position is not in the SELECT list: rows cannot be matched on it",
        assertThrows(UdaQuery.Unscorable.class, () -> player("SELECT COUNT(*) FROM player GROUP BY position")).getMessage());
    assertEquals("'name' is selected but neither aggregated nor in GROUP BY",
        assertThrows(UdaQuery.Unscorable.class, () -> player("SELECT name, COUNT(*) FROM player")).getMessage());
    assertEquals("the ground truth of team has no column 'championships'",
        assertThrows(UdaQuery.Unscorable.class, () -> player("SELECT team.championships FROM team")).getMessage());
    assertEquals("'Med_drug.brand_name' names Med_drug, which is not a table of its FROM",
        assertThrows(UdaQuery.Unscorable.class, () -> UdaQuery.analyse("SELECT Med_drug.brand_name FROM drug",
            KeyColumns.none(), medAttributes, med)).getMessage());
    assertTrue(assertThrows(UdaQuery.Unscorable.class, () -> player("SELECT name FROM player WHERE"))
        .getMessage().startsWith("SQL does not parse"));
    assertEquals("not a single SELECT (set operations and other statements are not scored)",
        assertThrows(UdaQuery.Unscorable.class, () -> player("SELECT name FROM player UNION SELECT name FROM manager")).getMessage());
  }

  @Test
  void aTableWithoutIdNeedsItsDocumentKeyNamed() throws Exception {
    Path cs = TestData.udaDir().resolve("CSPaper");
    Attributes attributes = Attributes.read(cs.resolve("CSPaper_attributes.json"));
    try (GroundTruth truth = GroundTruth.load(cs, attributes, List.of("cspaper"), 30)) {
      assertEquals("table cspaper has no 'id' column to match rows on; name its document key with --id-column cspaper=COLUMN",
          assertThrows(UdaQuery.Unscorable.class,
              () -> UdaQuery.analyse("SELECT topic FROM cspaper", KeyColumns.none(), attributes, truth)).getMessage());
      UdaQuery q = UdaQuery.analyse("SELECT topic FROM cspaper", new KeyColumns(Map.of("cspaper", "pdf_filename"), Map.of()),
          attributes, truth);
      assertTrue(q.goldSql().endsWith("\"cspaper\".\"pdf_filename\" AS \"id\" FROM cspaper"), q.goldSql());
    }
  }

  @Test
  void groundTruthCellsAreCastByValueTypeNotGuessed() {
    // birth_date (str) stays text; age (int) is a number; a blank cell is NULL
    Execution e = player.query("SELECT birth_date, age, position FROM player WHERE ID = '1'");
    assertEquals("1994/2/2", e.rows().get(0).get(0));
    assertEquals(31L, e.rows().get(0).get(1));
    assertEquals(null, e.rows().get(0).get(2));
    Execution ints = player.query("SELECT " + GroundTruth.cast("x", "int") + ", " + GroundTruth.cast("x", "float")
        + " FROM (VALUES (' 2011.0 '), ('715,522'), ('12.5'), ('n/a'), (''), ('1,5')) v(x)");
    assertEquals(java.util.Arrays.asList(2011L, 715522L, null, null, null, null),
        ints.rows().stream().map(r -> r.get(0)).toList());
    assertEquals(java.util.Arrays.asList(2011.0, 715522.0, 12.5, null, null, null),
        ints.rows().stream().map(r -> r.get(1)).toList());
  }
}

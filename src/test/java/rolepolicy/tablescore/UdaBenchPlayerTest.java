package rolepolicy.tablescore;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rolepolicy.TestData;
import rolepolicy.io.InputException;

/**
 * score-tables on a small part of UDA-Bench's real Player dataset (its CSVs and attribute file, three
 * of its join queries and its six player selections): quick enough to run for every code change
 * PIT makes, where {@link UdaBenchTest} scores the whole benchmark.
 */
class UdaBenchPlayerTest {
  @TempDir static Path temp;
  private static Path root;

  @BeforeAll
  static void copyPartOfPlayer() throws IOException {
    Path from = TestData.udaDir().resolve("Player");
    Path player = Files.createDirectories(temp.resolve("Query/Player"));
    try (Stream<Path> files = Files.list(from)) {
      for (Path f : files.filter(Files::isRegularFile).toList()) {
        Files.copy(f, player.resolve(f.getFileName().toString()));
      }
    }
    // queries 1 and 3 name team.championships, which team.csv lacks (its column is 'championship')
    List<String> join = Files.readAllLines(from.resolve("Join/join_queries.sql")).subList(0, 9);
    Files.createDirectories(player.resolve("Join"));
    Files.write(player.resolve("Join/join_queries.sql"), join);
    Files.createDirectories(player.resolve("Select"));
    Files.copy(from.resolve("Select/select_queries_player.sql"), player.resolve("Select/select_queries_player.sql"));
    Files.createDirectories(temp.resolve("Query/notes")); // no attribute file: not a dataset
    root = temp.resolve("Query");
  }

  private static UdaBench bench(Path results, Path out) {
    return new UdaBench(new UdaBench.Options(root, List.of("player"), results, out, UdaBenchTest.KEYS,
        new NormalisingJudge(1e-6), "normalising", 60));
  }

  private static JsonNode json(Path file) throws IOException {
    return new ObjectMapper().readTree(file.toFile());
  }

  @Test
  void datasetsAreFoundByNameWithoutRegardToCaseAndAnUnknownNameListsTheDatasets() {
    assertEquals(List.of(root.resolve("Player")), UdaBench.datasets(root, List.of("PLAYER")));
    assertEquals(List.of(root.resolve("Player")), UdaBench.datasets(root, List.of()), "notes/ has no attribute file");
    InputException unknown = assertThrows(InputException.class, () -> UdaBench.datasets(root, List.of("nba")));
    assertEquals(root + ": no dataset 'nba' (have: Player)", unknown.getMessage());
    InputException missing = assertThrows(InputException.class,
        () -> UdaBench.datasets(temp.resolve("nowhere"), List.of()));
    assertEquals(temp.resolve("nowhere") + ": UDA-Bench Query folder not found", missing.getMessage());
  }

  @Test
  void theGroundTruthAgainstItselfScoresOneAndListsTheQueriesItCannotRun() throws IOException {
    Path out = temp.resolve("self");
    List<String> heard = new ArrayList<>();
    Summary s = bench(null, out).run(heard::add);
    assertEquals(List.of("Player: 9 queries, 7 scored"), heard);
    assertEquals(9, s.all().queries());
    assertEquals(7, s.all().scored());
    assertEquals(1.0, s.all().f1());
    assertEquals(List.of(1, 3), s.notScored().stream().map(QueryOutcome::query).toList());
    assertTrue(s.notScored().get(0).reason().endsWith(
        "join_queries.sql: query 1 (line 2): the ground truth of team has no column 'championships'"),
        s.notScored().get(0).reason());
    assertEquals("NOT_RUN", json(out.resolve("Player/Join/join_queries/1/acc_result/acc.json")).get("status").asText());
    assertTrue(Files.isRegularFile(out.resolve("summary.json")));
    assertFalse(Files.exists(out.resolve("Player/Join/join_queries/2/result.csv")), "the gold is not copied as a result");
  }

  @Test
  void sqlJsonDescribesEachColumnAndTheKeysTheScoreAdded() throws IOException {
    Path out = temp.resolve("described");
    bench(null, out).run(line -> { });
    JsonNode sql = json(out.resolve("Player/Join/join_queries/2/sql.json"));
    assertEquals("binary_join (player, team)", sql.get("label").asText());
    assertFalse(sql.get("aggregation").asBoolean());
    assertTrue(sql.get("gold_sql").asText().contains("\"player\".\"id\" AS \"player.id\""), sql.get("gold_sql").asText());
    JsonNode founded = sql.at("/columns/0");
    assertEquals("team.founded_year", founded.get("name").asText());
    assertEquals("team", founded.get("table").asText());
    assertEquals("founded_year", founded.get("attribute").asText());
    assertEquals("int", founded.get("value_type").asText());
    assertTrue(founded.get("description").asText().startsWith("founded_year is the year"));
    assertNull(founded.get("added"));
    JsonNode key = sql.at("/columns/4");
    assertEquals("player.id", key.get("name").asText());
    assertEquals("KEY", key.get("role").asText());
    assertTrue(key.get("added").asBoolean());
    assertNull(key.get("description"), "id has no description in the attribute file");
    JsonNode acc = json(out.resolve("Player/Join/join_queries/2/acc_result/acc.json"));
    assertEquals(90, acc.get("gold_rows").asInt());
    assertEquals(90, acc.get("matched_rows").asInt());
    List<String> gold = Files.readAllLines(out.resolve("Player/Join/join_queries/2/acc_result/gold_result.csv"));
    assertEquals(91, gold.size(), "a header and 90 rows");
    assertEquals(gold, Files.readAllLines(out.resolve("Player/Join/join_queries/2/acc_result/matched_gold_result.csv")));
  }

  @Test
  void theGoldOnlyFloorRunsTheQueriesTheScoredRunScores() {
    assertEquals(7, bench(null, temp.resolve("unused")).runGoldOnly());
  }

  @Test
  void aResultElsewhereIsCopiedBesideItsScoreAndAMissingOrRaggedOneIsNamed() throws IOException {
    Path self = temp.resolve("self-for-results");
    bench(null, self).run(line -> { });
    Path results = temp.resolve("results");
    Path two = results.resolve("Player/Join/join_queries/2/result.csv");
    Files.createDirectories(two.getParent());
    List<String> gold = Files.readAllLines(self.resolve("Player/Join/join_queries/2/acc_result/gold_result.csv"));
    Files.write(two, gold.subList(0, 46)); // the first 45 rows
    Path ragged = results.resolve("Player/Select/select_queries_player/2/result.csv");
    Files.createDirectories(ragged.getParent());
    Files.writeString(ragged, "team,name,mvp_awards,birth_date,id\nLakers,\"LeBron James,4\n");

    Path out = temp.resolve("scored");
    Summary s = bench(results, out).run(line -> { });
    assertEquals(1, s.all().scored());
    assertEquals(Files.readAllLines(two), Files.readAllLines(out.resolve("Player/Join/join_queries/2/result.csv")));
    JsonNode acc = json(out.resolve("Player/Join/join_queries/2/acc_result/acc.json"));
    assertEquals(45, acc.get("result_rows").asInt());
    assertEquals(0.5, acc.get("avg_recall").asDouble());
    assertEquals(1.0, acc.get("avg_precision").asDouble());
    String reasons = String.join("\n", s.notScored().stream().map(QueryOutcome::reason).toList());
    assertFalse(reasons.contains("join_queries.sql: query 2"), reasons);
    assertTrue(reasons.contains("select_queries_player.sql: query 1 (line 1): no result.csv at "
        + results.resolve("Player/Select/select_queries_player/1/result.csv")), reasons);
    assertTrue(reasons.contains(ragged + ": not a whole table: line 2: "), reasons);
    assertEquals("NOT_SCORED", json(out.resolve("Player/Select/select_queries_player/2/acc_result/acc.json"))
        .get("status").asText());
  }

  @Test
  void aResultScoredWhereItLiesIsNotCopiedOntoItself() throws IOException {
    Path self = temp.resolve("in-place");
    bench(null, self).run(line -> { });
    Path result = self.resolve("Player/Join/join_queries/2/result.csv");
    Files.copy(self.resolve("Player/Join/join_queries/2/acc_result/gold_result.csv"), result);
    Summary s = bench(self, self).run(line -> { });
    assertEquals(1, s.all().scored());
    assertEquals(1.0, json(self.resolve("Player/Join/join_queries/2/acc_result/acc.json")).get("avg_f1").asDouble());
    assertEquals(91, Files.readAllLines(result).size());
  }

  private static List<ScoredColumn> columns(String... names) {
    return Arrays.stream(names)
        .map(n -> new ScoredColumn(n, n.endsWith("id") ? ColumnRole.KEY : ColumnRole.VALUE, null, null)).toList();
  }

  @Test
  void aQualifiedColumnIsAnsweredByItsBareNameOnlyWhenNoOtherColumnSharesIt() throws Exception {
    assertArrayEquals(new int[] {1, 0}, UdaBench.resultIndex(columns("team.location", "player.id"),
        List.of(" Player.ID ", "location")));
    UdaQuery.Unscorable shared = assertThrows(UdaQuery.Unscorable.class,
        () -> UdaBench.resultIndex(columns("team.id", "player.id"), List.of("id")));
    assertEquals("has no key column 'team.id' (its columns: id)", shared.getMessage());
    UdaQuery.Unscorable value = assertThrows(UdaQuery.Unscorable.class,
        () -> UdaBench.resultIndex(columns("name"), List.of("team", "nickname")));
    assertEquals("has no selected column 'name' (its columns: team, nickname)", value.getMessage());
  }

  @Test
  void theGoldAsAResultIsEveryCellAsTextAndNullsStayNull() {
    Table gold = new Table(List.of("a", "b"), List.of(Arrays.asList(1946L, null), Arrays.asList(2.5, "x")));
    Table text = UdaBench.asText(gold);
    assertEquals(List.of("a", "b"), text.columns());
    assertEquals(List.of(Arrays.asList("1946", null), Arrays.asList("2.5", "x")), text.rows());
  }
}

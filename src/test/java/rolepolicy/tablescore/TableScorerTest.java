package rolepolicy.tablescore;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The scoring rules on hand-made tables, each figure computed by hand. */
class TableScorerTest {
  private static final double EPS = 1e-9;
  private static final TableScorer SCORER = new TableScorer(new NormalisingJudge(1e-6));

  private static final ScoredColumn ID = ScoredColumn.of("id", ColumnRole.KEY);
  private static final ScoredColumn NAME = ScoredColumn.of("name", ColumnRole.VALUE);
  private static final ScoredColumn AGE = ScoredColumn.of("age", ColumnRole.VALUE);
  private static final ScoredColumn GENRE = ScoredColumn.of("genre", ColumnRole.MULTI_VALUE);

  private static List<Object> row(Object... cells) {
    return new ArrayList<>(Arrays.asList(cells));
  }

  private static Table table(List<String> columns, List<List<Object>> rows) {
    return new Table(columns, rows);
  }

  private static int[] identity(int n) {
    int[] index = new int[n];
    for (int i = 0; i < n; i++) {
      index[i] = i;
    }
    return index;
  }

  private static final Table GOLD = table(List.of("id", "name", "age"), List.of(
      row(1L, "Ann", 30L), row(2L, "Bob", 41L), row(3L, "Cid", 52L), row(4L, "Dee", 63L)));

  private static TableScore score(List<ScoredColumn> columns, Table gold, Table result) {
    return SCORER.score(columns, gold, result, identity(columns.size()), false);
  }

  @Test
  void singleValuePrecisionAndRecallWhenRowsAreDropped() {
    // 3 of 4 gold rows, all right: P = 3/3, R = 3/4, F1 = 2·1·0.75 / 1.75 = 6/7
    Table result = table(List.of("id", "name", "age"), List.of(row("1", "Ann", "30"), row("2", "Bob", "41"), row("4", "Dee", "63")));
    TableScore s = score(List.of(ID, NAME, AGE), GOLD, result);
    assertEquals(3, s.matchedRows());
    assertEquals(1.0, s.columns().get(0).precision(), EPS);
    assertEquals(0.75, s.columns().get(0).recall(), EPS);
    assertEquals(6.0 / 7, s.columns().get(0).f1(), EPS);
    assertEquals(6.0 / 7, s.f1(), EPS);
  }

  @Test
  void singleValuePrecisionWhenRowsAreAdded() {
    // 4 right rows and 1 whose id is not in the gold: P = 4/5, R = 4/4
    List<List<Object>> rows = new ArrayList<>(GOLD.rows());
    rows.add(row(9L, "Zed", 99L));
    TableScore s = score(List.of(ID, NAME, AGE), GOLD, table(GOLD.columns(), rows));
    assertEquals(0.8, s.precision(), EPS);
    assertEquals(1.0, s.recall(), EPS);
    assertEquals(2 * 0.8 / 1.8, s.f1(), EPS);
  }

  @Test
  void singleValueCellsAlteredInOneColumn() {
    // name wrong in 1 of 4 rows: name P = R = 0.75; age all right: 1; averages 0.875
    Table result = table(GOLD.columns(), List.of(row(1, "ann", 30), row(2, "Bobby", 41), row(3, "Cid", "52.0"), row(4, " Dee ", "63")));
    TableScore s = score(List.of(ID, NAME, AGE), GOLD, result);
    assertEquals(0.75, s.columns().get(0).precision(), EPS);
    assertEquals(0.75, s.columns().get(0).recall(), EPS);
    assertEquals(1.0, s.columns().get(1).f1(), EPS);
    assertEquals(0.875, s.precision(), EPS);
    assertEquals(0.875, s.f1(), EPS);
  }

  @Test
  void rowsAreMatchedOnTheKeyNotOnTheirOrder() {
    List<List<Object>> reversed = new ArrayList<>(GOLD.rows());
    java.util.Collections.reverse(reversed);
    TableScore s = score(List.of(ID, NAME, AGE), GOLD, table(GOLD.columns(), reversed));
    assertEquals(1.0, s.f1(), EPS);
    assertEquals(GOLD.rows(), s.matchedGold());
  }

  @Test
  void multiValuePrecisionAndRecallOverTheValuesOfACell() {
    Table gold = table(List.of("id", "genre"), List.of(row(1L, "Painting||Sculpture"), row(2L, "a||b||c")));
    // row 1 reordered: cell P = R = 1; row 2 "a||x": 1 of 2 values right (P 1/2), 1 of 3 found (R 1/3)
    Table result = table(List.of("id", "genre"), List.of(row("1", "sculpture || Painting"), row("2", "a||x")));
    TableScore s = score(List.of(ID, GENRE), gold, result);
    assertEquals((1 + 0.5) / 2, s.precision(), EPS);
    assertEquals((1 + 1.0 / 3) / 2, s.recall(), EPS);
  }

  @Test
  void multiValueRepeatedResultValueCountsOnce() {
    Table gold = table(List.of("id", "genre"), List.of(row(1L, "a||b")));
    Table result = table(List.of("id", "genre"), List.of(row(1L, "a||a")));
    TableScore s = score(List.of(ID, GENRE), gold, result);
    assertEquals(0.5, s.precision(), EPS);
    assertEquals(0.5, s.recall(), EPS);
  }

  @Test
  void aggregateRelativeErrorScores() {
    ScoredColumn group = ScoredColumn.of("city", ColumnRole.KEY);
    ScoredColumn avg = ScoredColumn.of("avg_age", ColumnRole.AGGREGATE);
    Table gold = table(List.of("city", "avg_age"), List.of(row("Oslo", 100.0), row("Rome", 40.0), row("Bern", 0L), row("Nice", 0L)));
    // +10 % → 1/1.1; −50 % → 1/1.5; gt 0 and 0 → 1; gt 0 and 2 → 1/(1+2)
    Table result = table(List.of("city", "avg_age"), List.of(row("oslo", "110"), row("Rome", "20"), row("Bern", "0"), row("Nice", "2")));
    TableScore s = score(List.of(group, avg), gold, result);
    double expected = (1 / 1.1 + 1 / 1.5 + 1 + 1 / 3.0) / 4;
    assertEquals(expected, s.precision(), EPS);
    assertEquals(expected, s.recall(), EPS);
    assertEquals(expected, s.f1(), EPS);
  }

  @Test
  void aggregateMissingGroupCountsAgainstTheLargerRowCount() {
    ScoredColumn group = ScoredColumn.of("city", ColumnRole.KEY);
    ScoredColumn count = ScoredColumn.of("n", ColumnRole.AGGREGATE);
    Table gold = table(List.of("city", "n"), List.of(row("Oslo", 4L), row("Rome", 2L)));
    Table result = table(List.of("city", "n"), List.of(row("Oslo", "4"), row("Paris", "9"), row("Lima", "1")));
    // one matched group scores 1; over max(2, 3) rows: 1/3
    TableScore s = score(List.of(group, count), gold, result);
    assertEquals(1.0 / 3, s.f1(), EPS);
  }

  @Test
  void joinRowsAreMatchedOnAllTheirTablesIds() {
    ScoredColumn playerId = ScoredColumn.of("player.id", ColumnRole.KEY);
    ScoredColumn teamId = ScoredColumn.of("team.id", ColumnRole.KEY);
    ScoredColumn city = ScoredColumn.of("team.city", ColumnRole.VALUE);
    Table gold = table(List.of("player.id", "team.id", "team.city"), List.of(row(1L, 10L, "Oslo"), row(2L, 10L, "Oslo"), row(3L, 11L, "Rome")));
    // player 2 joined to the wrong team: that row matches no gold row
    Table result = table(gold.columns(), List.of(row("1", "10", "Oslo"), row("2", "11", "Rome"), row("3", "11", "Rome")));
    TableScore s = score(List.of(playerId, teamId, city), gold, result);
    assertEquals(2, s.matchedRows());
    assertEquals(2.0 / 3, s.precision(), EPS);
    assertEquals(2.0 / 3, s.recall(), EPS);
  }

  @Test
  void multiEntityRowsAreMatchedOnTheEntityKeyWithinOneId() {
    ScoredColumn entity = ScoredColumn.of("generic_name", ColumnRole.KEY);
    ScoredColumn form = ScoredColumn.of("form", ColumnRole.VALUE);
    Table gold = table(List.of("id", "generic_name", "form"), List.of(row(7L, "Aspirin", "tablet"), row(7L, "Ibuprofen", "capsule")));
    Table result = table(gold.columns(), List.of(row("7", "Ibuprofen", "capsule"), row("7", "Aspirin", "syrup")));
    TableScore s = score(List.of(ID, entity, form), gold, result);
    assertEquals(0.5, s.f1(), EPS);
    assertEquals(List.of(), s.warnings());
  }

  @Test
  void repeatedKeysArePairedInValueOrderWithAWarning() {
    Table gold = table(List.of("id", "name"), List.of(row(7L, "b"), row(7L, "a")));
    Table result = table(List.of("id", "name"), List.of(row("7", "a"), row("7", "b")));
    TableScore s = score(List.of(ID, NAME), gold, result);
    assertEquals(1.0, s.f1(), EPS);
    assertEquals(1, s.warnings().size());
  }

  @Test
  void emptyTables() {
    Table empty = table(GOLD.columns(), List.of());
    assertEquals(1.0, score(List.of(ID, NAME, AGE), empty, empty).f1(), EPS);
    assertEquals(0.0, score(List.of(ID, NAME, AGE), GOLD, empty).f1(), EPS);
    assertEquals(0.0, score(List.of(ID, NAME, AGE), empty, GOLD).f1(), EPS);
  }

  @Test
  void aMissingResultColumnScoresZero() {
    TableScore s = SCORER.score(List.of(ID, NAME, AGE), GOLD, GOLD, new int[] {0, 1, -1}, false);
    assertEquals(1.0, s.columns().get(0).f1(), EPS);
    assertEquals(0.0, s.columns().get(1).f1(), EPS);
    assertEquals(0.5, s.f1(), EPS);
  }

  @Test
  void withoutKeysColumnsAreComparedAsMultisets() {
    Table gold = table(List.of("name", "age"), List.of(row("Ann", 30L), row("Bob", 30L), row("Cid", 52L)));
    Table result = table(List.of("name", "age"), List.of(row("Cid", 30L), row("Ann", 30L), row("Bob", 30L)));
    TableScore s = SCORER.score(List.of(NAME, AGE), gold, result, identity(2), false);
    assertEquals(1.0, s.columns().get(0).f1(), EPS);
    // ages {30, 30, 52} against {30, 30, 30}: 2 in common
    assertEquals(2.0 / 3, s.columns().get(1).precision(), EPS);
    assertEquals(2.0 / 3, s.columns().get(1).recall(), EPS);
  }

  @Test
  void withoutKeysAnOrderedGoldIsComparedPositionByPosition() {
    Table gold = table(List.of("name"), List.of(row("Ann"), row("Bob"), row("Cid")));
    Table result = table(List.of("name"), List.of(row("Bob"), row("Ann"), row("Cid")));
    assertEquals(1.0 / 3, SCORER.score(List.of(NAME), gold, result, identity(1), true).f1(), EPS);
    assertEquals(1.0, SCORER.score(List.of(NAME), gold, result, identity(1), false).f1(), EPS);
  }

  @Test
  void aTableOfKeysOnlyIsScoredOnItsRows() {
    Table gold = table(List.of("id"), List.of(row(1L), row(2L)));
    Table result = table(List.of("id"), List.of(row("2"), row("3"), row("4")));
    TableScore s = SCORER.score(List.of(ID), gold, result, identity(1), false);
    assertEquals(TableScorer.ROWS, s.columns().get(0).column());
    assertEquals(1.0 / 3, s.precision(), EPS);
    assertEquals(0.5, s.recall(), EPS);
  }

  @Test
  void bothEmptyScoreOneOrZeroByTheReadings() {
    Table empty = table(List.of("id", "name"), List.of());
    TableScore ours = score(List.of(ID, NAME), empty, empty);
    assertEquals(1.0, ours.f1(), EPS);
    // the authors' evaluator: P = right / result rows = 0/0, counted 0
    TableScore authors = new TableScorer(new NormalisingJudge(1e-6), Readings.AUTHORS)
        .score(List.of(ID, NAME), empty, empty, identity(2), false);
    assertEquals(0.0, authors.precision(), EPS);
    assertEquals(0.0, authors.recall(), EPS);
    assertEquals(0.0, authors.f1(), EPS);
    // without keys, and with keys only, alike
    assertEquals(0.0, new TableScorer(new NormalisingJudge(1e-6), Readings.AUTHORS)
        .score(List.of(NAME), table(List.of("name"), List.of()), table(List.of("name"), List.of()), identity(1), false).f1(), EPS);
    assertEquals(0.0, new TableScorer(new NormalisingJudge(1e-6), Readings.AUTHORS)
        .score(List.of(ID), table(List.of("id"), List.of()), table(List.of("id"), List.of()), identity(1), false).f1(), EPS);
    assertEquals(1.0, score(List.of(ID), table(List.of("id"), List.of()), table(List.of("id"), List.of())).f1(), EPS);
  }

  @Test
  void rowsSharingAnIdArePairedInValueOrderOrFileOrder() {
    // two entities of document 1, listed in the other order by the result
    Table gold = table(List.of("id", "name"), List.of(row(1L, "Ann"), row(1L, "Bob")));
    Table result = table(List.of("id", "name"), List.of(row("1", "Bob"), row("1", "Ann")));
    TableScore ours = score(List.of(ID, NAME), gold, result);
    assertEquals(1.0, ours.f1(), EPS);
    assertEquals(List.of("1 key value(s) repeat among the matched rows; rows sharing a key are paired in the order of their values"),
        ours.warnings());
    // file order: Ann with Bob, Bob with Ann, both wrong
    TableScore authors = new TableScorer(new NormalisingJudge(1e-6), Readings.AUTHORS)
        .score(List.of(ID, NAME), gold, result, identity(2), false);
    assertEquals(0.0, authors.f1(), EPS);
    assertEquals(List.of("1 key value(s) repeat among the matched rows; rows sharing a key are paired in file order"),
        authors.warnings());
  }
}

package rolepolicy.tablescore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rolepolicy.TestData;
import rolepolicy.db.Execution;
import rolepolicy.io.InputException;

/** The ground truth of real UDA-Bench datasets loaded into DuckDB, each column by its value type. */
class GroundTruthTest {
  @TempDir Path temp;

  private static GroundTruth load(Path dataset, List<String> aliases) {
    Path attributes = dataset.resolve(dataset.getFileName() + "_attributes.json");
    return GroundTruth.load(dataset, Attributes.read(attributes), aliases, 60);
  }

  private static List<Object> row(GroundTruth truth, String sql) {
    Execution e = truth.query(sql);
    assertEquals(Execution.Status.OK, e.status(), e.message());
    assertEquals(1, e.rows().size(), sql);
    return e.rows().get(0);
  }

  @Test
  void finansIntColumnsWithFractionsAreWidenedAndTextInANumberColumnIsNullAndCounted() {
    try (GroundTruth truth = load(TestData.udaDir().resolve("Finan"), List.of("Finance", "finance", "Finan"))) {
      assertEquals(Map.of("Finan", Map.of("bussiness_profit", 1, "cash_reserves", 1, "net_assets", 1,
          "net_profit_or_loss", 1, "total_assets", 1)), truth.widened());
      assertEquals(Map.of("Finan", Map.of("bussiness_cost", 1, "bussiness_sales", 1, "total_Debt", 1)),
          truth.castFailures());
      // row 71: the document's decimals kept; an int column without fractions stays whole
      assertEquals(List.of(525804201.3, 269867906.4), row(truth,
          "SELECT bussiness_profit, net_assets FROM Finance WHERE id = 71"));
      assertEquals(Long.class, row(truth, "SELECT revenue FROM finance WHERE id = 71").get(0).getClass());
      assertEquals(Arrays.asList((Object) null), row(truth,
          "SELECT total_Debt FROM Finan WHERE total_Debt IS NULL AND company_name IS NOT NULL LIMIT 1"));
      assertEquals(List.of(100L), row(truth, "SELECT count(*) FROM Finance"), "the alias reads the one file");
      assertEquals(truth.columnsOf("Finan"), truth.columnsOf("FINANCE"));
      assertEquals("company_name", truth.columnsOf("finance").get(0));
      assertNull(truth.columnsOf("player"));
    }
  }

  /** The cell of a gold result in the row whose {@code id} is {@code id}. */
  private static Object cell(Execution gold, String id, String column) {
    int key = gold.columns().indexOf("id");
    int at = gold.columns().indexOf(column);
    return gold.rows().stream().filter(r -> id.equals(r.get(key))).findFirst().orElseThrow().get(at);
  }

  @Test
  void aGoldResultShowsTheTextOfAProseCellWhereTheQuerySelectsItAsAValue() throws Exception {
    Path finan = TestData.udaDir().resolve("Finan");
    Attributes attributes = Attributes.read(finan.resolve("Finan_attributes.json"));
    try (GroundTruth truth = load(finan, List.of("Finance", "finance"))) {
      Execution gold = truth.gold(UdaQuery.analyse("SELECT dividend_per_share, bussiness_profit, total_Debt FROM Finance"
          + " WHERE dividend_per_share < 0.40 AND earnings_per_share >= 0.49", KeyColumns.none(), attributes, truth));
      assertEquals("0 (excluding IFRS 16 lease liabilities of 45383790 and 538680 bank overdraft)", cell(gold, "71", "total_Debt"));
      assertEquals(525804201.3, cell(gold, "71", "bussiness_profit"), "a number stays a number");
      // rows 36 and 42: prose in bussiness_cost (36) and bussiness_sales (42); each row shows its own
      // text, a blank cell stays NULL, a number stays a number
      Execution costs = truth.gold(UdaQuery.analyse("SELECT bussiness_cost, bussiness_sales FROM finance",
          KeyColumns.none(), attributes, truth));
      assertEquals("Research and development: $4,749,000; General and administrative: $5,847,000",
          cell(costs, "36", "bussiness_cost"));
      assertNull(cell(costs, "36", "bussiness_sales"));
      assertEquals(321832000L, cell(costs, "42", "bussiness_cost"));
      assertEquals("Clinical Services: $418,754,000; Pharma Services: $90,974,000", cell(costs, "42", "bussiness_sales"));
      // to the query the cell is still no number: a filter on it leaves the row out, an aggregate skips it
      assertEquals(0, truth.gold(UdaQuery.analyse("SELECT company_name FROM finance WHERE total_Debt >= 0 AND id = '71'",
          KeyColumns.none(), attributes, truth)).rows().size());
      Execution max = truth.gold(UdaQuery.analyse("SELECT MAX(total_Debt) FROM finance WHERE id = '71'",
          KeyColumns.none(), attributes, truth));
      assertEquals(Arrays.asList((Object) null), max.rows().get(0), "an aggregate of the prose is NULL, not its text");
    }
  }

  @Test
  void aDatasetOfSeveralFilesNamesEachTableByItsFileAndMakesNoAliases() {
    try (GroundTruth truth = load(TestData.udaDir().resolve("Player"), List.of("players"))) {
      assertEquals(List.of("team_name", "founded_year", "location", "ownership", "championship", "ID"),
          truth.columnsOf("team"));
      assertNull(truth.columnsOf("players"));
      assertEquals(Execution.Status.ERROR, truth.query("SELECT * FROM players").status());
      assertEquals(List.of(1946L), row(truth, "SELECT founded_year FROM team WHERE team_name = 'Atlanta Hawks'"));
      assertEquals(Map.of(), truth.widened());
    }
  }

  @Test
  void thousandsSeparatorsAreDroppedAndBlankCellsAreNull() throws IOException {
    Path dataset = Files.createDirectories(temp.resolve("Shop"));
    Files.writeString(dataset.resolve("shop.csv"), "id,price,size,name\n1,\"1,250\",2.5,  Ann \n2, ,x,\n");
    Files.writeString(dataset.resolve("Shop_attributes.json"), """
        {"shop": {"price": {"value_type": "int", "description": "price"},
                  "size": {"value_type": "float", "description": "size"},
                  "name": {"value_type": "str", "description": "name"}}}""");
    try (GroundTruth truth = load(dataset, List.of())) {
      assertEquals(List.of(1250L, 2.5, "Ann", "1"), row(truth, "SELECT price, size, name, id FROM shop WHERE id = '1'"));
      assertEquals(Arrays.asList(null, null, null), row(truth, "SELECT price, size, name FROM shop WHERE id = '2'"));
      assertEquals(Map.of("shop", Map.of("size", 1)), truth.castFailures(), "a blank cell is no failure, 'x' is");
    }
  }

  @Test
  void aFolderWithoutCsvOrWithABrokenOneIsNamed() throws IOException {
    Path empty = Files.createDirectories(temp.resolve("Empty"));
    Files.writeString(empty.resolve("Empty_attributes.json"), "{\"t\": {}}");
    InputException none = assertThrows(InputException.class, () -> load(empty, List.of()));
    assertEquals(empty + ": no ground-truth CSV file", none.getMessage());

    Path broken = Files.createDirectories(temp.resolve("Broken"));
    Files.writeString(broken.resolve("Broken_attributes.json"), "{\"t\": {}}");
    Files.write(broken.resolve("t.csv"), new byte[] {'a', ',', 'b', '\n', '"', 'x', '\n', 'y', ',', 'z', '\n'});
    InputException bad = assertThrows(InputException.class, () -> load(broken, List.of()));
    assertTrue(bad.getMessage().startsWith(broken.resolve("t.csv") + ": not a readable CSV file: "), bad.getMessage());
    assertTrue(!bad.getMessage().contains("\n"), "the first line of DuckDB's message only");
  }
}

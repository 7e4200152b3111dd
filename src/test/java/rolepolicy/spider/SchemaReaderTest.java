package rolepolicy.spider;

import rolepolicy.io.InputException;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rolepolicy.model.SchemaColumn;

class SchemaReaderTest {
  @TempDir Path dir;

  private Path tables(String tableNames, String columnNames) throws IOException {
    Path file = dir.resolve("tables.json");
    Files.writeString(
        file,
        "[{\"db_id\": \"schools\", \"table_names_original\": " + tableNames
            + ", \"column_names_original\": " + columnNames
            + ", \"column_types\": [\"text\", \"text\", \"real\", \"text\"],"
            + " \"primary_keys\": [1], \"foreign_keys\": []}]");
    return file;
  }

  @Test
  void namesWithSpacesParenthesesAndMixedCaseAreReadAsWritten() throws IOException {
    Map<String, Schema> schemas =
        SchemaReader.read(
            tables(
                "[\"frpm\", \"Player Attributes\"]",
                "[[-1, \"*\"], [0, \"CDSCode\"], [0, \"Free Meal Count (K-12)\"],"
                    + " [1, \"CDSCode\"]]"));
    Schema schema = schemas.get("schools");
    assertEquals(List.of("frpm", "Player Attributes"), schema.tables());
    assertEquals(
        List.of("frpm.cdscode", "frpm.free meal count (k-12)", "player attributes.cdscode"),
        schema.realColumns().stream().map(SchemaColumn::key).toList());
    assertEquals("real", schema.columnByKey("FRPM.Free Meal Count (K-12)").orElseThrow().type());
    assertTrue(schema.column(1).primaryKey());
  }

  @Test
  void aColumnNamedTwiceInOneTableIsRefusedWithBothPlaces() throws IOException {
    Path file =
        tables(
            "[\"frpm\"]",
            "[[-1, \"*\"], [0, \"CDSCode\"], [0, \"Free Meal Count (K-12)\"],"
                + " [0, \"free meal count (k-12)\"]]");
    InputException e = assertThrows(InputException.class, () -> SchemaReader.read(file));
    assertEquals(
        file + ": database #1 (schools): column_names_original[3] 'free meal count (k-12)' repeats"
            + " column_names_original[2] 'Free Meal Count (K-12)' of table frpm (names are compared"
            + " ignoring case)",
        e.getMessage());
  }

  @Test
  void aTableNamedTwiceIsRefused() throws IOException {
    Path file = tables("[\"frpm\", \"FRPM\"]", "[[-1, \"*\"], [0, \"a\"], [1, \"b\"], [1, \"c\"]]");
    InputException e = assertThrows(InputException.class, () -> SchemaReader.read(file));
    assertEquals(
        file + ": database #1 (schools): table_names_original[1] 'FRPM' repeats"
            + " table_names_original[0] 'frpm' (names are compared ignoring case)",
        e.getMessage());
  }

  @Test
  void theSameColumnNameInTwoTablesIsFine() throws IOException {
    Schema schema =
        SchemaReader.read(tables("[\"a\", \"b\"]", "[[-1, \"*\"], [0, \"id\"], [1, \"ID\"], [1, \"x\"]]"))
            .get("schools");
    assertEquals(3, schema.realColumns().size());
  }
}

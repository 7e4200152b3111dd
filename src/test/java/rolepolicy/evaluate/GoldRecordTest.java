package rolepolicy.evaluate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Map;
import org.junit.jupiter.api.Test;
import rolepolicy.io.InputException;

/** What the evaluator takes of a generated record, and a record that lacks it named with its field. */
class GoldRecordTest {
  private static GoldRecord of(String json) throws Exception {
    return GoldRecord.of(new ObjectMapper().readTree(json), "dev.json: record #1");
  }

  private static String error(String json) {
    return assertThrows(InputException.class, () -> of(json)).getMessage();
  }

  @Test
  void answeredAndRefusedRecordsAreRead() throws Exception {
    assertEquals(new GoldRecord("dev_0001", "s", false, "SELECT AVG(x) FROM t", "SELECT x FROM t", Map.of("t.x", "AggOnly"), "Mean x?"),
        of("{\"id\": \"dev_0001\", \"db_id\": \"s\", \"question\": \"Mean x?\", \"original_sql\": \"SELECT x FROM t\","
            + " \"column_policies\": {\"t.x\": \"AggOnly\"}, \"gold_label\": {\"type\": \"SQL\", \"sql\": \"SELECT AVG(x) FROM t\"}}"));
    assertEquals(new GoldRecord("dev_0002", "s", true, null, "SELECT y FROM t", Map.of(), null),
        of("{\"id\": \"dev_0002\", \"db_id\": \"s\", \"original_sql\": \"SELECT y FROM t\", \"column_policies\": {},"
            + " \"gold_label\": {\"type\": \"REFUSE\"}}"));
  }

  @Test
  void aMissingFieldIsNamed() {
    assertEquals("dev.json: record #1: missing text field 'id'", error("{\"db_id\": \"s\"}"));
    assertEquals("dev.json: record #1 (d1): gold_label.type must be SQL or REFUSE",
        error("{\"id\": \"d1\", \"gold_label\": {\"type\": \"MAYBE\"}}"));
    assertEquals("dev.json: record #1 (d1): missing object field 'column_policies'",
        error("{\"id\": \"d1\", \"gold_label\": {\"type\": \"SQL\"}, \"column_policies\": []}"));
    assertEquals("dev.json: record #1 (d1) gold_label: missing text field 'sql'",
        error("{\"id\": \"d1\", \"db_id\": \"s\", \"gold_label\": {\"type\": \"SQL\"}, \"column_policies\": {}}"));
  }
  @Test
  void aSplitNamesTheRecordThatRepeatsAnIdAndTheOneItRepeats(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
      throws Exception {
    String record = "{\"id\": \"%s\", \"db_id\": \"s\", \"original_sql\": \"SELECT y FROM t\","
        + " \"column_policies\": {}, \"gold_label\": {\"type\": \"REFUSE\"}}";
    java.nio.file.Path split = java.nio.file.Files.writeString(dir.resolve("dev.json"),
        "[" + String.join(",", record.formatted("a"), record.formatted("b"), record.formatted("c"), record.formatted("b")) + "]");
    assertEquals(split + ": record #4 repeats the id 'b' of record #2; predictions are matched to records by id",
        assertThrows(InputException.class, () -> Evaluator.readDataset(split)).getMessage());
    java.nio.file.Files.writeString(split, "[" + record.formatted("a") + ", {\"id\": \"d\"}]");
    assertEquals(split + ": record #2 (d): gold_label.type must be SQL or REFUSE",
        assertThrows(InputException.class, () -> Evaluator.readDataset(split)).getMessage());
  }
}

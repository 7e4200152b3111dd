package rolepolicy.evaluate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import org.junit.jupiter.api.Test;
import rolepolicy.io.InputException;

class ReferencePredictionsTest {
  /** Three records as generate writes them: answered with a negative, refused, answered without one. */
  private static JsonNode records() throws Exception {
    return new ObjectMapper().readTree("""
        [{"id": "dev_0001", "original_sql": "SELECT a FROM t", "gold_label": {"type": "SQL", "sql": "SELECT a FROM t"},
          "negative_examples": [{"sql": "SELECT a, b FROM t"}]},
         {"id": "dev_0002", "original_sql": "SELECT age FROM t", "gold_label": {"type": "REFUSE", "reason": "R3"},
          "negative_examples": []},
         {"id": "dev_0003", "original_sql": "SELECT s FROM t", "gold_label": {"type": "SQL", "sql": "SELECT AVG(s) FROM t"},
          "negative_examples": []}]""");
  }

  private static List<String> predictions(String source) throws Exception {
    return ReferencePredictions.of(records(), ReferencePredictions.Source.of(source), "dev.json").stream()
        .map(p -> p.id() + " " + p.prediction()).toList();
  }

  @Test
  void eachSourceTakesItsField() throws Exception {
    assertEquals(List.of("dev_0001 SELECT a FROM t", "dev_0002 SELECT age FROM t", "dev_0003 SELECT s FROM t"),
        predictions("original"));
    assertEquals(List.of("dev_0001 SELECT a FROM t", "dev_0002 REFUSE", "dev_0003 SELECT AVG(s) FROM t"),
        predictions("GOLD"));
    assertEquals(List.of("dev_0001 SELECT a, b FROM t", "dev_0002 SELECT age FROM t", "dev_0003 SELECT s FROM t"),
        predictions("negative"));
    assertEquals(List.of("dev_0001 REFUSE", "dev_0002 REFUSE", "dev_0003 REFUSE"), predictions("refuse"));
  }

  @Test
  void anUnknownSourceOrARecordWithoutIdIsBadInput() throws Exception {
    assertEquals("unknown source 'best': original, gold, negative or refuse",
        assertThrows(InputException.class, () -> ReferencePredictions.Source.of("best")).getMessage());
    JsonNode noId = new ObjectMapper().readTree("[{\"id\": \"dev_0001\"}, {\"question\": \"q\"}]");
    assertEquals("dev.json: record #2 has no id: not a generated split", assertThrows(InputException.class,
        () -> ReferencePredictions.of(noId, ReferencePredictions.Source.ORIGINAL, "dev.json")).getMessage());
  }
}

package rolepolicy.evaluate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rolepolicy.io.InputException;

/** Predictions read in either format, aligned with the dataset, and every misalignment an error that says where. */
class PredictionReaderTest {
  @TempDir Path dir;

  private static final List<GoldRecord> DATASET = List.of(
      new GoldRecord("dev_0001", "concert_singer", false, "SELECT a FROM t", "SELECT a FROM t", Map.of()),
      new GoldRecord("dev_0002", "concert_singer", true, null, "SELECT age FROM t", Map.of()),
      new GoldRecord("dev_0003", "concert_singer", false, "SELECT b FROM t", "SELECT b FROM t", Map.of()));

  private List<String> read(String name, String text) throws Exception {
    return PredictionReader.read(Files.writeString(dir.resolve(name), text), DATASET);
  }

  private String error(String name, String text) {
    return assertThrows(InputException.class, () -> read(name, text)).getMessage();
  }

  @Test
  void oneLinePerRecordInDatasetOrder() throws Exception {
    assertEquals(List.of("SELECT a FROM t", "REFUSE", ""), read("preds.txt", "SELECT a FROM t\nREFUSE\n\n"));
    assertEquals(List.of("SELECT a FROM t", "REFUSE", "x"), read("bom.txt", "\uFEFFSELECT a FROM t\nREFUSE\nx\n"));
    assertEquals(dir.resolve("short.txt") + ": 2 prediction lines for 3 dataset records; give one line per record, in dataset"
        + " order (an empty line is an empty prediction)", error("short.txt", "SELECT 1\nSELECT 2\n"));
  }

  @Test
  void jsonLinesAreMatchedById() throws Exception {
    String lines = "{\"id\": \"dev_0003\", \"prediction\": \"SELECT b FROM t\"}\n\n"
        + "{\"id\": \"dev_0001\", \"prediction\": \"SELECT a FROM t\"}\n{\"id\": \"dev_0002\", \"prediction\": \"REFUSE\"}\n";
    List<String> expected = List.of("SELECT a FROM t", "REFUSE", "SELECT b FROM t");
    assertEquals(expected, read("p.jsonl", lines));
    assertEquals(expected, read("p.txt", lines), "JSON Lines by their first line, whatever the file's name");
  }

  @Test
  void aMisalignedJsonLinesFileSaysWhere() {
    Path file = dir.resolve("p.jsonl");
    assertEquals(file + ": line 1: malformed JSON: Unexpected character ('x' (code 120)): was expecting double-quote to start field name",
        error("p.jsonl", "{x}\n"));
    assertEquals(file + ": line 1: expected {\"id\": \"...\", \"prediction\": \"...\"}", error("p.jsonl", "{\"id\": 1, \"prediction\": \"x\"}\n"));
    assertEquals(file + ": line 1: expected {\"id\": \"...\", \"prediction\": \"...\"}", error("p.jsonl", "{\"id\": \"dev_0001\"}\n"));
    assertEquals(file + ": line 2: id 'dev_9999' is not in the dataset",
        error("p.jsonl", "{\"id\": \"dev_0001\", \"prediction\": \"x\"}\n{\"id\": \"dev_9999\", \"prediction\": \"x\"}\n"));
    assertEquals(file + ": line 2: id 'dev_0001' is predicted twice",
        error("p.jsonl", "{\"id\": \"dev_0001\", \"prediction\": \"x\"}\n{\"id\": \"dev_0001\", \"prediction\": \"y\"}\n"));
    assertEquals(file + ": no prediction for 2 dataset record(s): dev_0002, dev_0003",
        error("p.jsonl", "{\"id\": \"dev_0001\", \"prediction\": \"x\"}\n"));
    assertEquals(dir.resolve("absent.jsonl") + ": cannot read predictions (no such file or folder)",
        assertThrows(InputException.class, () -> PredictionReader.read(dir.resolve("absent.jsonl"), DATASET)).getMessage());
  }
}

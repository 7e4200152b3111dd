package rolepolicy.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import rolepolicy.io.DatasetWriter;
import rolepolicy.generate.SpiderRun;

/** predictions on Spider dev's generated records, and every command's help printed without a warning. */
class PredictionsCommandTest {
  @TempDir Path dir;

  private static int run(StringWriter out, StringWriter err, String... args) {
    return Main.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
  }

  private Path devRecords() throws Exception {
    Path file = dir.resolve("dev.json");
    DatasetWriter.JSON.writeValue(file.toFile(), SpiderRun.records("dev", "dev.json"));
    return file;
  }

  private List<JsonNode> predictions(Path dataset, String from) throws Exception {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    Path folder = dir.resolve(from);
    assertEquals(0, run(out, err, "predictions", "--dataset", dataset.toString(), "--from", from, "--out", folder.toString()),
        err.toString());
    assertTrue(out.toString().startsWith("1034 predictions (" + from + ")"), out.toString());
    List<JsonNode> lines = Files.readAllLines(folder.resolve("predictions.jsonl")).stream().map(line -> {
      try {
        return DatasetWriter.JSON.readTree(line);
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    }).toList();
    assertEquals(1034, lines.size());
    return lines;
  }

  @Test
  void eachSourceTakesItsFieldOfEveryRecord() throws Exception {
    Path dataset = devRecords();
    JsonNode records = DatasetWriter.JSON.readTree(dataset.toFile());
    List<JsonNode> original = predictions(dataset, "original");
    List<JsonNode> gold = predictions(dataset, "gold");
    List<JsonNode> negative = predictions(dataset, "negative");
    List<JsonNode> refuse = predictions(dataset, "refuse");
    int refused = 0;
    int withNegative = 0;
    for (int i = 0; i < records.size(); i++) {
      JsonNode r = records.get(i);
      assertEquals(r.get("id").asText(), original.get(i).get("id").asText());
      assertEquals(r.get("original_sql").asText(), original.get(i).get("prediction").asText());
      boolean isRefuse = r.at("/gold_label/type").asText().equals("REFUSE");
      refused += isRefuse ? 1 : 0;
      assertEquals(isRefuse ? "REFUSE" : r.at("/gold_label/sql").asText(), gold.get(i).get("prediction").asText());
      boolean hasNegative = r.path("negative_examples").size() > 0;
      withNegative += hasNegative ? 1 : 0;
      assertEquals(hasNegative ? r.at("/negative_examples/0/sql").asText() : r.get("original_sql").asText(),
          negative.get(i).get("prediction").asText());
      assertEquals("REFUSE", refuse.get(i).get("prediction").asText());
    }
    assertTrue(refused > 200 && withNegative > 500, refused + " REFUSE, " + withNegative + " negatives");
  }

  @Test
  void anUnknownSourceIsBadInput() throws Exception {
    StringWriter err = new StringWriter();
    assertEquals(2, run(new StringWriter(), err, "predictions", "--dataset", devRecords().toString(), "--from", "best",
        "--out", dir.resolve("x").toString()));
    assertEquals("--from must be original, gold, negative or refuse, not 'best'", err.toString().lines().findFirst().orElse(""));
    assertTrue(Files.notExists(dir.resolve("x")));
  }

  @Test
  void everyCommandsHelpPrintsWithoutAWarning() {
    CommandLine cli = Main.commandLine();
    for (String name : cli.getSubcommands().keySet()) {
      StringWriter out = new StringWriter();
      StringWriter err = new StringWriter();
      java.io.PrintStream stderr = System.err;
      java.io.ByteArrayOutputStream warnings = new java.io.ByteArrayOutputStream();
      System.setErr(new java.io.PrintStream(warnings, true));
      try {
        assertEquals(0, run(out, err, name, "--help"), name + ": " + err);
      } finally {
        System.setErr(stderr);
      }
      assertEquals("", warnings.toString() + err, name + "'s help");
      assertTrue(out.toString().startsWith("Usage: rolepolicy " + name), out.toString());
    }
  }
}

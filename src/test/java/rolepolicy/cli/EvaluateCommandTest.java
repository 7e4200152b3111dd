package rolepolicy.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import rolepolicy.TestData;
import rolepolicy.generate.SpiderRun;

/** The evaluate command on odd predictions: each a per-question outcome or a clear error. */
class EvaluateCommandTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;
  Path dataset;

  record Result(int code, String out, String err) {}

  @BeforeEach
  void firstThreeDevRecords() throws IOException {
    JsonNode dev = SpiderRun.records("dev", "dev.json");
    var three = JSON.createArrayNode().add(dev.get(0)).add(dev.get(1)).add(dev.get(2));
    dataset = dir.resolve("dev.json");
    JSON.writeValue(dataset.toFile(), three); // dev_0001, dev_0002: SQL; dev_0003: REFUSE
  }

  private Result evaluate(String predictions, String... extra) throws IOException {
    Path pred = dir.resolve(predictions.startsWith("{") ? "pred.jsonl" : "pred.txt");
    Files.writeString(pred, predictions);
    List<String> args = new java.util.ArrayList<>(List.of(
        "evaluate", "--dataset", dataset.toString(), "--pred", pred.toString(),
        "--tables", TestData.spiderDir().resolve("tables.json").toString(), "--out", dir.resolve("out").toString()));
    args.addAll(List.of(extra));
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = Main.run(args.toArray(String[]::new), new PrintWriter(out, true), new PrintWriter(err, true));
    return new Result(code, out.toString(), err.toString());
  }

  private List<JsonNode> perQuestion() throws IOException {
    return Files.readAllLines(dir.resolve("out/per_question.jsonl")).stream().map(l -> {
      try {
        return JSON.readTree(l);
      } catch (IOException e) {
        throw new IllegalStateException(e);
      }
    }).toList();
  }

  @Test
  void textThatIsNotSqlAndAnEmptyLineAreNonCompliantAnswers() throws IOException {
    Result r = evaluate("how many singers are there?\n\nREFUSE\n");
    assertEquals(0, r.code(), r.err());
    List<JsonNode> q = perQuestion();
    assertEquals("NON_COMPLIANT", q.get(0).get("outcome").asText());
    assertFalse(q.get(0).get("analysis").asText().equals("OK"));
    assertEquals("EMPTY", q.get(1).get("prediction").asText());
    assertEquals("NON_COMPLIANT", q.get(1).get("outcome").asText());
    assertEquals("CORRECT_REFUSE", q.get(2).get("outcome").asText());
    JsonNode metrics = JSON.readTree(dir.resolve("out/metrics.json").toFile());
    assertEquals(2, metrics.at("/predictors/model/compliance/unanalysable").asInt());
    assertTrue(r.out().contains("not computed: execution match and the reliability score"), r.out());
  }

  @Test
  void aMissingDatabaseIsAPerQuestionOutcome() throws IOException {
    Files.createDirectories(dir.resolve("empty-db"));
    Result r = evaluate("SELECT count(*) FROM singer\nSELECT count(*) FROM singer\nREFUSE\n",
        "--db", dir.resolve("empty-db").toString());
    assertEquals(0, r.code(), r.err());
    JsonNode first = perQuestion().get(0);
    assertEquals("NO_DATABASE", first.get("execution").asText());
    assertEquals("UNDECIDED", first.get("outcome").asText());
    assertTrue(first.get("execution_detail").asText().contains("concert_singer.sqlite"));
  }

  @Test
  void compliantSqlThatMatchesTheGoldScoresOne() throws IOException {
    Result r = evaluate("SELECT count(*) FROM singer\nSELECT count(*) FROM singer\nREFUSE\n",
        "--db", TestData.spiderDir().resolve("database").toString());
    assertEquals(0, r.code(), r.err());
    JsonNode metrics = JSON.readTree(dir.resolve("out/metrics.json").toFile());
    assertEquals(1.0, metrics.at("/predictors/model/reliability/rs_n").asDouble());
    assertEquals("CORRECT_ANSWER", perQuestion().get(0).get("outcome").asText());
  }

  @Test
  void exactMatchAndHardnessAppearInTheTableMetricsAndEachQuestion() throws IOException {
    // dev_0001 and dev_0002: gold "SELECT count(*) FROM singer" (easy); dev_0003: gold REFUSE
    Result r = evaluate("SELECT count(*) FROM singer AS T1\nSELECT name FROM singer\nREFUSE\n",
        "--db", TestData.spiderDir().resolve("database").toString());
    assertEquals(0, r.code(), r.err());
    List<String> lines = r.out().lines().toList();
    assertTrue(lines.stream().anyMatch(l -> l.matches("exact set match \\(EM\\) +50\\.0% +0\\.0% +100\\.0%")), r.out());
    for (String row : List.of("  scored questions +2 +2 +2", "  unparsed / gold unparsed +0 / 0 +0 / 0 +0 / 0",
        "  EM, Spider's script +50\\.0% +0\\.0% +100\\.0%", "  differing / gold fails +0 / 0 +0 / 0 +0 / 0",
        "  EM easy \\(2\\) +50\\.0% +0\\.0% +100\\.0%", "  EM extra \\(0\\) +- +- +-",
        "  EX easy +50\\.0% +- +100\\.0%", "  EX extra +- +- +-")) {
      assertTrue(lines.stream().anyMatch(l -> l.matches(row)), row + "\n" + r.out());
    }
    int em = lines.indexOf(lines.stream().filter(l -> l.startsWith("exact set match")).findFirst().orElseThrow());
    assertTrue(lines.get(em - 1).startsWith("  no database / gold fails"), "EM follows execution match");

    JsonNode metrics = JSON.readTree(dir.resolve("out/metrics.json").toFile());
    JsonNode model = metrics.at("/predictors/model/exact_match");
    assertEquals(2, model.get("scored").asInt());
    assertEquals(1, model.get("match").asInt());
    assertEquals(0.5, model.get("match_rate").asDouble());
    assertEquals(2, model.at("/by_hardness/easy/scored").asInt());
    assertEquals(0.5, model.at("/by_hardness/easy/em_rate").asDouble());
    assertEquals(0.5, model.at("/by_hardness/easy/ex_rate").asDouble());
    assertTrue(model.at("/by_hardness/hard/em_rate").isNull());
    assertEquals(0, metrics.at("/predictors/always_refuse/exact_match/match").asInt());
    assertEquals(List.of("questions", "refuse", "compliance", "execution", "exact_match", "columns", "reliability", "outcomes"),
        fieldNames(metrics.at("/predictors/model")));

    List<JsonNode> q = perQuestion();
    assertTrue(q.get(0).get("em").asBoolean());
    assertEquals("easy", q.get(0).get("hardness").asText());
    assertFalse(q.get(1).get("em").asBoolean());
    assertEquals("[\"select\",\"select(no AGG)\"]", q.get(1).get("em_differs").toString());
    assertTrue(q.get(2).has("em") && q.get(2).get("em").isNull(), "em is null for a REFUSE gold label");
    assertFalse(q.get(2).has("hardness"));
    assertEquals(List.of("id", "db_id", "question", "gold", "prediction", "sql", "analysis", "violations", "compliant",
        "execution", "execution_detail", "columns", "em", "em_script", "hardness", "outcome", "why"), fieldNames(q.get(0)));
    assertTrue(q.get(0).get("em_script").asBoolean(), "the script reads both texts alike");
    assertEquals(1, model.at("/script/match").asInt());
    assertEquals(0, model.at("/script/differ").size());
    assertEquals("How many singers do we have?", q.get(0).get("question").asText());
    assertEquals("SELECT count(*) FROM singer AS T1", q.get(0).get("sql").asText());
    assertFalse(q.get(2).has("sql"), "a refusal has no SQL");
  }

  private static List<String> fieldNames(JsonNode node) {
    List<String> names = new java.util.ArrayList<>();
    node.fieldNames().forEachRemaining(names::add);
    return names;
  }

  @Test
  void aCountMismatchIsAnErrorNotAShift() throws IOException {
    Result r = evaluate("REFUSE\nREFUSE\n");
    assertEquals(Main.BAD_INPUT, r.code());
    assertTrue(r.err().contains("2 prediction lines for 3 dataset records"), r.err());
    assertFalse(Files.exists(dir.resolve("out")));
  }

  @Test
  void aDatasetWithARepeatedIdIsBadInput() throws IOException {
    JsonNode dev = SpiderRun.records("dev", "dev.json");
    JSON.writeValue(dataset.toFile(), JSON.createArrayNode().add(dev.get(0)).add(dev.get(1)).add(dev.get(0)));
    Result r = evaluate("REFUSE\nREFUSE\nREFUSE\n");
    assertEquals(Main.BAD_INPUT, r.code(), r.out());
    assertTrue(r.err().contains("record #3 repeats the id 'dev_0001' of record #1"), r.err());
  }

  @Test
  void predictionsThatAreNotUtf8AreNamedWithTheLineAndByte() throws IOException {
    Path pred = dir.resolve("latin1.txt");
    Files.write(pred, "REFUSE\nSELECT name FROM singer WHERE name = 'Jos\u00e9'\nREFUSE\n"
        .getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
    StringWriter err = new StringWriter();
    int code = Main.run(new String[] {"evaluate", "--dataset", dataset.toString(), "--pred", pred.toString(),
        "--tables", TestData.spiderDir().resolve("tables.json").toString(), "--out", dir.resolve("out").toString()},
        new PrintWriter(new StringWriter(), true), new PrintWriter(err, true));
    assertEquals(Main.BAD_INPUT, code, err.toString());
    assertEquals("error: " + pred + ": cannot read predictions (not UTF-8 text: byte 0xE9 at line 2, byte offset 48)",
        err.toString().strip());
  }

  @ParameterizedTest(name = "dataset file: \"{0}\"")
  @ValueSource(strings = {"", "[]"})
  void anEmptyDatasetIsBadInputNotZeroQuestions(String text) throws IOException {
    Files.writeString(dataset, text);
    Result r = evaluate("");
    assertEquals(Main.BAD_INPUT, r.code(), r.out());
    assertEquals("error: " + dataset + (text.isEmpty() ? ": the file is empty, not JSON; expected a JSON array of dataset records"
        : ": no records (an empty list); a generated split holds one record per question"), r.err().strip());
  }

  @Test
  void aByteOrderMarkIsNotPartOfTheFirstPrediction() throws IOException {
    Result lines = evaluate("\uFEFFREFUSE\nREFUSE\nREFUSE\n");
    assertEquals(0, lines.code(), lines.err());
    assertEquals("REFUSE", perQuestion().get(0).get("prediction").asText());
    // JSON Lines in a .txt file are recognised by their first character
    Result json = evaluate("\uFEFF{\"id\": \"dev_0003\", \"prediction\": \"REFUSE\"}\n"
        + "{\"id\": \"dev_0001\", \"prediction\": \"REFUSE\"}\n{\"id\": \"dev_0002\", \"prediction\": \"REFUSE\"}\n");
    assertEquals(0, json.code(), json.err());
    assertEquals("CORRECT_REFUSE", perQuestion().get(2).get("outcome").asText());
  }

  @Test
  void jsonLinesAreMatchedByIdAndBadIdsAreErrors() throws IOException {
    Result ok = evaluate("{\"id\": \"dev_0003\", \"prediction\": \"REFUSE\"}\n"
        + "{\"id\": \"dev_0001\", \"prediction\": \"REFUSE\"}\n{\"id\": \"dev_0002\", \"prediction\": \"REFUSE\"}\n");
    assertEquals(0, ok.code(), ok.err());
    assertEquals("CORRECT_REFUSE", perQuestion().get(2).get("outcome").asText());

    Result unknown = evaluate("{\"id\": \"dev_0009\", \"prediction\": \"REFUSE\"}\n");
    assertEquals(Main.BAD_INPUT, unknown.code());
    assertTrue(unknown.err().contains("line 1: id 'dev_0009' is not in the dataset"), unknown.err());

    Result twice = evaluate("{\"id\": \"dev_0001\", \"prediction\": \"REFUSE\"}\n{\"id\": \"dev_0001\", \"prediction\": \"x\"}\n");
    assertTrue(twice.err().contains("line 2: id 'dev_0001' is predicted twice"), twice.err());

    Result missing = evaluate("{\"id\": \"dev_0001\", \"prediction\": \"REFUSE\"}\n");
    assertTrue(missing.err().contains("no prediction for 2 dataset record(s): dev_0002, dev_0003"), missing.err());
  }
}

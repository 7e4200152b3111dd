package rolepolicy.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rolepolicy.TestData;

/**
 * {@code generate --tables FILE --questions FILE[,FILE] --split NAME} on real BIRD and KaggleDBQA
 * records: several files into one split, records with SQL text only, fields that pass through, and
 * bad input named by file and record with nothing written.
 */
class ExplicitFilesTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Path BIRD = TestData.spiderDir().resolveSibling("bird");
  private static final Path KAGGLE = TestData.spiderDir().resolveSibling("kaggledbqa");

  private static ArrayNode birdDev;
  private static ArrayNode birdTables;

  @TempDir Path tmp;
  private Path tables;
  private Path out;

  record Result(int code, String out, String err) {}

  @BeforeAll
  static void readBird() throws IOException {
    birdDev = (ArrayNode) JSON.readTree(BIRD.resolve("dev.json").toFile());
    birdTables = (ArrayNode) JSON.readTree(BIRD.resolve("dev_tables.json").toFile());
  }

  @BeforeEach
  void files() throws IOException {
    tables = tmp.resolve("tables.json");
    ArrayNode toxicology = JSON.createArrayNode();
    birdTables.forEach(db -> {
      if (db.get("db_id").asText().equals("toxicology")) {
        toxicology.add(db);
      }
    });
    write(tables, toxicology);
    out = tmp.resolve("out");
  }

  @Test
  void twoQuestionFilesMakeOneSplitNumberedAcrossFiles() throws IOException {
    Path first = write(tmp.resolve("a.json"), toxicology(0, 2));
    Path second = write(tmp.resolve("b.json"), toxicology(2, 3));
    Result r = run("--questions", first + "," + second);
    assertEquals(0, r.code(), r.err());
    JsonNode records = JSON.readTree(out.resolve("bird.json").toFile());
    assertEquals(3, records.size());
    assertEquals(List.of("bird_0001", "bird_0002", "bird_0003"), ids(records));
    JsonNode third = records.get(2);
    JsonNode source = toxicology(2, 3).get(0);
    assertEquals(source.get("sql").asText(), third.get("original_sql").asText());
    assertEquals("text", third.get("facts").asText());
    assertEquals(source.get("question_id"), third.get("input_fields").get("question_id"));
    assertEquals(source.get("evidence"), third.get("input_fields").get("evidence"));
    assertEquals(source.get("difficulty"), third.get("input_fields").get("difficulty"));
    assertFalse(third.get("input_fields").has("sql"), "the SQL is not repeated");
    assertTrue(Files.isRegularFile(out.resolve("policies/toxicology.json")));
  }

  @Test
  void birdsUpperCaseSqlFieldIsTheSqlText() throws IOException {
    ArrayNode questions = toxicology(0, 1);
    ObjectNode record = (ObjectNode) questions.get(0);
    record.set("SQL", record.remove("sql"));
    Result r = run("--questions", write(tmp.resolve("q.json"), questions).toString());
    assertEquals(0, r.code(), r.err());
    JsonNode written = JSON.readTree(out.resolve("bird.json").toFile()).get(0);
    assertEquals(record.get("SQL").asText(), written.get("original_sql").asText());
  }

  @Test
  void recordWithNeitherAstNorSqlTextNamesFileAndRecordAndWritesNothing() throws IOException {
    ArrayNode questions = toxicology(0, 3);
    ((ObjectNode) questions.get(1)).remove("sql");
    Path file = write(tmp.resolve("q.json"), questions);
    Result r = run("--questions", file.toString());
    assertError(r, file + ": record #2", "no SQL text", "'query', 'SQL' or 'sql'");
  }

  @Test
  void schemaFileWithoutTheQuestionsDatabaseNamesFileAndRecordAndWritesNothing() throws IOException {
    ArrayNode questions = toxicology(0, 2);
    questions.add(first("california_schools"));
    Path file = write(tmp.resolve("q.json"), questions);
    Result r = run("--questions", file.toString());
    assertError(r, file + ": record #3", "unknown db_id 'california_schools'");
  }

  @Test
  void sqlTextTheAnalyserCannotReadIsWrittenRefusedAndNamed() throws IOException {
    ArrayNode questions = toxicology(0, 3);
    ((ObjectNode) questions.get(1)).put("sql", "SELECT no_such_column FROM atom");
    Path file = write(tmp.resolve("q.json"), questions);
    Result r = run("--questions", file.toString());
    assertEquals(0, r.code(), r.err());
    assertTrue(
        r.err().contains(file + ": record #2 (bird_0002): cannot analyse the SQL text: "),
        r.err());
    JsonNode written = JSON.readTree(out.resolve("bird.json").toFile());
    assertEquals(3, written.size(), "every record is written");
    JsonNode refused = written.get(1);
    assertEquals("REFUSE", refused.get("gold_label").get("type").asText());
    assertEquals("UNRESOLVED", refused.get("gold_label").get("reason").asText());
    assertTrue(refused.get("problems").get(0).asText().contains("no_such_column"), refused.toString());
    assertEquals(0, refused.get("negative_examples").size());
  }

  @Test
  void tablesWithoutSplitIsACommandLineError() throws IOException {
    Path file = write(tmp.resolve("q.json"), toxicology(0, 1));
    Result r = runRaw("generate", "--tables", tables.toString(), "--questions", file.toString(),
        "--out", out.toString());
    assertEquals(2, r.code(), r.err());
    assertTrue(r.err().contains("--tables, --questions and --split go together"), r.err());
  }

  @Test
  void tablesWithoutOutIsACommandLineError() throws IOException {
    Path file = write(tmp.resolve("q.json"), toxicology(0, 1));
    Result r = runRaw("generate", "--tables", tables.toString(), "--questions", file.toString(),
        "--split", "bird");
    assertEquals(2, r.code(), r.err());
    assertTrue(r.err().contains("--tables needs --out DIR"), r.err());
  }

  @Test
  void spiderWithTablesIsACommandLineError() throws IOException {
    Path file = write(tmp.resolve("q.json"), toxicology(0, 1));
    Result r = run("--questions", file.toString(), "--spider", TestData.spiderDir().toString());
    assertEquals(2, r.code(), r.err());
    assertTrue(r.err().contains("--spider cannot be combined"), r.err());
  }

  /** All of BIRD dev through the text path: every gold SQL analysed, every record written. */
  @Test
  void birdDevIsGeneratedFromSqlText() throws IOException {
    Result r =
        runRaw("generate", "--no-progress", "--tables", BIRD.resolve("dev_tables.json").toString(),
            "--questions", BIRD.resolve("dev.json").toString(), "--split", "dev",
            "--out", out.toString());
    assertEquals(0, r.code(), r.err());
    assertFalse(r.err().contains("cannot be analysed"), r.err());
    JsonNode records = JSON.readTree(out.resolve("dev.json").toFile());
    assertEquals(1534, records.size());
    for (JsonNode record : records) {
      assertEquals("text", record.get("facts").asText(), record.get("id").asText());
      assertFalse(
          record.path("problems").toString().contains("cannot analyse the SQL text"),
          record.toString());
    }
    try (var files = Files.list(out.resolve("policies"))) {
      assertEquals(11, files.filter(f -> f.getFileName().toString().endsWith(".json")).count());
    }
  }

  /** KaggleDBQA's test files, one per database, with Spider ASTs: the AST path, numbered across. */
  @Test
  void kaggleDbqaTestFilesMakeOneSplit() throws IOException {
    List<String> files = new ArrayList<>();
    try (var list = Files.list(KAGGLE.resolve("examples"))) {
      list.filter(p -> p.getFileName().toString().endsWith("_test.json"))
          .sorted()
          .forEach(p -> files.add(p.toString()));
    }
    assertEquals(8, files.size());
    Result r =
        runRaw("generate", "--no-progress", "--tables",
            KAGGLE.resolve("KaggleDBQA_tables.json").toString(), "--questions",
            String.join(",", files), "--split", "test", "--out", out.toString());
    assertEquals(0, r.code(), r.err());
    JsonNode records = JSON.readTree(out.resolve("test.json").toFile());
    assertEquals(185, records.size());
    assertEquals("test_0185", records.get(184).get("id").asText());
    for (JsonNode record : records) {
      assertFalse(record.has("facts"), "facts from the AST: " + record.get("id"));
    }
  }

  // ---------------------------------------------------------------- helpers

  private ArrayNode toxicology(int from, int to) {
    ArrayNode result = JSON.createArrayNode();
    int seen = 0;
    for (JsonNode record : birdDev) {
      if (record.get("db_id").asText().equals("toxicology")) {
        if (seen >= from && seen < to) {
          result.add(record.deepCopy());
        }
        seen++;
      }
    }
    return result;
  }

  private static JsonNode first(String dbId) {
    for (JsonNode record : birdDev) {
      if (record.get("db_id").asText().equals(dbId)) {
        return record.deepCopy();
      }
    }
    throw new IllegalStateException(dbId);
  }

  private static List<String> ids(JsonNode records) {
    List<String> ids = new ArrayList<>();
    records.forEach(r -> ids.add(r.get("id").asText()));
    return ids;
  }

  private void assertError(Result r, String... fragments) {
    assertEquals(1, r.code(), "exit code; stderr: " + r.err());
    assertTrue(r.err().startsWith("error: "), r.err());
    for (String fragment : fragments) {
      assertTrue(r.err().contains(fragment), "'" + fragment + "' not in: " + r.err());
    }
    if (Files.exists(out)) {
      try (var files = Files.walk(out)) {
        assertEquals(List.of(), files.filter(Files::isRegularFile).toList(), "nothing is written");
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }
  }

  private Result run(String... more) {
    List<String> args =
        new ArrayList<>(
            List.of("generate", "--no-progress", "--tables", tables.toString(), "--split", "bird",
                "--out", out.toString()));
    args.addAll(List.of(more));
    return runRaw(args.toArray(String[]::new));
  }

  private static Result runRaw(String... args) {
    StringWriter stdout = new StringWriter();
    StringWriter stderr = new StringWriter();
    int code;
    try (PrintWriter o = new PrintWriter(stdout); PrintWriter e = new PrintWriter(stderr)) {
      code = Main.run(args, o, e);
    }
    return new Result(code, stdout.toString(), stderr.toString());
  }

  private static Path write(Path file, JsonNode value) throws IOException {
    JSON.writerWithDefaultPrettyPrinter().writeValue(file.toFile(), value);
    return file;
  }
}

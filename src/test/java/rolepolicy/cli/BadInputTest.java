package rolepolicy.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
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
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import rolepolicy.TestData;
import rolepolicy.io.OwnedFolder;

/**
 * The {@code generate} command on bad input: exit code, a message that names what and where, and
 * an output folder left exactly as it was. Each case builds a tiny Spider folder from real records.
 */
class BadInputTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** Real dev.json records used as fixtures: count(*), a WHERE on stadium, a join. */
  private static final int[] DEV_RECORDS = {0, 14, 22};

  /** The previous output that a failing run must leave byte-for-byte unchanged. */
  private static final String PREVIOUS_DEV = "[\"previous dev.json\"]\n";

  private static final String PREVIOUS_POLICY = "{\"previous\": true}\n";

  private static ArrayNode realDev;
  private static ObjectNode concertSinger;

  @TempDir static Path sharedTemp;
  private static Path projectRules;

  @TempDir Path tmp;

  private Path spider;
  private Path out;
  private Path rules;
  private Path overrides;
  private String splits = "dev";
  private final List<String> extra = new ArrayList<>();

  /** What one run of the command line gave. */
  record Result(int code, String out, String err) {}

  @BeforeAll
  static void readRealSpider() throws IOException {
    Path dir = TestData.spiderDir();
    realDev = (ArrayNode) JSON.readTree(dir.resolve("dev.json").toFile());
    for (JsonNode db : JSON.readTree(dir.resolve("tables.json").toFile())) {
      if (db.get("db_id").asText().equals("concert_singer")) {
        concertSinger = (ObjectNode) db;
      }
    }
    // A snapshot of the project's rules: other work on rules/ cannot disturb these tests.
    projectRules = copyRules(sharedTemp.resolve("rules"));
  }

  @BeforeEach
  void tinySpiderFolder() throws IOException {
    spider = Files.createDirectories(tmp.resolve("spider"));
    write(spider.resolve("tables.json"), JSON.createArrayNode().add(concertSinger.deepCopy()));
    write(spider.resolve("dev.json"), devRecords());
    out = tmp.resolve("out");
    rules = projectRules;
    // Always explicit: the default data/overrides.json of the working folder must not leak in.
    overrides = tmp.resolve("overrides.json");
    Files.writeString(overrides, "[]\n");
  }

  // ---------------------------------------------------------------- malformed input files

  @ParameterizedTest(name = "previous output: {0}")
  @ValueSource(booleans = {false, true})
  void malformedJsonInDevJsonNamesFileLineAndColumn(boolean previous) throws IOException {
    String text = JSON.writerWithDefaultPrettyPrinter().writeValueAsString(devRecords());
    List<String> lines = new ArrayList<>(Arrays.asList(text.split("\n", -1)));
    int broken = indexOfNth(lines, "\"query\" :", 2); // the second record's query
    lines.set(broken, lines.get(broken).replace("\"query\" :", "\"query\""));
    Files.writeString(spider.resolve("dev.json"), String.join("\n", lines));
    Map<String, byte[]> before = previousOutput(previous);

    Result r = run();

    assertError(r, 1, spider.resolve("dev.json").toString(), "malformed JSON", "line " + (broken + 1), "column");
    assertUnchanged(before);
  }

  @Test
  void truncatedDevJsonNamesFileAndLine() throws IOException {
    String text = JSON.writerWithDefaultPrettyPrinter().writeValueAsString(devRecords());
    Files.writeString(spider.resolve("dev.json"), text.substring(0, text.length() / 2));

    Result r = run();

    assertError(r, 1, spider.resolve("dev.json").toString(), "malformed JSON", "line ", "column");
    assertUnchanged(Map.of());
  }

  @ParameterizedTest(name = "previous output: {0}")
  @ValueSource(booleans = {false, true})
  void malformedTablesJsonNamesFileLineAndColumn(boolean previous) throws IOException {
    Files.writeString(spider.resolve("tables.json"), "[\n  {\"db_id\": \"concert_singer\",,}\n]\n");
    Map<String, byte[]> before = previousOutput(previous);

    Result r = run();

    assertError(r, 1, spider.resolve("tables.json").toString(), "malformed JSON", "line 2", "column");
    assertUnchanged(before);
  }

  @Test
  void tablesJsonWithoutColumnsNamesTheDatabase() throws IOException {
    ObjectNode db = concertSinger.deepCopy();
    db.remove("column_names_original");
    write(spider.resolve("tables.json"), JSON.createArrayNode().add(db));

    Result r = run();

    assertError(
        r, 1, spider.resolve("tables.json").toString(), "database #1", "concert_singer",
        "column_names_original");
    assertUnchanged(Map.of());
  }

  // ---------------------------------------------------------------- bad records

  @ParameterizedTest(name = "previous output: {0}")
  @ValueSource(booleans = {false, true})
  void unknownDbIdNamesFileAndRecord(boolean previous) throws IOException {
    ArrayNode dev = devRecords();
    ((ObjectNode) dev.get(1)).put("db_id", "no_such_db");
    write(spider.resolve("dev.json"), dev);
    Map<String, byte[]> before = previousOutput(previous);
    extra.addAll(List.of("--audit", out.resolve("audit.jsonl").toString()));

    Result r = run();

    assertError(r, 1, spider.resolve("dev.json").toString(), "record #2", "no_such_db");
    assertUnchanged(before);
  }

  @ParameterizedTest(name = "previous output: {0}")
  @ValueSource(booleans = {false, true})
  void recordWithoutQueryNamesFileRecordAndField(boolean previous) throws IOException {
    ArrayNode dev = devRecords();
    ((ObjectNode) dev.get(2)).remove("query");
    write(spider.resolve("dev.json"), dev);
    Map<String, byte[]> before = previousOutput(previous);

    Result r = run();

    assertError(r, 1, spider.resolve("dev.json").toString(), "record #3", "'query'");
    assertUnchanged(before);
  }

  @Test
  void recordThatIsNotAnObjectNamesFileAndRecord() throws IOException {
    ArrayNode dev = devRecords();
    dev.insert(1, 42);
    write(spider.resolve("dev.json"), dev);

    Result r = run();

    assertError(r, 1, spider.resolve("dev.json").toString(), "record #2");
    assertUnchanged(Map.of());
  }

  @Test
  void failureInTheSecondSplitLeavesNothingOfTheFirst() throws IOException {
    ArrayNode train = devRecords();
    ((ObjectNode) train.get(0)).put("db_id", "no_such_db");
    write(spider.resolve("train_spider.json"), train);
    splits = "dev,train";

    Result r = run();

    assertError(r, 1, spider.resolve("train_spider.json").toString(), "record #1", "no_such_db");
    assertUnchanged(Map.of());
  }

  // ---------------------------------------------------------------- overrides

  @ParameterizedTest(name = "previous output: {0}")
  @ValueSource(booleans = {false, true})
  void overrideWithUnknownPolicyNamesFileAndEntry(boolean previous) throws IOException {
    writeOverrides(
        override("concert_singer", "singer", "Name", "Public", "Hidden"),
        override("concert_singer", "singer", "Country", "Public", "Secret"));
    Map<String, byte[]> before = previousOutput(previous);

    Result r = run();

    assertError(r, 1, overrides.toString(), "override #2", "final_policy", "'Secret'");
    assertUnchanged(before);
  }

  @Test
  void overrideOfUnknownColumnNamesFileEntryAndColumn() throws IOException {
    writeOverrides(
        override("concert_singer", "singer", "Name", "Public", "Hidden"),
        override("concert_singer", "singer", "Nickname", "Public", "Hidden"));

    Result r = run();

    assertError(r, 1, overrides.toString(), "override #2", "singer.Nickname", "concert_singer");
    assertFalse(r.err().contains("override #1"), r.err());
    assertUnchanged(Map.of());
  }

  @Test
  void overrideOfUnknownTableNamesFileEntryAndTable() throws IOException {
    writeOverrides(override("concert_singer", "band", "Name", "Public", "Hidden"));

    Result r = run();

    assertError(r, 1, overrides.toString(), "override #1", "band.Name", "concert_singer");
    assertUnchanged(Map.of());
  }

  @ParameterizedTest(name = "previous output: {0}")
  @ValueSource(booleans = {false, true})
  void overrideWithStaleAutoPolicyNamesEntryAndBothPolicies(boolean previous) throws IOException {
    // The rules make singer.Age Hidden; the entry was written against Public.
    writeOverrides(override("concert_singer", "singer", "Age", "Public", "AggOnly"));
    Map<String, byte[]> before = previousOutput(previous);

    Result r = run();

    assertError(r, 1, overrides.toString(), "override #1", "singer.Age", "auto_policy Public", "Hidden");
    assertUnchanged(before);
  }

  @Test
  void overrideOfUnknownDatabaseNamesFileEntryAndDatabase() throws IOException {
    writeOverrides(override("no_such_db", "singer", "Name", "Public", "Hidden"));

    Result r = run();

    assertError(r, 1, overrides.toString(), "override #1", "no_such_db");
    assertUnchanged(Map.of());
  }

  @Test
  void overridesThatAreNotAListNameTheFile() throws IOException {
    Files.writeString(overrides, "{\"db_id\": \"concert_singer\"}\n");

    Result r = run();

    assertError(r, 1, overrides.toString(), "array");
    assertUnchanged(Map.of());
  }

  @Test
  void overrideWithoutReasonNamesEntryAndField() throws IOException {
    ObjectNode entry = override("concert_singer", "singer", "Name", "Public", "Hidden");
    entry.remove("reason");
    writeOverrides(entry);

    Result r = run();

    assertError(r, 1, overrides.toString(), "override #1", "'reason'");
    assertUnchanged(Map.of());
  }

  // ---------------------------------------------------------------- rule files

  @ParameterizedTest(name = "previous output: {0}")
  @ValueSource(booleans = {false, true})
  void drlSyntaxErrorNamesRuleFileAndLine(boolean previous) throws IOException {
    rules = copyRules(tmp.resolve("rules"));
    Path drl = rules.resolve("permissions.drl");
    List<String> lines = new ArrayList<>(Files.readAllLines(drl));
    lines.add("");
    lines.add("rule \"A broken rule\"");
    lines.add("when");
    lines.add("    Violation( ref.role == == Role.SelectExpr )"); // the syntax error
    lines.add("then");
    lines.add("end");
    Files.write(drl, lines);
    int errorLine = lines.size() - 2;
    Map<String, byte[]> before = previousOutput(previous);

    Result r = run();

    assertError(r, 1, drl + ":" + errorLine);
    assertUnchanged(before);
  }

  @Test
  void drlReferringToAnUnknownTypeNamesRuleFileAndLine() throws IOException {
    rules = copyRules(tmp.resolve("rules"));
    Path drl = rules.resolve("negatives.drl");
    List<String> lines = new ArrayList<>(Files.readAllLines(drl));
    lines.add("");
    lines.add("rule \"A rule about a fact type that does not exist\"");
    lines.add("when");
    lines.add("    NoSuchFact( )");
    lines.add("then");
    lines.add("end");
    Files.write(drl, lines);
    int errorLine = lines.size() - 4; // Drools reports the rule's line

    Result r = run();

    assertError(r, 1, drl.toString(), "NoSuchFact");
    assertTrue(
        r.err().contains(drl + ":" + errorLine) || r.err().contains(drl + ":" + (errorLine + 2)),
        "expected line " + errorLine + " (rule) or " + (errorLine + 2) + " (pattern): " + r.err());
    assertUnchanged(Map.of());
  }

  @ParameterizedTest(name = "action: {0}")
  @ValueSource(strings = {"throw new IllegalStateException(\"x\");", "String none = null; none.length();"})
  void ruleWhoseActionFailsNamesTheRuleAndItsFile(String action) throws IOException {
    rules = copyRules(tmp.resolve("rules"));
    Path drl = rules.resolve("permissions.drl");
    String text = Files.readString(drl);
    int then = text.indexOf("then", text.indexOf("rule \"Hidden columns may not be used\"")) + "then".length();
    Files.writeString(drl, text.substring(0, then) + "\n    if (true) { " + action + " }" + text.substring(then));
    Map<String, byte[]> before = previousOutput(true);

    Result r = run();

    assertError(r, 1, drl + ": rule \"Hidden columns may not be used\": its action (then) failed: java.lang.");
    assertUnchanged(before);
  }

  @Test
  void rulesFolderWithoutDrlFilesIsAnError() throws IOException {
    rules = Files.createDirectories(tmp.resolve("empty-rules"));

    Result r = run();

    assertError(r, 1, rules.toString(), ".drl");
    assertUnchanged(Map.of());
  }

  // ---------------------------------------------------------------- missing files, bad --out

  @ParameterizedTest(name = "missing {0}")
  @ValueSource(strings = {"dev.json", "tables.json"})
  void missingInputFileIsNamed(String file) throws IOException {
    Files.delete(spider.resolve(file));
    Map<String, byte[]> before = previousOutput(true);

    Result r = run();

    assertError(r, 1, spider.resolve(file).toString(), "not found");
    assertUnchanged(before);
  }

  @Test
  void missingOverridesFileIsNamed() throws IOException {
    overrides = tmp.resolve("no-such-overrides.json");

    Result r = run();

    assertError(r, 1, overrides.toString(), "not found");
    assertUnchanged(Map.of());
  }

  @Test
  void missingRulesFolderIsNamed() throws IOException {
    rules = tmp.resolve("no-such-rules");

    Result r = run();

    assertError(r, 1, rules.toString(), "not found");
    assertUnchanged(Map.of());
  }

  @Test
  void outIntoTheSpiderFolderWouldReplaceItsDevJsonAndIsRefused() throws IOException {
    out = spider;
    byte[] dev = Files.readAllBytes(spider.resolve("dev.json"));

    Result r = run();

    assertError(r, 2, spider + ": this output would be written over an input, --spider " + spider);
    assertArrayEquals(dev, Files.readAllBytes(spider.resolve("dev.json")), "Spider's dev.json is as it was");
    assertEquals(Set.of("dev.json", "tables.json"), namesIn(spider));
  }

  @Test
  void outThatIsARegularFileIsAnErrorAndTheFileIsUntouched() throws IOException {
    out = tmp.resolve("out.txt");
    Files.writeString(out, "not a folder\n");

    Result r = run();

    assertError(r, 1, out.toString());
    assertEquals("not a folder\n", Files.readString(out));
    assertEquals(Set.of("out.txt", "overrides.json", "spider"), namesIn(tmp));
  }

  @Test
  void outDeepInsideARegularFileNamesThatFile() throws IOException {
    Path file = Files.writeString(tmp.resolve("plain"), "plain\n");
    out = file.resolve("a/b");

    Result r = run();

    assertError(r, 1);
    assertEquals("error: " + file + ": a file stands where a folder of output goes\n", r.err());
    assertEquals("plain\n", Files.readString(file));
  }

  @Test
  void outDeepInsideAFolderThatCannotBeWrittenNamesThatFolder() throws IOException {
    Path readOnly = rolepolicy.TestData.unwritableFolder(tmp);
    out = readOnly.resolve("rolepolicy-test/out");

    Result r = run();

    assertError(r, 1);
    assertTrue(r.err().startsWith("error: " + readOnly + ": cannot write output here ("), r.err());
  }

  @Test
  void oneQuestionIsSingularAndTheWrittenFilesAreListedByName() throws IOException {
    ArrayNode one = JSON.createArrayNode().add(realDev.get(0).deepCopy()); // count(*): no violation

    write(spider.resolve("dev.json"), one);
    Result r = run();

    assertEquals(0, r.code(), r.err());
    assertTrue(r.out().contains("dev: 1 question, 0 REFUSE, 0 violations, 0 with problems, "), r.out());
    assertTrue(r.out().contains("wrote " + out.resolve("dev.json") + ", " + out.resolve("policies") + "/, "
        + out.resolve("audit") + "/\n"), r.out());
  }

  @Test
  void outInsideARegularFileIsAnError() throws IOException {
    Path file = tmp.resolve("plain");
    Files.writeString(file, "plain\n");
    out = file.resolve("out");

    Result r = run();

    assertError(r, 1, file.toString());
    assertEquals("plain\n", Files.readString(file));
  }

  /**
   * A file that cannot be moved into place (here: a folder stands where policies/concert_singer.json
   * belongs) must not leave the output half replaced: dev.json keeps its previous bytes.
   */
  @Test
  void commitThatFailsHalfwayLeavesThePreviousOutput() throws IOException {
    Files.createDirectories(out.resolve("policies").resolve("concert_singer.json").resolve("blocker"));
    Files.writeString(out.resolve("dev.json"), PREVIOUS_DEV);
    OwnedFolder.recordWritten(List.of(out.resolve("dev.json"), out.resolve("policies").resolve("concert_singer.json")));
    Map<String, byte[]> before = snapshot(out);

    Result r = run();

    assertEquals(1, r.code(), r.err());
    assertTrue(r.err().startsWith("error: "), r.err());
    assertUnchanged(before);
  }

  @Test
  void unknownSplitIsAUsageError() throws IOException {
    splits = "dev,validation";
    Map<String, byte[]> before = previousOutput(true);

    Result r = run();

    assertEquals(2, r.code(), r.err());
    assertTrue(r.err().contains("validation"), r.err());
    assertTrue(r.err().contains("train, dev or test"), r.err());
    assertUnchanged(before);
  }

  @Test
  void unknownOptionIsAUsageError() throws IOException {
    extra.add("--no-such-option");

    Result r = run();

    assertEquals(2, r.code(), r.err());
    assertTrue(r.err().contains("--no-such-option"), r.err());
    assertUnchanged(Map.of());
  }

  @Test
  void aSplitNamedTwiceLeavesNoTemporaryFile() throws IOException {
    splits = "dev,dev";

    Result r = run();

    assertTrue(r.code() == 0 || r.code() == 2, "exit " + r.code() + ": " + r.err());
    List<String> temporary =
        snapshot(out).keySet().stream().filter(p -> p.endsWith(".tmp")).toList();
    assertEquals(List.of(), temporary, "leftover temporary files in " + out);
  }

  // ---------------------------------------------------------------- bad ASTs are not errors

  @Test
  void outOfRangeColumnIdIsRefusedAsUnresolved() throws IOException {
    ArrayNode dev = devRecords();
    // dev record 14: SELECT LOCATION, name FROM stadium WHERE capacity BETWEEN ...
    ArrayNode colUnit = (ArrayNode) dev.get(1).at("/sql/select/1/0/1/1");
    colUnit.set(1, JSON.getNodeFactory().numberNode(99999));
    write(spider.resolve("dev.json"), dev);

    Result r = run();

    assertEquals(0, r.code(), r.err());
    JsonNode records = JSON.readTree(out.resolve("dev.json").toFile());
    assertEquals(3, records.size());
    JsonNode record = records.get(1);
    assertEquals("dev_0002", record.get("id").asText());
    assertUnresolved(record, "/select/1/0/1/1/1", "99999");
    assertEquals("SQL", records.get(0).at("/gold_label/type").asText(), "the other records are unaffected");
    assertTrue(Files.isRegularFile(out.resolve("policies").resolve("concert_singer.json")));
  }

  @Test
  void outOfRangeColumnIdInANestedQueryIsRefusedAsUnresolved() throws IOException {
    ArrayNode dev = devRecords();
    dev.set(2, realDev.get(28)); // SELECT name FROM stadium WHERE stadium_id NOT IN (SELECT ...)
    ArrayNode colUnit = (ArrayNode) dev.get(2).at("/sql/where/0/3/select/1/0/1/1");
    colUnit.set(1, JSON.getNodeFactory().numberNode(-1));
    write(spider.resolve("dev.json"), dev);

    Result r = run();

    assertEquals(0, r.code(), r.err());
    assertUnresolved(JSON.readTree(out.resolve("dev.json").toFile()).get(2), "/where/0/3/select/1/0/1/1/1", "-1");
  }

  @ParameterizedTest(name = "sql = {0}")
  @ValueSource(strings = {"[]", "{}", "{\"select\": 5}"})
  void malformedSqlIsRefusedAsUnresolved(String sql) throws IOException {
    ArrayNode dev = devRecords();
    ((ObjectNode) dev.get(1)).set("sql", JSON.readTree(sql));
    write(spider.resolve("dev.json"), dev);

    Result r = run();

    assertEquals(0, r.code(), r.err());
    JsonNode record = JSON.readTree(out.resolve("dev.json").toFile()).get(1);
    String where = sql.startsWith("{\"select") ? "/select" : "AST /";
    assertUnresolved(record, where);
    assertEquals(0, record.get("negative_examples").size(), record.toString());
  }

  /** A record without an AST (sql null, text or missing) takes its facts from its query text. */
  @ParameterizedTest(name = "sql = {0}")
  @ValueSource(strings = {"null", "\"SELECT 1\"", "missing"})
  void recordWithoutAstTakesItsFactsFromTheQueryText(String sql) throws IOException {
    ArrayNode dev = devRecords();
    ObjectNode question = (ObjectNode) dev.get(1);
    if (sql.equals("missing")) {
      question.remove("sql");
    } else {
      question.set("sql", JSON.readTree(sql));
    }
    write(spider.resolve("dev.json"), dev);

    Result r = run();

    assertEquals(0, r.code(), r.err());
    JsonNode record = JSON.readTree(out.resolve("dev.json").toFile()).get(1);
    assertEquals("text", record.get("facts").asText(), record.toString());
    assertEquals(question.get("query").asText(), record.get("original_sql").asText());
    assertEquals("SQL", record.get("gold_label").get("type").asText(), record.toString());
    assertEquals(question.get("query").asText(), record.get("gold_label").get("sql").asText());
    assertFalse(record.has("problems"), record.toString());
  }

  // ---------------------------------------------------------------- determinism

  @Test
  void twoRunsGiveByteIdenticalFiles() throws IOException {
    ArrayNode dev = devRecords();
    dev.add(realDev.get(28));
    dev.add(realDev.get(4));
    write(spider.resolve("dev.json"), dev);
    writeOverrides(override("concert_singer", "stadium", "Stadium_ID", "JoinOnly", "Public"));
    Path first = tmp.resolve("first");
    Path second = tmp.resolve("second");

    out = first;
    assertEquals(0, run().code());
    Map<String, byte[]> once = snapshot(first);
    assertEquals(0, run().code()); // again into the same folder
    Map<String, byte[]> twice = snapshot(first);
    out = second;
    assertEquals(0, run().code());
    Map<String, byte[]> elsewhere = snapshot(second);

    assertEquals(Set.of("dev.json", "policies/concert_singer.json", "audit/dev.jsonl", "audit/rules.json",
        OwnedFolder.MARKER, "policies/" + OwnedFolder.MARKER, "audit/" + OwnedFolder.MARKER), once.keySet());
    for (String file : once.keySet()) {
      assertArrayEquals(once.get(file), twice.get(file), file + " differs on a re-run");
      assertArrayEquals(once.get(file), elsewhere.get(file), file + " differs in another folder");
    }
  }

  @Test
  void twoRunsGiveByteIdenticalAuditFiles() throws IOException {
    Path first = tmp.resolve("audit-1.jsonl");
    Path second = tmp.resolve("audit-2.jsonl");
    extra.addAll(List.of("--audit", first.toString()));
    assertEquals(0, run().code());
    extra.set(1, second.toString());
    assertEquals(0, run().code());

    assertEquals(3, Files.readAllLines(first).size());
    assertArrayEquals(Files.readAllBytes(first), Files.readAllBytes(second));
  }

  // ---------------------------------------------------------------- helpers

  private Result run() {
    List<String> args = new ArrayList<>();
    args.addAll(
        List.of(
            "generate", "--no-progress",
            "--spider", spider.toString(),
            "--splits", splits,
            "--out", out.toString(),
            "--rules", rules.toString(),
            "--overrides", overrides.toString()));
    args.addAll(extra);
    StringWriter stdout = new StringWriter();
    StringWriter stderr = new StringWriter();
    int code;
    try (PrintWriter o = new PrintWriter(stdout); PrintWriter e = new PrintWriter(stderr)) {
      code = Main.run(args.toArray(String[]::new), o, e);
    }
    return new Result(code, stdout.toString(), stderr.toString());
  }

  /** The exit code, an "error: " message naming each fragment, and no stack trace. */
  private static void assertError(Result r, int code, String... fragments) {
    assertEquals(code, r.code(), "exit code; stderr: " + r.err());
    assertTrue(r.err().startsWith("error: "), "stderr: " + r.err());
    assertFalse(r.err().contains("\tat "), "a stack trace on stderr: " + r.err());
    assertFalse(r.err().contains("internal error"), r.err());
    for (String fragment : fragments) {
      assertTrue(r.err().contains(fragment), "'" + fragment + "' not in: " + r.err());
    }
    assertEquals("", r.out(), "nothing on stdout after a failure");
  }

  private static void assertUnresolved(JsonNode record, String... problemFragments) {
    JsonNode gold = record.get("gold_label");
    assertEquals("REFUSE", gold.get("type").asText(), record.toString());
    assertEquals("UNRESOLVED", gold.get("reason").asText(), record.toString());
    JsonNode problems = record.get("problems");
    assertTrue(problems != null && problems.isArray() && problems.size() > 0, record.toString());
    String all = problems.toString();
    for (String fragment : problemFragments) {
      assertTrue(all.contains(fragment), "'" + fragment + "' not in problems " + all);
    }
  }

  /**
   * With {@code previous}, fills the output folder with a previous run's files; returns what the
   * folder holds (empty map when absent).
   */
  private Map<String, byte[]> previousOutput(boolean previous) throws IOException {
    if (previous) {
      Files.createDirectories(out.resolve("policies"));
      Files.writeString(out.resolve("dev.json"), PREVIOUS_DEV);
      Files.writeString(out.resolve("policies").resolve("concert_singer.json"), PREVIOUS_POLICY);
      OwnedFolder.recordWritten(List.of(out.resolve("dev.json"), out.resolve("policies").resolve("concert_singer.json")));
    }
    return snapshot(out);
  }

  /**
   * The output folder holds exactly {@code before}, byte for byte: no new dev.json, no policies/,
   * no temporary files. A failing run may at most leave the (empty) folder it created.
   */
  private void assertUnchanged(Map<String, byte[]> before) throws IOException {
    Map<String, byte[]> after = snapshot(out);
    assertEquals(before.keySet(), after.keySet(), "files in " + out);
    for (String file : before.keySet()) {
      assertArrayEquals(before.get(file), after.get(file), file + " was changed");
    }
    if (before.isEmpty() && Files.isDirectory(out)) {
      assertEquals(Set.of(), namesIn(out), "folders left in " + out);
    }
  }

  /** Every regular file under a folder, by relative path (with '/'), with its bytes. */
  private static Map<String, byte[]> snapshot(Path dir) throws IOException {
    Map<String, byte[]> files = new TreeMap<>();
    if (!Files.isDirectory(dir)) {
      return files;
    }
    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path p : walk.filter(Files::isRegularFile).toList()) {
        files.put(dir.relativize(p).toString().replace('\\', '/'), Files.readAllBytes(p));
      }
    }
    return files;
  }

  private static Set<String> namesIn(Path dir) throws IOException {
    try (Stream<Path> list = Files.list(dir)) {
      return list.map(p -> p.getFileName().toString()).collect(Collectors.toSet());
    }
  }

  private static ArrayNode devRecords() {
    ArrayNode records = JSON.createArrayNode();
    for (int i : DEV_RECORDS) {
      records.add(realDev.get(i).deepCopy());
    }
    return records;
  }

  private static int indexOfNth(List<String> lines, String text, int n) {
    int seen = 0;
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).contains(text) && ++seen == n) {
        return i;
      }
    }
    throw new IllegalStateException("no " + n + ". line with " + text);
  }

  private static ObjectNode override(
      String db, String table, String column, String auto, String finalPolicy) {
    return JSON.createObjectNode()
        .put("db_id", db)
        .put("table", table)
        .put("column", column)
        .put("auto_policy", auto)
        .put("final_policy", finalPolicy)
        .put("reason", "a test override");
  }

  private void writeOverrides(ObjectNode... entries) throws IOException {
    ArrayNode list = JSON.createArrayNode();
    Arrays.stream(entries).forEach(list::add);
    write(overrides, list);
  }

  private static void write(Path file, JsonNode value) throws IOException {
    JSON.writerWithDefaultPrettyPrinter().writeValue(file.toFile(), value);
  }

  private static Path copyRules(Path target) throws IOException {
    Files.createDirectories(target);
    try (Stream<Path> files = rolepolicy.engine.RuleBase.ruleFiles(TestData.ruleSet()).stream()) {
      files
          .filter(f -> f.toString().endsWith(".drl"))
          .forEach(
              f -> {
                try {
                  Files.copy(f, target.resolve(f.getFileName()));
                } catch (IOException e) {
                  throw new UncheckedIOException(e);
                }
              });
    }
    return target;
  }
}

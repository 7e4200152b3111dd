package rolepolicy.generate;

import rolepolicy.io.DatasetWriter;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.sqlite.SQLiteConfig;
import rolepolicy.TestData;
import rolepolicy.engine.QuestionEngine;
import rolepolicy.model.ColumnRef;
import rolepolicy.model.Violation;
import rolepolicy.spider.Schema;
import rolepolicy.sql.SqlAnalyzer;
import rolepolicy.sql.SqlAnalyzerAgreementTest;

/** Whole Spider splits: one record per question, the gold invariant, and SQL that executes. */
class SpiderDatasetTest {

  @ParameterizedTest(name = "{0}")
  @CsvSource({"dev, dev.json", "train, train_spider.json"})
  void everyQuestionHasOneRecordInInputOrder(String split, String file) throws Exception {
    JsonNode input = DatasetWriter.JSON.readTree(TestData.spiderDir().resolve(file).toFile());
    JsonNode records = SpiderRun.records(split, file);
    assertEquals(input.size(), records.size());
    for (int i = 0; i < input.size(); i++) {
      JsonNode record = records.get(i);
      assertEquals(String.format("%s_%04d", split, i + 1), record.get("id").asText());
      assertEquals(input.get(i).get("query").asText(), record.get("original_sql").asText());
      assertEquals(input.get(i).get("question").asText(), record.get("question").asText());
      if (input.get(i).get("sql").isNull()) {
        assertEquals("REFUSE", record.at("/gold_label/type").asText(), record.get("id").asText());
        assertEquals("UNRESOLVED", record.at("/gold_label/reason").asText());
      }
      String id = record.get("id").asText();
      boolean expectProblems =
          input.get(i).get("sql").isNull() || SqlAnalyzerAgreementTest.KNOWN_FAULTS.containsKey(id);
      assertEquals(expectProblems, record.get("problems") != null, id + ": " + record.get("problems"));
    }
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({"dev, dev.json", "train, train_spider.json"})
  void goldSqlAnalysedFromItsTextHasNoViolation(String split, String file) {
    List<String> failures = new ArrayList<>();
    int checked = 0;
    for (JsonNode record : SpiderRun.records(split, file)) {
      if (record.at("/gold_label/type").asText().equals("SQL")) {
        List<Violation> violations = violationsOfText(record, record.at("/gold_label/sql").asText());
        checked++;
        if (!violations.isEmpty()) {
          failures.add(record.get("id").asText() + ": " + violations);
        }
      }
    }
    assertTrue(checked > 0);
    assertEquals(List.of(), failures);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({"dev, dev.json", "train, train_spider.json"})
  void negativeViolationsAreTheViolationsOfItsTextAndIncludeTheEdit(String split, String file) {
    List<String> failures = new ArrayList<>();
    for (JsonNode record : SpiderRun.records(split, file)) {
      for (JsonNode negative : record.get("negative_examples")) {
        List<String> fromText =
            violationsOfText(record, negative.get("sql").asText()).stream()
                .map(v -> v.ref().column() + " " + v.ref().role() + " " + v.policy() + " " + v.ref().aggregate().id())
                .toList();
        List<String> recorded = new ArrayList<>();
        boolean introduced = false;
        for (JsonNode v : negative.get("violations")) {
          recorded.add(v.get("column").asText() + " " + v.get("role").asText() + " "
              + v.get("policy").asText() + " " + v.get("agg_id").asInt());
          introduced |= v.get("role").asText().equals("SelectExpr") && v.get("agg_id").asInt() == 0;
        }
        if (!fromText.equals(recorded) || !introduced) {
          failures.add(record.get("id").asText() + ": text " + fromText + " vs recorded " + recorded);
        }
      }
    }
    assertEquals(List.of(), failures);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({"dev, dev.json", "train, train_spider.json"})
  void goldAndNegativeSqlExecuteOnTheSpiderDatabases(String split, String file) throws Exception {
    Map<String, Connection> connections = new HashMap<>();
    List<String> failures = new ArrayList<>();
    List<String> excused = new ArrayList<>();
    int executed = 0;
    try {
      for (JsonNode record : SpiderRun.records(split, file)) {
        String db = record.get("db_id").asText();
        Path sqlite = TestData.spiderDir().resolve("database").resolve(db).resolve(db + ".sqlite");
        if (!Files.exists(sqlite)) {
          continue;
        }
        List<String> sqls = new ArrayList<>();
        if (record.at("/gold_label/type").asText().equals("SQL")) {
          sqls.add(record.at("/gold_label/sql").asText());
        }
        record.get("negative_examples").forEach(n -> sqls.add(n.get("sql").asText()));
        Connection connection = connections.computeIfAbsent(db, d -> open(sqlite));
        for (String sql : sqls) {
          String error = execute(connection, sql);
          executed++;
          if (error != null) {
            String original = execute(connection, record.get("original_sql").asText());
            if (original == null) {
              failures.add(record.get("id").asText() + ": " + error + ": " + sql);
            } else {
              excused.add(record.get("id").asText() + " (Spider's own query fails: " + original + ")");
            }
          }
        }
      }
    } finally {
      for (Connection c : connections.values()) {
        c.close();
      }
    }
    System.out.printf("%s: %d SQL executed; excused, as their original fails too: %s%n", split, executed, excused);
    assertTrue(executed > 0);
    assertEquals(List.of(), failures);
  }

  /** Runs a query to its last row; the error message, or null when it runs. */
  private static String execute(Connection connection, String sql) {
    try (Statement statement = connection.createStatement();
        ResultSet rows = statement.executeQuery(sql)) {
      while (rows.next()) {
        // read every row: errors can surface late
      }
      return null;
    } catch (SQLException e) {
      return e.getMessage();
    }
  }

  private static Connection open(Path sqlite) {
    SQLiteConfig config = new SQLiteConfig();
    config.setReadOnly(true);
    try {
      return DriverManager.getConnection("jdbc:sqlite:file:" + sqlite + "?mode=ro", config.toProperties());
    } catch (SQLException e) {
      throw new IllegalStateException(sqlite + ": " + e.getMessage(), e);
    }
  }

  private static final Map<String, SqlAnalyzer> ANALYZERS = new HashMap<>();

  /** The violations of SQL text: the text analyser's references judged by the permission rules. */
  static List<Violation> violationsOfText(JsonNode record, String sql) {
    String db = record.get("db_id").asText();
    Schema schema = TestData.schemas().get(db);
    List<ColumnRef> refs =
        ANALYZERS.computeIfAbsent(db, d -> new SqlAnalyzer(schema)).analyse(sql).columnRefs();
    return new QuestionEngine(TestData.rules())
        .violations(refs, schema.tables(), TestData.autoPolicies().get(db), null, "text");
  }
}

package rolepolicy.sql;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import rolepolicy.spider.Schema;
import rolepolicy.spider.SchemaReader;

/** Spider's dev and train questions, loaded once from the folder named by {@code spider.dir}. */
final class SpiderQuestions {
  /** One question: {@code id} as in the output ({@code dev_0001}), its schema, text and AST. */
  record Question(String id, Schema schema, String query, JsonNode ast) {}

  /** A question with its text analysis, or the analyser's error message. */
  record Analysed(Question question, SqlAnalysis analysis, String error) {}

  private static final String[][] SPLITS = {{"dev", "dev.json"}, {"train", "train_spider.json"}};
  private static List<Question> questions;
  private static List<Analysed> analysed;

  private SpiderQuestions() {}

  static Path dir() {
    return Path.of(System.getProperty("spider.dir", "../shared/spider"));
  }

  /** All questions; the calling test fails when the data is absent. */
  static synchronized List<Question> all() {
    assertTrue(Files.isDirectory(dir()), "no Spider data at " + dir().toAbsolutePath());
    if (questions == null) {
      questions = load(dir());
    }
    return questions;
  }

  /** Every question with a non-null AST, analysed once. */
  static synchronized List<Analysed> analysed() {
    List<Question> all = all();
    if (analysed == null) {
      List<Analysed> list = new ArrayList<>();
      for (Question q : all) {
        if (q.ast() != null && !q.ast().isNull()) {
          try {
            list.add(new Analysed(q, new SqlAnalyzer(q.schema()).analyse(q.query()), null));
          } catch (SqlAnalysisException e) {
            list.add(new Analysed(q, null, e.getMessage()));
          }
        }
      }
      analysed = List.copyOf(list);
    }
    return analysed;
  }

  private static List<Question> load(Path dir) {
    ObjectMapper json = new ObjectMapper();
    Map<String, Schema> schemas = SchemaReader.read(dir.resolve("tables.json"));
    List<Question> loaded = new ArrayList<>();
    for (String[] split : SPLITS) {
      JsonNode records;
      try {
        records = json.readTree(dir.resolve(split[1]).toFile());
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      for (int i = 0; i < records.size(); i++) {
        JsonNode record = records.get(i);
        loaded.add(
            new Question(
                String.format("%s_%04d", split[0], i + 1),
                schemas.get(record.get("db_id").asText()),
                record.get("query").asText(),
                record.get("sql")));
      }
    }
    return List.copyOf(loaded);
  }
}

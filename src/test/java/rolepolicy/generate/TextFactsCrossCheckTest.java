package rolepolicy.generate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import rolepolicy.TestData;
import rolepolicy.model.QueryFacts;
import rolepolicy.spider.AstWalker;
import rolepolicy.spider.OverridesReader;
import rolepolicy.spider.Question;
import rolepolicy.spider.Schema;
import rolepolicy.spider.SplitReader;
import rolepolicy.sql.SqlAnalyzer;

/**
 * Spider train and dev generated with the facts taken from the SQL text give the records the AST
 * gives, except for the questions whose AST disagrees with their own text (held in
 * {@code crosscheck/ast-disagrees-with-text.tsv}). AST paths, which text facts lack, and the
 * {@code facts} marker are left out of the comparison.
 */
class TextFactsCrossCheckTest {
  private static final Path LIST = Path.of("src/test/resources/crosscheck/ast-disagrees-with-text.tsv");
  private static final String DISAGREES = "the SQL text disagrees with its Spider AST";

  @ParameterizedTest(name = "{0}")
  @CsvSource({"dev, dev.json", "train, train_spider.json"})
  void textFactsGiveTheRecordsOfTheAst(String split, String file) throws IOException {
    var overrides = OverridesReader.read(Path.of("data/overrides.json"));
    JsonNode ast = SpiderRun.generate(split, file, overrides, QuestionGenerator.Facts.AUTO);
    JsonNode text = SpiderRun.generate(split, file, overrides, QuestionGenerator.Facts.TEXT);
    assertEquals(ast.size(), text.size());

    Set<String> listed = listed(split);
    Set<String> disagreeing = new TreeSet<>();
    List<String> differing = new ArrayList<>();
    String firstDifference = "";
    for (int i = 0; i < ast.size(); i++) {
      JsonNode a = ast.get(i);
      JsonNode t = text.get(i);
      assertEquals("text", t.path("facts").asText(), t.get("id") + " is marked as from text");
      if (a.path("problems").toString().contains(DISAGREES)) {
        disagreeing.add(a.get("id").asText());
        assertTrue(!t.path("problems").toString().contains(DISAGREES), t.get("id").asText());
        continue;
      }
      if (!comparable(a).equals(comparable(t))) {
        if (differing.isEmpty()) {
          firstDifference = "first: " + comparable(a) + "\n  from text: " + comparable(t);
        }
        differing.add(a.get("id").asText());
      }
    }
    assertEquals(List.of(), differing, "records that differ between the AST and text paths; " + firstDifference);
    assertEquals(listed, disagreeing, "the questions whose AST disagrees with their text");
  }

  /**
   * The facts themselves, not only the records: for every question of the split the text analysis
   * gives the AST walker's references, query shape, FROM tables, SELECT items and tables.
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource({"dev, dev.json", "train, train_spider.json"})
  void textFactsAreTheFactsOfTheAst(String split, String file) throws IOException {
    Set<String> listed = listed(split);
    List<String> differing = new ArrayList<>();
    int compared = 0;
    try (SplitReader reader = new SplitReader(TestData.spiderDir().resolve(file))) {
      for (Question q = reader.next(); q != null; q = reader.next()) {
        String id = String.format(java.util.Locale.ROOT, "%s_%04d", split, q.index());
        if (!q.hasAst() || listed.contains(id)) {
          continue;
        }
        Schema schema = TestData.schemas().get(q.dbId());
        QueryFacts ast = new AstWalker(schema).walk(q.sql());
        QueryFacts text = new SqlAnalyzer(schema).analyse(q.query()).facts();
        if (!facts(ast).equals(facts(text))) {
          differing.add(id + ": " + facts(ast) + "\n  from text: " + facts(text));
        }
        compared++;
      }
    }
    assertTrue(compared > 1000, "compared " + compared);
    assertEquals(List.of(), differing);
  }

  /** The facts the rules read, without AST paths. */
  private static List<Object> facts(QueryFacts walk) {
    return List.of(
        walk.refs().stream()
            .map(r -> r.column() + " " + r.role() + " " + r.aggregate().id() + " " + r.selectItem())
            .toList(),
        walk.shape(),
        walk.fromTables(),
        walk.selectItems().stream().map(i -> i.index() + " " + i.aggregate().id() + " " + i.column()).toList(),
        walk.tables());
  }

  private static Set<String> listed(String split) throws IOException {
    Set<String> ids = new TreeSet<>();
    for (String line : Files.readAllLines(LIST)) {
      if (!line.startsWith("#") && line.startsWith(split + "_")) {
        ids.add(line.substring(0, line.indexOf('\t')));
      }
    }
    return ids;
  }

  /** The record without its facts marker and AST paths. */
  private static JsonNode comparable(JsonNode record) {
    JsonNode copy = record.deepCopy();
    ((ObjectNode) copy).remove("facts");
    removePaths(copy);
    return copy;
  }

  private static void removePaths(JsonNode node) {
    if (node instanceof ObjectNode object) {
      object.remove("path");
      for (Iterator<JsonNode> it = object.elements(); it.hasNext(); ) {
        removePaths(it.next());
      }
    } else if (node.isArray()) {
      node.forEach(TextFactsCrossCheckTest::removePaths);
    }
  }
}

package rolepolicy.exactmatch;

import rolepolicy.exactmatch.SpiderSqlException;
import rolepolicy.exactmatch.SpiderSqlBuilder;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import rolepolicy.TestData;
import rolepolicy.spider.Schema;

/**
 * Spider's structure from the fast parser's tree is the structure from JSqlParser's, or the same
 * error, on every query of Spider's train and dev sets.
 */
class SpiderSqlFastPathTest {
  private static String structure(String sql, Schema schema, boolean fastPath) {
    try {
      return SpiderSqlBuilder.build(sql, schema, fastPath).toString();
    } catch (SpiderSqlException e) {
      return "error: " + e.getMessage();
    }
  }

  @Test
  void theFastParsersTreeGivesJSqlParsersStructureOnEverySpiderQuery() throws IOException {
    Map<String, Schema> schemas = TestData.schemas();
    List<String> differ = new ArrayList<>();
    int texts = 0;
    for (String file : new String[] {"dev.json", "train_spider.json"}) {
      for (JsonNode record : new ObjectMapper().readTree(TestData.spiderDir().resolve(file).toFile())) {
        String sql = record.get("query").asText();
        Schema schema = schemas.get(record.get("db_id").asText());
        texts++;
        String fast = structure(sql, schema, true);
        if (!fast.equals(structure(sql, schema, false))) {
          differ.add(sql + "\n  fast: " + fast);
        }
      }
    }
    assertEquals(8034, texts);
    assertEquals(List.of(), differ);
  }
}

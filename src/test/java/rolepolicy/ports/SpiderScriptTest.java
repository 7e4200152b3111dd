package rolepolicy.ports;

import rolepolicy.exactmatch.SpiderSqlJson;
import rolepolicy.exactmatch.SpiderSql;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import rolepolicy.TestData;
import rolepolicy.spider.Schema;

/** The port of Spider's own parser against Spider's parse of its dev queries (dev.json's sql field). */
class SpiderScriptTest {
  private static JsonNode dev;
  private static Map<String, Schema> schemas;

  @BeforeAll
  static void read() throws IOException {
    dev = new ObjectMapper().readTree(TestData.spiderDir().resolve("dev.json").toFile());
    schemas = TestData.schemas();
  }

  @Test
  void everyDevGoldQueryParsesToSpidersOwnParseFaultsIncluded() {
    assertEquals(Map.of(), differences(dev));
  }

  @Test
  void everyTrainGoldQueryParsesToSpidersOwnParseFaultsIncluded() throws IOException {
    JsonNode train = new ObjectMapper().readTree(TestData.spiderDir().resolve("train_spider.json").toFile());
    assertEquals(7000, train.size());
    // train_3154 names a table tables.json lacks; Spider parsed it against the SQLite file, which has it
    assertEquals(java.util.Set.of(3153), differences(train).keySet());
  }

  private static Map<Integer, String> differences(JsonNode records) {
    Map<Integer, String> differ = new TreeMap<>();
    for (int i = 0; i < records.size(); i++) {
      JsonNode record = records.get(i);
      String sql = record.get("query").asText();
      try {
        SpiderSql ours = SpiderSqlJson.withoutLiterals(SpiderScript.parse(sql, schemas.get(record.get("db_id").asText())));
        SpiderSql theirs = SpiderSqlJson.withoutLiterals(SpiderSqlJson.of(record.get("sql")));
        if (!ours.equals(theirs)) {
          differ.put(i, sql + "\n  port:   " + ours + "\n  Spider: " + theirs);
        }
      } catch (SpiderScript.Failure e) {
        differ.put(i, sql + "\n  fails: " + e.getMessage());
      }
    }
    differ.values().forEach(System.out::println);
    return differ;
  }
}

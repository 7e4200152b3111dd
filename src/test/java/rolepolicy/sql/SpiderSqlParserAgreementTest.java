package rolepolicy.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import rolepolicy.TestData;
import rolepolicy.generate.SpiderRun;
import rolepolicy.spider.Schema;

/**
 * On every Spider query of train and dev, and every gold rewrite and negative example the generator
 * writes for them: where the fast parser accepts a text, it builds JSqlParser's tree, field by
 * field, and the analysis (or its error) is the JSqlParser path's; where JSqlParser rejects the
 * text as written, the fast parser declines it. It must also accept nearly all of them, or it would
 * save nothing.
 */
class SpiderSqlParserAgreementTest {
  /** The share of the texts the fast parser must accept; it accepts all but a handful. */
  private static final double MIN_ACCEPTED = 0.995;

  private static String outcome(SqlAnalyzer analyzer, String sql, boolean fastPath) {
    try {
      return analyzer.analyse(sql, fastPath).toString();
    } catch (SqlAnalysisException e) {
      return "error: " + e.getMessage();
    }
  }

  /** Each distinct text with the schema of its database, by db_id then text. */
  private static Map<String, Set<String>> texts() {
    Map<String, Set<String>> texts = new LinkedHashMap<>();
    for (SpiderQuestions.Question q : SpiderQuestions.all()) {
      texts.computeIfAbsent(q.schema().dbId(), k -> new LinkedHashSet<>()).add(q.query());
    }
    for (String[] split : new String[][] {{"dev", "dev.json"}, {"train", "train_spider.json"}}) {
      for (JsonNode record : SpiderRun.records(split[0], split[1])) {
        Set<String> of =
            texts.computeIfAbsent(record.get("db_id").asText(), k -> new LinkedHashSet<>());
        if (record.at("/gold_label/type").asText().equals("SQL")) {
          of.add(record.at("/gold_label/sql").asText());
        }
        for (JsonNode negative : record.get("negative_examples")) {
          of.add(negative.get("sql").asText());
        }
      }
    }
    return texts;
  }

  @Test
  void fastPathAgreesWithJSqlParserOnSpiderAndGeneratedSql() {
    int total = 0;
    int accepted = 0;
    List<String> declined = new ArrayList<>();
    List<String> wrong = new ArrayList<>();
    for (Map.Entry<String, Set<String>> db : texts().entrySet()) {
      Schema schema = TestData.schemas().get(db.getKey());
      SqlAnalyzer analyzer = new SqlAnalyzer(schema);
      for (String sql : db.getValue()) {
        total++;
        String fast = ParseTrees.fast(sql);
        if (fast == null) {
          declined.add(sql);
          continue;
        }
        accepted++;
        if (!fast.equals(ParseTrees.jsqlparser(sql))) {
          wrong.add("tree differs (or JSqlParser rejects): " + sql);
        } else if (!outcome(analyzer, sql, true).equals(outcome(analyzer, sql, false))) {
          wrong.add("analysis differs: " + sql);
        }
      }
    }
    System.out.printf(
        "fast SQL parser: %d texts, %d accepted (%.2f %%), all %d the same as JSqlParser's;"
            + " declined:%n",
        total, accepted, 100.0 * accepted / total, accepted - wrong.size());
    declined.forEach(sql -> System.out.println("  " + sql));
    assertEquals(List.of(), wrong);
    assertTrue(
        accepted >= MIN_ACCEPTED * total,
        String.format("the fast parser accepts only %d of %d texts", accepted, total));
  }
}

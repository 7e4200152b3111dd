package rolepolicy.ports;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import rolepolicy.TestData;

/**
 * The tokenizer does work in proportion to its text, and gives the tokens of the step-by-step port
 * ({@link ReferenceTokens}) on every real query at hand.
 */
class SpiderScriptTokensScaleTest {
  private static String outcome(java.util.function.Function<String, List<String>> tokenizer, String sql) {
    try {
      return tokenizer.apply(sql).toString();
    } catch (SpiderScript.Failure e) {
      return "fails: " + e.getMessage();
    }
  }

  private static List<String> realQueries() throws IOException {
    List<String> sqls = new ArrayList<>();
    Path predictions = TestData.spiderDir().resolveSibling("spider-predictions");
    for (String model : List.of("codes-1b-dev.txt", "codes-3b-dev.txt", "codes-7b-dev.txt")) {
      sqls.addAll(Files.readAllLines(predictions.resolve(model)));
    }
    ObjectMapper json = new ObjectMapper();
    for (String split : List.of("dev.json", "train_spider.json")) {
      json.readTree(TestData.spiderDir().resolve(split).toFile()).forEach(r -> sqls.add(r.get("query").asText()));
    }
    json.readTree(TestData.birdDir().resolve("dev.json").toFile()).forEach(r -> sqls.add(r.get("sql").asText()));
    return sqls;
  }

  @Test
  void sameTokensAsTheStepByStepPortOnEveryRealQuery() throws IOException {
    List<String> sqls = realQueries();
    assertEquals(3 * 1034 + 1034 + 7000 + 1534, sqls.size());
    sqls.addAll(List.of("= ! x", "= <", "=", "! =", "a > = b < = c ! = d", "x = = ! =", "'a' = 'b' ! = 'c'",
        "SELECT a.  )  ", "SELECT a. ) x", "SELECT 'x' . ", "a.\u2028", "odd ' quote"));
    Map<Integer, String> differ = new TreeMap<>();
    for (int i = 0; i < sqls.size(); i++) {
      String before = outcome(ReferenceTokens::tokenize, sqls.get(i));
      String now = outcome(SpiderScriptTokens::tokenize, sqls.get(i));
      if (!before.equals(now)) {
        differ.put(i, sqls.get(i) + "\n  step by step: " + before + "\n  now: " + now);
      }
    }
    assertEquals(Map.of(), differ);
  }

  /** Bytes the current thread has allocated so far. */
  private static long allocated() {
    return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean()).getCurrentThreadAllocatedBytes();
  }

  /** Bytes allocated per character of text for a query with this many quoted IN items and joined operators. */
  private static double bytesPerChar(int items) {
    StringBuilder sql = new StringBuilder("SELECT a FROM t WHERE b IN (");
    for (int i = 0; i < items; i++) {
      sql.append(i == 0 ? "" : ", ").append("'v").append(i).append("'");
    }
    sql.append(")");
    for (int i = 0; i < items; i++) {
      sql.append(" AND c").append(i).append(" ! = ").append(i);
    }
    String text = sql.toString();
    long before = allocated();
    List<String> toks = SpiderScriptTokens.tokenize(text);
    long used = allocated() - before;
    assertEquals("\"v" + (items - 1) + "\"", toks.get(8 + 2 * (items - 1)));
    assertEquals("!=", toks.get(toks.size() - 2));
    return (double) used / text.length();
  }

  @Test
  void workGrowsInProportionToTheText() {
    double small = bytesPerChar(2_000);
    double large = bytesPerChar(20_000);
    // a quadratic tokenizer allocates ten times as much per character on a text ten times as long
    assertTrue(large < 2 * small + 100, "bytes allocated per character: " + small + " at 2,000 items, " + large + " at 20,000");
    assertTrue(large < 1_000, "bytes allocated per character at 20,000 items: " + large);
  }
}

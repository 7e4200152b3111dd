package rolepolicy.evaluate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import rolepolicy.TestData;
import rolepolicy.generate.SpiderRun;
import rolepolicy.spider.Schema;
import rolepolicy.spider.SchemaReader;

/**
 * Every (gold SQL, predicted SQL) pair at hand that exact match as Spider's script counts it is
 * checked on: Spider dev's original SQL and its negative examples against the gold labels' SQL
 * (the dev split as the tests generate it), and every SQL of the recorded Sphinteract runs
 * (KaggleDBQA, BIRD) against their gold SQL. Spider train's SQL against itself is {@link #train}.
 */
final class ScriptCorpus {
  /**
   * One pair.
   *
   * @param source where the prediction comes from ({@code spider-dev original}, {@code spider-dev
   *     negative 2}, {@code kaggle_gpt35_baseline_4round_1shot 0}, …)
   * @param dataset {@code spider}, {@code kaggledbqa} or {@code bird}: whose schemas
   * @param prediction the stripped text
   */
  record Pair(String source, String dataset, GoldRecord gold, String prediction) {}

  private ScriptCorpus() {}

  static Map<String, Schema> schemas(String dataset) {
    return switch (dataset) {
      case "spider" -> TestData.schemas();
      case "kaggledbqa" -> SchemaReader.read(TestData.kaggleDir().resolve("KaggleDBQA_tables.json"));
      case "bird" -> SchemaReader.read(TestData.birdDir().resolve("dev_tables.json"));
      default -> throw new IllegalArgumentException(dataset);
    };
  }

  /** Spider dev and the Sphinteract runs, in a fixed order. */
  static List<Pair> pairs() throws IOException {
    List<Pair> pairs = new ArrayList<>();
    for (JsonNode r : SpiderRun.records("dev", "dev.json")) {
      JsonNode label = r.get("gold_label");
      if (label.get("type").asText().equals("REFUSE")) {
        continue;
      }
      GoldRecord gold = new GoldRecord(r.get("id").asText(), r.get("db_id").asText(), false,
          label.get("sql").asText(), r.get("original_sql").asText(), Map.of());
      pairs.add(new Pair("spider-dev original", "spider", gold, gold.originalSql().strip()));
      int n = 0;
      for (JsonNode negative : r.get("negative_examples")) {
        pairs.add(new Pair("spider-dev negative " + n++, "spider", gold, negative.get("sql").asText().strip()));
      }
    }
    Map<String, Schema> kaggle = schemas("kaggledbqa");
    Map<String, Schema> bird = schemas("bird");
    List<Path> logs;
    try (Stream<Path> files = Files.list(TestData.spiderDir().resolveSibling("sphinteract").resolve("logs"))) {
      logs = files.filter(f -> f.toString().endsWith(".json")).sorted().toList();
    }
    for (Path log : logs) {
      JsonNode run = new ObjectMapper().readTree(log.toFile());
      String dataset = run.get("dataset").asText().equals("bird") ? "bird" : "kaggledbqa";
      Map<String, Schema> schemas = dataset.equals("bird") ? bird : kaggle;
      String name = log.getFileName().toString().replace(".json", "");
      for (JsonNode record : run.get("records")) {
        String db = record.get("db_id").asText();
        if (!schemas.containsKey(db)) {
          continue;
        }
        GoldRecord gold = new GoldRecord(String.valueOf(record.get("index").asInt()), db, false,
            record.get("gold_sql").asText(), record.get("gold_sql").asText(), Map.of());
        for (JsonNode entry : record.get("sql_log")) {
          pairs.add(new Pair(name + " " + entry.get("order").asInt(), dataset, gold, entry.get("sql").asText().strip()));
        }
      }
    }
    return pairs;
  }

  /**
   * Spider dev generated with the shipped overrides ({@code data/overrides.json}, as {@code
   * data/dev.json} is): the pairs {@link #pairs} lacks (a gold label or a negative example that the
   * overrides change), as {@code spider-dev shipped-overrides original} and {@code … negative n}.
   */
  static List<Pair> devWithShippedOverrides(List<Pair> known) {
    java.util.Set<List<String>> seen = new java.util.HashSet<>();
    for (Pair pair : known) {
      seen.add(List.of(pair.gold().id(), pair.gold().goldSql(), pair.prediction()));
    }
    List<Pair> pairs = new ArrayList<>();
    JsonNode records = SpiderRun.generate("dev", "dev.json",
        rolepolicy.spider.OverridesReader.read(Path.of("data", "overrides.json")));
    for (JsonNode r : records) {
      JsonNode label = r.get("gold_label");
      if (label.get("type").asText().equals("REFUSE")) {
        continue;
      }
      GoldRecord gold = new GoldRecord(r.get("id").asText(), r.get("db_id").asText(), false,
          label.get("sql").asText(), r.get("original_sql").asText(), Map.of());
      List<Pair> candidates = new ArrayList<>();
      candidates.add(new Pair("spider-dev shipped-overrides original", "spider", gold, gold.originalSql().strip()));
      int n = 0;
      for (JsonNode negative : r.get("negative_examples")) {
        candidates.add(new Pair("spider-dev shipped-overrides negative " + n++, "spider", gold,
            negative.get("sql").asText().strip()));
      }
      for (Pair pair : candidates) {
        if (seen.add(List.of(gold.id(), gold.goldSql(), pair.prediction()))) {
          pairs.add(pair);
        }
      }
    }
    return pairs;
  }

  /** Spider train's SQL, each as the prediction against itself (train_spider.json's index as id). */
  static List<Pair> train() {
    try {
      JsonNode train = new ObjectMapper().readTree(TestData.spiderDir().resolve("train_spider.json").toFile());
      List<Pair> pairs = new ArrayList<>();
      for (int i = 0; i < train.size(); i++) {
        String sql = train.get(i).get("query").asText();
        GoldRecord gold = new GoldRecord(String.valueOf(i), train.get(i).get("db_id").asText(), false, sql, sql, Map.of());
        pairs.add(new Pair("spider-train original", "spider", gold, sql.strip()));
      }
      return pairs;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}

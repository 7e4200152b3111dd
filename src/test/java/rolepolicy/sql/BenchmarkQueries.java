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

/**
 * The gold SQL of BIRD dev and of KaggleDBQA, each query with its schema, from the folders named by
 * {@code bird.dir} and {@code kaggledbqa.dir}; a missing folder fails the test rather than skipping
 * it.
 */
final class BenchmarkQueries {
  /** KaggleDBQA's question files, in this order: the test questions, then the few-shot ones. */
  static final List<String> KAGGLE_DATABASES =
      List.of(
          "GeoNuclearData",
          "GreaterManchesterCrime",
          "Pesticide",
          "StudentMathScore",
          "TheHistoryofBaseball",
          "USWildFires",
          "WhatCDHipHop",
          "WorldSoccerDataBase");

  /**
   * One gold query.
   *
   * @param id BIRD's {@code question_id}; for KaggleDBQA the file and the 1-based place in it
   *     ({@code Pesticide_test#7})
   * @param ast Spider's parsed {@code sql} (KaggleDBQA), else null
   */
  record Query(String id, Schema schema, String sql, JsonNode ast) {}

  private static final ObjectMapper JSON = new ObjectMapper();

  private BenchmarkQueries() {}

  static Path birdDir() {
    return dir("bird.dir", "../shared/bird");
  }

  static Path kaggleDir() {
    return dir("kaggledbqa.dir", "../shared/kaggledbqa");
  }

  private static Path dir(String property, String fallback) {
    Path dir = Path.of(System.getProperty(property, fallback));
    assertTrue(Files.isDirectory(dir), "benchmark data not found at " + dir.toAbsolutePath());
    return dir;
  }

  static Map<String, Schema> birdSchemas() {
    return SchemaReader.read(birdDir().resolve("dev_tables.json"));
  }

  static Map<String, Schema> kaggleSchemas() {
    return SchemaReader.read(kaggleDir().resolve("KaggleDBQA_tables.json"));
  }

  /** BIRD dev's 1,534 questions, in file order; the SQL is in {@code sql} or {@code SQL}. */
  static List<Query> bird() {
    Map<String, Schema> schemas = birdSchemas();
    List<Query> queries = new ArrayList<>();
    for (JsonNode record : read(birdDir().resolve("dev.json"))) {
      JsonNode sql = record.has("sql") ? record.get("sql") : record.get("SQL");
      queries.add(
          new Query(
              record.get("question_id").asText(),
              schemas.get(record.get("db_id").asText()),
              sql.asText(),
              null));
    }
    return List.copyOf(queries);
  }

  /** KaggleDBQA's 272 questions: each database's test file, then its few-shot file. */
  static List<Query> kaggle() {
    Map<String, Schema> schemas = kaggleSchemas();
    List<Query> queries = new ArrayList<>();
    for (String db : KAGGLE_DATABASES) {
      for (String part : List.of("_test", "_fewshot")) {
        JsonNode records = read(kaggleDir().resolve("examples").resolve(db + part + ".json"));
        for (int i = 0; i < records.size(); i++) {
          JsonNode record = records.get(i);
          queries.add(
              new Query(
                  db + part + "#" + (i + 1),
                  schemas.get(record.get("db_id").asText()),
                  record.get("query").asText(),
                  record.get("sql")));
        }
      }
    }
    return List.copyOf(queries);
  }

  private static JsonNode read(Path file) {
    try {
      return JSON.readTree(file.toFile());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}

package rolepolicy.sql;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import rolepolicy.spider.Schema;
import rolepolicy.spider.SchemaReader;

/**
 * Times {@code SqlAnalyzer.analyse} on BIRD dev's gold SQL and on Spider dev's queries in one JVM:
 * each round analyses every query of one benchmark once, the two benchmarks alternating; prints
 * queries/s per round and the median of the last half of the rounds, the share of each
 * benchmark that the fast parser takes, and BIRD's time per query on either parser. Not a test: run it with the test classpath, e.g.
 *
 * <pre>
 * mvn -B -q test-compile dependency:build-classpath -Dmdep.outputFile=target/cp.txt
 * java -XX:TieredStopAtLevel=1 -cp target/test-classes:target/classes:$(cat target/cp.txt) \
 *     rolepolicy.sql.AnalysisSpeed ../shared/bird ../shared/spider 10
 * </pre>
 */
public final class AnalysisSpeed {
  private record Query(SqlAnalyzer analyzer, String sql) {}

  private AnalysisSpeed() {}

  public static void main(String[] args) throws IOException {
    Path bird = Path.of(args.length > 0 ? args[0] : "../shared/bird");
    Path spider = Path.of(args.length > 1 ? args[1] : "../shared/spider");
    int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 10;
    List<Query> birdQueries = queries(bird.resolve("dev_tables.json"), bird.resolve("dev.json"));
    List<Query> spiderQueries = queries(spider.resolve("tables.json"), spider.resolve("dev.json"));
    System.out.printf(
        Locale.ROOT,
        "BIRD dev: %d queries, %d through the fast parser; Spider dev: %d, %d%n",
        birdQueries.size(), fast(birdQueries), spiderQueries.size(), fast(spiderQueries));
    List<Query> birdFast =
        birdQueries.stream().filter(q -> SpiderSqlParser.parse(q.sql()) != null).toList();
    List<Query> birdSlow =
        birdQueries.stream().filter(q -> SpiderSqlParser.parse(q.sql()) == null).toList();
    double[] birdRates = new double[rounds];
    double[] spiderRates = new double[rounds];
    double[] fastRates = new double[rounds];
    double[] slowRates = new double[rounds];
    for (int round = 0; round < rounds; round++) {
      fastRates[round] = rate(birdFast);
      slowRates[round] = rate(birdSlow);
      birdRates[round] =
          birdQueries.size() / (birdFast.size() / fastRates[round] + birdSlow.size() / slowRates[round]);
      spiderRates[round] = rate(spiderQueries);
      System.out.printf(
          Locale.ROOT,
          "round %2d: BIRD %,8.0f queries/s   Spider %,8.0f queries/s%n",
          round + 1, birdRates[round], spiderRates[round]);
    }
    double b = medianOfLastHalf(birdRates);
    double s = medianOfLastHalf(spiderRates);
    System.out.printf(
        Locale.ROOT,
        "median of the last %d rounds: BIRD dev %,.0f queries/s (%.0f µs each),"
            + " Spider dev %,.0f queries/s (%.0f µs each); Spider/BIRD %.1fx%n",
        rounds - rounds / 2, b, 1e6 / b, s, 1e6 / s, s / b);
    System.out.printf(
        Locale.ROOT,
        "BIRD dev through the fast parser %.0f µs each, through JSqlParser %.0f µs each%n",
        1e6 / medianOfLastHalf(fastRates), 1e6 / medianOfLastHalf(slowRates));
  }

  private static List<Query> queries(Path tables, Path questions) throws IOException {
    Map<String, Schema> schemas = SchemaReader.read(tables);
    Map<String, SqlAnalyzer> analyzers = new HashMap<>();
    schemas.forEach((db, schema) -> analyzers.put(db, new SqlAnalyzer(schema)));
    List<Query> queries = new ArrayList<>();
    for (JsonNode record : new ObjectMapper().readTree(questions.toFile())) {
      JsonNode sql = record.has("query") ? record.get("query") : record.get("sql");
      if (sql == null) {
        sql = record.get("SQL");
      }
      queries.add(new Query(analyzers.get(record.get("db_id").asText()), sql.asText()));
    }
    return queries;
  }

  private static long fast(List<Query> queries) {
    return queries.stream().filter(q -> SpiderSqlParser.parse(q.sql()) != null).count();
  }

  private static double rate(List<Query> queries) {
    long start = System.nanoTime();
    for (Query q : queries) {
      q.analyzer().analyse(q.sql());
    }
    return queries.size() / ((System.nanoTime() - start) / 1e9);
  }

  private static double medianOfLastHalf(double[] rates) {
    double[] last = Arrays.copyOfRange(rates, rates.length / 2, rates.length);
    Arrays.sort(last);
    return last.length % 2 == 1
        ? last[last.length / 2]
        : (last[last.length / 2 - 1] + last[last.length / 2]) / 2;
  }
}

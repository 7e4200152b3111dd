package rolepolicy.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import rolepolicy.TestData;

/** The limits on SQL text: every gold query at hand is inside them; a hostile one is refused before parsing. */
class SqlLimitsTest {
  @Test
  void everyGoldQueryOfSpiderBirdAndKaggleDbqaIsInside() throws Exception {
    ObjectMapper json = new ObjectMapper();
    List<String> gold = new ArrayList<>();
    for (String split : List.of("dev.json", "train_spider.json")) {
      json.readTree(TestData.spiderDir().resolve(split).toFile()).forEach(r -> gold.add(r.get("query").asText()));
    }
    json.readTree(TestData.birdDir().resolve("dev.json").toFile()).forEach(r -> gold.add(r.get("sql").asText()));
    try (Stream<Path> files = Files.list(TestData.kaggleDir().resolve("examples"))) {
      for (Path file : files.sorted().toList()) {
        json.readTree(file.toFile()).forEach(r -> gold.add(r.get("query").asText()));
      }
    }
    assertEquals(1034 + 7000 + 1534 + 544, gold.size());
    gold.forEach(SqlLimits::check);
  }

  @Test
  void aHostileQueryIsRefusedBeforeAnyParserReadsIt() {
    SqlAnalyzer analyzer = new SqlAnalyzer(TestData.schemas().get("concert_singer"));
    String nested = "SELECT name FROM singer WHERE " + "(".repeat(20_000) + "age = 1" + ")".repeat(20_000);
    assertEquals("the SQL text nests parentheses deeper than the limit of 10",
        assertThrows(SqlAnalysisException.class, () -> analyzer.analyse(nested)).getMessage());
    StringBuilder or = new StringBuilder("SELECT name FROM singer WHERE age = 0");
    for (int i = 1; i <= 1_000; i++) {
      or.append(i % 2 == 0 ? " OR " : " + ").append("age");
    }
    assertEquals("the SQL text has more than 1,000 operators (AND, OR, + - * / = < > ...), the limit",
        assertThrows(SqlAnalysisException.class, () -> analyzer.analyse(or.toString())).getMessage());
    // inside the limits, the analysis stands
    analyzer.analyse("SELECT name FROM singer WHERE " + "(".repeat(8) + "age = 1" + ")".repeat(8));
    analyzer.analyse(or.substring(0, or.lastIndexOf(" + ")));
  }
}

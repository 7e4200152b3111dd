package rolepolicy.generate;

import rolepolicy.Golden;
import rolepolicy.io.DatasetWriter;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import rolepolicy.spider.OverridesReader;

/**
 * Whole output records against golden files in {@code src/test/resources/golden/}: one per gold
 * outcome (each rewrite, each REFUSE reason) and negative rule. Regenerate them with {@code
 * -Dgolden.update=true} and review the diff.
 */
class GoldenRecordsTest {
  private static final Path GOLDEN = Path.of("src/test/resources/golden");
  private static JsonNode overridden;

  @ParameterizedTest(name = "{0} {2}: {3}")
  @CsvSource({
    "plain, dev, dev_0001, compliant SQL; N1",
    "plain, dev, dev_0003, R1 then R1_NO_CANDIDATE; N3",
    "plain, dev, dev_0005, NO_RULE",
    "plain, dev, dev_0009, R3",
    "plain, dev, dev_0031, no negative for a set operation",
    "plain, dev, dev_0048, R1_NO_CANDIDATE",
    "plain, dev, dev_0292, SELECT_STAR",
    "plain, dev, dev_0300, R1 twice then MAX_STEPS",
    "plain, dev, dev_0616, R2 then compliant SQL",
    "plain, dev, dev_0993, R4; N2",
    "plain, train, train_3154, UNRESOLVED from text (sql is null; the text names an unknown table)",
    "bird, dev, dev_0001, from text: compliant SQL with backquoted names; no negative (frpm has no restricted column)",
    "bird, dev, dev_0003, from text: N1",
    "bird, dev, dev_0098, from text: R1 twice then MAX_STEPS",
    "bird, dev, dev_0107, from text: R2 then compliant SQL",
    "bird, dev, dev_0193, from text: N2",
    "bird, dev, dev_0245, from text: R1 inside a derived table keeps the output name (AS) then MAX_STEPS",
    "overridden, dev, dev_0003, R1 then compliant SQL",
  })
  void recordMatchesItsGoldenFile(String variant, String split, String id, String covers)
      throws Exception {
    JsonNode records =
        switch (variant) {
          case "plain" -> SpiderRun.records(split, split.equals("dev") ? "dev.json" : "train_spider.json");
          case "bird" -> SpiderRun.birdDev();
          default -> overriddenDev();
        };
    JsonNode record = records.get(Integer.parseInt(id.substring(id.indexOf('_') + 1)) - 1);
    assertEquals(id, record.get("id").asText());
    String actual = DatasetWriter.pretty().writeValueAsString(record) + "\n";
    Path golden = GOLDEN.resolve(variant).resolve(id + ".json");
    Golden.check(golden, actual, covers);
  }

  private static synchronized JsonNode overriddenDev() {
    if (overridden == null) {
      overridden =
          SpiderRun.generate("dev", "dev.json", OverridesReader.read(GOLDEN.resolve("overrides.json")));
    }
    return overridden;
  }
}

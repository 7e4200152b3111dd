package rolepolicy.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import rolepolicy.TestData;
import rolepolicy.generate.SpiderRun;
import rolepolicy.report.QaFigures.Check;
import rolepolicy.report.QaFigures.SplitFigures;
import rolepolicy.report.QaFigures.StructureFigures;

/** The QA figures on the real Spider dev split. */
class SpiderDevQaTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void structureDefinitionsReproduceTheSpecsDevFigures() {
    StructureFigures s = SpiderStructure.of("dev", TestData.spiderDir().resolve("dev.json"), 1034);
    assertEquals(1034, s.questions());
    assertEquals(408, s.join());
    assertEquals(159, s.nested());
    assertEquals(277, s.groupBy());
    assertEquals(80, s.setOperation());
    assertEquals(3, s.selectStar());
    assertEquals(0, s.unreadable());
    assertNull(s.note());
    assertTrue(s.checks().stream().allMatch(Check::inRange), s.checks().toString());
  }

  @Test
  void everyNegativeOfTheDevSplitIsOneEditAndQ1Q2AreItsCounts() throws Exception {
    JsonNode records = SpiderRun.records("dev", "dev.json");
    List<SplitRecord> parsed = new ArrayList<>();
    int violating = 0;
    int refused = 0;
    int negatives = 0;
    for (JsonNode r : records) {
      parsed.add(JSON.treeToValue(r, SplitRecord.class));
      violating += r.get("violations_original").isEmpty() ? 0 : 1;
      refused += "REFUSE".equals(r.at("/gold_label/type").asText()) ? 1 : 0;
      negatives += r.get("negative_examples").size();
    }
    SplitFigures dev = new SplitQa("dev", parsed, Map.of()).figures("dev.json", null);
    assertEquals(violating, dev.q1().count());
    assertEquals(refused, dev.q2().count());
    assertEquals(negatives, dev.q4().oneEdit().total());
    assertEquals(List.of(), dev.q4().oneEditFailures());
    assertEquals(records.size() - dev.q4().withNegative(), dev.q4().withoutByCause().values().stream().mapToInt(Integer::intValue).sum());
  }
}

package rolepolicy.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rolepolicy.cli.CommandRun;

/**
 * Rule coverage on the bundled Spider dev with the shipped rules and overrides: the rules that
 * never fire are exactly those docs/rules.md explains, in the same order.
 */
class DevCoverageTest {
  @TempDir Path tmp;

  @Test
  void theRulesThatNeverFireOnDevAreTheOnesDocumented() throws Exception {
    Path data = tmp.resolve("data");
    CommandRun generate = CommandRun.of("generate", "--no-progress", "--threads", "2", "--out", data.toString());
    assertEquals(0, generate.code(), generate.err());
    CommandRun report = CommandRun.of("report", "--data", data.toString());
    assertEquals(0, report.code(), report.err());
    JsonNode dev = new ObjectMapper().readTree(data.resolve("qa/qa.json").toFile()).get("splits").get(0);
    List<String> never = new ArrayList<>();
    dev.at("/coverage/never_fired").forEach(r -> never.add(r.get("rule").asText()));

    String rules = Files.readString(Path.of("docs/rules.md"));
    String section = rules.substring(rules.indexOf("## Rule coverage"));
    List<String> documented = new ArrayList<>();
    Matcher row = Pattern.compile("(?m)^\\| ([^|]+?) \\| `[a-z]+\\.drl` \\|").matcher(section);
    while (row.find()) {
      documented.add(row.group(1));
    }
    assertEquals(documented, never);
    assertTrue(report.out().contains("dev: 32 rules fired, 22 never fired: " + String.join("; ", never)), report.out());
    assertTrue(section.contains(report.out().lines().filter(l -> l.startsWith("dev: 32 rules")).findFirst().orElseThrow()),
        "docs/rules.md shows the printed line");
  }
}

package rolepolicy.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rolepolicy.TestData;

/** The generate command as a user runs it: rule edits take effect, the audit trail, the summary. */
class RunCommandTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  /** Runs the command with no overrides, whatever the project's data/overrides.json holds. */
  private String run(String... args) throws IOException {
    Path none = dir.resolve("no-overrides.json");
    Files.writeString(none, "[]");
    String[] all = java.util.Arrays.copyOf(args, args.length + 2);
    all[args.length] = "--overrides";
    all[args.length + 1] = none.toString();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = Main.run(all, new PrintWriter(out, true), new PrintWriter(err, true));
    assertEquals(0, code, err.toString());
    return out.toString();
  }

  private Path spiderWithDevRecords(int count) throws IOException {
    Path spider = Files.createDirectories(dir.resolve("spider"));
    Files.copy(TestData.spiderDir().resolve("tables.json"), spider.resolve("tables.json"));
    JsonNode dev = JSON.readTree(TestData.spiderDir().resolve("dev.json").toFile());
    var first = JSON.createArrayNode();
    for (int i = 0; i < count; i++) {
      first.add(dev.get(i));
    }
    JSON.writeValue(spider.resolve("dev.json").toFile(), first);
    return spider;
  }

  private Path copyOfRules() throws IOException {
    Path rules = Files.createDirectories(dir.resolve("rules"));
    try (Stream<Path> files = rolepolicy.engine.RuleBase.ruleFiles(TestData.ruleSet()).stream()) {
      for (Path file : files.toList()) {
        Files.copy(file, rules.resolve(file.getFileName()));
      }
    }
    return rules;
  }

  @Test
  void anEditedRuleFileTakesEffectOnTheNextRun() throws IOException {
    Path spider = spiderWithDevRecords(3);
    Path rules = copyOfRules();
    run("generate", "--spider", spider.toString(), "--rules", rules.toString(), "--out", dir.resolve("before").toString());
    Path policy = rules.resolve("policy.drl");
    Files.writeString(
        policy,
        Files.readString(policy)
            .replace("lowerName contains \"email\" ||", "lowerName == \"name\" || lowerName contains \"email\" ||"));
    run("generate", "--spider", spider.toString(), "--rules", rules.toString(), "--out", dir.resolve("after").toString());

    JsonNode before = JSON.readTree(dir.resolve("before/dev.json").toFile());
    JsonNode after = JSON.readTree(dir.resolve("after/dev.json").toFile());
    assertEquals("Public", before.get(1).at("/column_policies/singer.name").asText());
    assertEquals("Hidden", after.get(1).at("/column_policies/singer.name").asText());
    // dev_0003 selects name, country, age: singer.name is now a violation too, the first
    assertEquals("singer.age", before.get(2).at("/violations_original/0/column").asText());
    assertEquals(1, before.get(2).get("violations_original").size());
    assertEquals("singer.name", after.get(2).at("/violations_original/0/column").asText());
    assertEquals("Hidden columns may not be used", after.get(2).at("/violations_original/0/rule").asText());
    assertEquals(2, after.get(2).get("violations_original").size());
    assertEquals(
        "Contact data (email, phone, address) is Hidden",
        JSON.readTree(dir.resolve("after/policies/concert_singer.json").toFile())
            .at("/columns")
            .findParents("column").stream()
            .filter(c -> c.get("column").asText().equals("singer.name"))
            .findFirst().orElseThrow().get("auto_rule").asText());
  }

  @Test
  void theAuditFileHasOneLinePerQuestionWithEveryFiringInOrder() throws IOException {
    Path spider = spiderWithDevRecords(3);
    Path audit = dir.resolve("audit.jsonl");
    run("generate", "--spider", spider.toString(), "--out", dir.resolve("out").toString(), "--audit", audit.toString());

    List<String> lines = Files.readAllLines(audit);
    assertEquals(3, lines.size());
    JsonNode third = JSON.readTree(lines.get(2)); // dev_0003: R1, then R1 has no candidate
    assertEquals("dev_0003", third.get("id").asText());
    List<String> fired =
        third.get("firings").findValues("rule").stream().map(JsonNode::asText).toList();
    List<String> stages =
        third.get("firings").findValues("stage").stream().map(JsonNode::asText).distinct().toList();
    assertEquals(List.of("original", "step 1", "negative"), stages);
    assertTrue(
        fired.indexOf("Hidden columns may not be used")
            < fired.indexOf("R1: replace a selected Hidden or JoinOnly column by an _id column of its table"),
        fired.toString());
    assertTrue(fired.contains("R1: refuse when the table has no other _id column"), fired.toString());
    assertTrue(fired.contains("N3: append a JoinOnly column of a FROM table to the SELECT list"), fired.toString());
  }

  @Test
  void theSummaryGivesQuestionsRefusalsViolationsAndSpeed() throws IOException {
    String out = run("generate", "--spider", spiderWithDevRecords(3).toString(), "--out", dir.resolve("out").toString());
    int files = rolepolicy.engine.RuleBase.ruleFiles(TestData.ruleSet()).size();
    assertTrue(out.matches("(?s)rules: " + files + " files compiled in [0-9.]+ s\ndev: 3 questions, 1 REFUSE, 1 violation, 0 with problems, [0-9.]+ s, [0-9]+ questions/s\n.*"), out);
  }
}

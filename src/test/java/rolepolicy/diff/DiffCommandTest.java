package rolepolicy.diff;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rolepolicy.TestData;
import rolepolicy.cli.CommandRun;

/**
 * One naming rule edited in a scratch copy of rules/: dev generated with both rule folders, and
 * diff's listed records against an independent record-by-record comparison of the two folders.
 */
class DiffCommandTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String BODY_RULE = "Body measures (weight, height, age) are Hidden";

  @TempDir static Path tmp;
  static Path before;
  static Path after;
  static JsonNode diff;
  static CommandRun diffRun;

  @BeforeAll
  static void generateBothAndDiff() throws IOException {
    Path rules = tmp.resolve("rules");
    Files.createDirectories(rules);
    try (Stream<Path> files = rolepolicy.engine.RuleBase.ruleFiles(TestData.ruleSet()).stream()) {
      for (Path f : files.toList()) {
        Files.copy(f, rules.resolve(f.getFileName()));
      }
    }
    Path policy = rules.resolve("policy.drl");
    String drl = Files.readString(policy);
    String edited = drl.replace(" || lowerName == \"age\" )", " )");
    assertFalse(drl.equals(edited), "the age condition of policy.drl was not found");
    Files.writeString(policy, edited);
    Path none = tmp.resolve("no-overrides.json");
    Files.writeString(none, "[]");
    before = tmp.resolve("before");
    after = tmp.resolve("after");
    for (Object[] side : new Object[][] {{TestData.rulesDir(), before}, {rules, after}}) {
      CommandRun run = CommandRun.of("generate", "--no-progress", "--threads", "2",
          "--spider", TestData.spiderDir().toString(), "--overrides", none.toString(),
          "--rules", side[0].toString(), "--out", side[1].toString());
      assertEquals(0, run.code(), run.err());
    }
    diffRun = CommandRun.of("diff", before.toString(), after.toString(), "--out", tmp.resolve("d").toString());
    assertEquals(0, diffRun.code(), diffRun.err());
    diff = JSON.readTree(tmp.resolve("d").resolve("diff.json").toFile());
  }

  private static JsonNode dev() {
    JsonNode split = diff.get("splits").get(0);
    assertEquals("dev", split.get("split").asText());
    return split;
  }

  @Test
  void listsExactlyTheRecordsThatDifferRecordByRecord() throws IOException {
    JsonNode a = JSON.readTree(before.resolve("dev.json").toFile());
    JsonNode b = JSON.readTree(after.resolve("dev.json").toFile());
    assertEquals(a.size(), b.size());
    Set<String> differ = new TreeSet<>();
    Set<String> decided = new TreeSet<>();
    for (int i = 0; i < a.size(); i++) {
      assertEquals(a.get(i).get("id"), b.get(i).get("id"));
      if (!a.get(i).equals(b.get(i))) {
        differ.add(a.get(i).get("id").asText());
      }
      JsonNode x = a.get(i).deepCopy();
      JsonNode y = b.get(i).deepCopy();
      ((com.fasterxml.jackson.databind.node.ObjectNode) x).remove("column_policies");
      ((com.fasterxml.jackson.databind.node.ObjectNode) y).remove("column_policies");
      if (!x.equals(y)) {
        decided.add(a.get(i).get("id").asText());
      }
    }
    Set<String> listed = new TreeSet<>();
    dev().get("records").forEach(r -> listed.add(r.get("id").asText()));
    assertFalse(differ.isEmpty());
    assertEquals(differ, listed);
    assertEquals(differ.size(), dev().get("changed").asInt());
    assertEquals(decided.size(), dev().get("decided_differently").asInt());
  }

  @Test
  void everyListedRecordIsInTheGroupOfEachRuleWhoseFiringChangedOnIt() throws IOException {
    var oldAudit = rolepolicy.generate.AuditTrail.read(before, "dev");
    var newAudit = rolepolicy.generate.AuditTrail.read(after, "dev");
    Set<String> grouped = new HashSet<>();
    for (JsonNode record : dev().get("records")) {
      String id = record.get("id").asText();
      Set<String> was = rules(oldAudit.get(id));
      Set<String> is = rules(newAudit.get(id));
      Set<String> started = new TreeSet<>(is);
      started.removeAll(was);
      Set<String> stopped = new TreeSet<>(was);
      stopped.removeAll(is);
      for (String rule : started) {
        assertTrue(group(rule).get("started").toString().contains("\"" + id + "\""), id + " under " + rule);
      }
      for (String rule : stopped) {
        assertTrue(group(rule).get("stopped").toString().contains("\"" + id + "\""), id + " under " + rule);
      }
    }
    for (JsonNode g : dev().get("groups")) {
      for (String field : List.of("started", "stopped", "column_policy")) {
        g.get(field).forEach(id -> grouped.add(id.asText()));
      }
    }
    Set<String> listed = new HashSet<>();
    dev().get("records").forEach(r -> listed.add(r.get("id").asText()));
    assertEquals(listed, grouped, "every listed record is in some group, and only those");
  }

  @Test
  void theEditedRuleGroupsTheRecordsWhosePolicyMapChanged() throws IOException {
    JsonNode a = JSON.readTree(before.resolve("dev.json").toFile());
    JsonNode b = JSON.readTree(after.resolve("dev.json").toFile());
    Set<String> mapChanged = new TreeSet<>();
    for (int i = 0; i < a.size(); i++) {
      if (!a.get(i).get("column_policies").equals(b.get(i).get("column_policies"))) {
        mapChanged.add(a.get(i).get("id").asText());
      }
    }
    Set<String> inGroup = new TreeSet<>();
    group(BODY_RULE).get("column_policy").forEach(id -> inGroup.add(id.asText()));
    assertEquals(mapChanged, inGroup);
    for (JsonNode c : diff.get("columns")) {
      assertTrue(c.get("column").asText().endsWith(".age"), c.toString());
      assertEquals("Hidden", c.get("final_before").asText());
      assertEquals("Public", c.get("final_after").asText());
    }
    assertTrue(diffRun.out().contains("Hidden columns may not be used"), diffRun.out());
    assertTrue(Files.isRegularFile(tmp.resolve("d").resolve("diff.html")));
  }

  @Test
  void aFolderAgainstItselfChangesNothing() throws IOException {
    CommandRun run = CommandRun.of("diff", before.toString(), before.toString(), "--out", tmp.resolve("same").toString());
    assertEquals(0, run.code(), run.err());
    JsonNode same = JSON.readTree(tmp.resolve("same").resolve("diff.json").toFile());
    assertEquals(0, same.get("splits").get(0).get("changed").asInt());
    assertEquals(0, same.get("columns").size());
  }

  @Test
  void aMissingFolderIsBadInput() {
    CommandRun run = CommandRun.of("diff", before.toString(), tmp.resolve("nowhere").toString(), "--out", tmp.resolve("x").toString());
    assertEquals(1, run.code());
    assertTrue(run.err().contains("nowhere: folder not found"), run.err());
    assertFalse(Files.exists(tmp.resolve("x")));
  }

  private static JsonNode group(String rule) {
    for (JsonNode g : dev().get("groups")) {
      if (g.get("rule").asText().equals(rule)) {
        return g;
      }
    }
    throw new AssertionError("no group for " + rule + " in " + dev().get("groups"));
  }

  private static Set<String> rules(rolepolicy.generate.AuditTrail.Line line) {
    Set<String> rules = new HashSet<>();
    line.firings().forEach(f -> rules.add(f.rule()));
    return rules;
  }
}

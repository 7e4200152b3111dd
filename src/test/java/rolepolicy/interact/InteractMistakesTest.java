package rolepolicy.interact;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rolepolicy.TestData;
import rolepolicy.cli.CommandRun;
import rolepolicy.io.DatasetWriter;
import rolepolicy.io.OwnedFolder;
import rolepolicy.generate.SpiderRun;

/** interact on four Spider dev questions: an unwritable --out, a rule whose action throws, a resumed run. */
class InteractMistakesTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir static Path shared;
  static Path dataset;

  @TempDir Path dir;

  @BeforeAll
  static void fourDevQuestions() throws Exception {
    ArrayNode four = JSON.createArrayNode();
    SpiderRun.records("dev", "dev.json").forEach(r -> {
      if (four.size() < 4) {
        four.add(r);
      }
    });
    dataset = shared.resolve("dev4.json");
    DatasetWriter.JSON.writeValue(dataset.toFile(), four);
  }

  private static CommandRun interact(Path out, String... extra) {
    List<String> args = new ArrayList<>(List.of("interact", "--dataset", dataset.toString(),
        "--db", TestData.spiderDir().resolve("database").toString(),
        "--tables", TestData.spiderDir().resolve("tables.json").toString(), "--out", out.toString()));
    args.addAll(List.of(extra));
    return CommandRun.of(args.toArray(String[]::new));
  }

  @Test
  void anOutFolderThatCannotBeWrittenIsExitOneNamingIt() throws Exception {
    Path readOnly = TestData.unwritableFolder(dir);
    CommandRun run = interact(readOnly);
    assertEquals(1, run.code(), run.err());
    assertEquals("error: " + readOnly + ": cannot write output here (permission denied)", run.err().strip());
  }

  @Test
  void aRuleWhoseActionThrowsIsExitOneNamingTheRuleAndItsFile() throws Exception {
    Path rules = Files.createDirectories(dir.resolve("rules"));
    try (Stream<Path> files = rolepolicy.engine.RuleBase.ruleFiles(TestData.ruleSet()).stream()) {
      for (Path f : files.filter(f -> f.toString().endsWith(".drl")).toList()) {
        Files.copy(f, rules.resolve(f.getFileName()));
      }
    }
    Path drl = rules.resolve("permissions.drl");
    Files.writeString(drl, Files.readString(drl).replaceFirst(
        "(rule \"Hidden columns may not be used\"[\\s\\S]*?when[\\s\\S]*?then)", "$1\n    String none = null; none.length();"));
    CommandRun run = interact(dir.resolve("out"), "--rules", rules.toString());
    assertEquals(1, run.code(), run.err());
    assertTrue(run.err().startsWith("error: " + drl + ": rule \"Hidden columns may not be used\": its action (then) failed: "
        + "java.lang.NullPointerException"), run.err());
    assertFalse(run.err().contains("\tat "), run.err());
  }

  @Test
  void aResumedRunSaysSoAndCountsOnFromTheQuestionsDone() throws Exception {
    Path whole = dir.resolve("whole");
    CommandRun first = interact(whole);
    assertEquals(0, first.code(), first.err());
    assertFalse(first.err().contains("resuming"), first.err());
    JsonNode log = JSON.readTree(whole.resolve("log.json").toFile());

    // a run stopped after two questions: its progress file holds the settings and two logs
    Path stopped = Files.createDirectories(dir.resolve("stopped"));
    List<String> progress = new ArrayList<>();
    progress.add(JSON.writeValueAsString(JSON.createObjectNode().put("settings", log.get("settings").asText())));
    progress.add(JSON.writeValueAsString(log.get("records").get(0)));
    progress.add(JSON.writeValueAsString(log.get("records").get(1)));
    Files.write(stopped.resolve(InteractRun.PROGRESS), progress);
    OwnedFolder.recordWritten(List.of(stopped.resolve(InteractRun.PROGRESS))); // as interact does

    CommandRun resumed = interact(stopped);
    assertEquals(0, resumed.code(), resumed.err());
    assertEquals("resuming: 2 of 4 questions already done in " + stopped + "\n4 / 4 questions\n", resumed.err());
    assertEquals(log.get("records"), JSON.readTree(stopped.resolve("log.json").toFile()).get("records"));
    assertTrue(resumed.out().startsWith("4 questions played"), resumed.out());
  }
}

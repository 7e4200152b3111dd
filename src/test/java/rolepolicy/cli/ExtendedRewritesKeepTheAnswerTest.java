package rolepolicy.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rolepolicy.TestData;
import rolepolicy.db.Execution;
import rolepolicy.evaluate.ResultMatch;

/**
 * Every rewrite of the extended profile keeps the answer: {@code generate --profile extended} on
 * Spider train and dev, then each gold SQL made by R5 or R6 run beside its question's original SQL
 * on the question's database, here, apart from the check generate made.
 */
class ExtendedRewritesKeepTheAnswerTest {
  @TempDir Path dir;

  @Test
  void everyExtendedRewriteOfSpiderTrainAndDevGivesTheOriginalsResult() throws Exception {
    CommandRun run = CommandRun.of("generate", "--no-progress", "--spider", TestData.spiderDir().toString(),
        "--splits", "train,dev", "--profile", "extended", "--out", dir.toString());
    assertEquals(0, run.code(), run.err());
    List<String> differ = new ArrayList<>();
    int checked = 0;
    for (String split : List.of("train", "dev")) {
      for (JsonNode record : new ObjectMapper().readTree(dir.resolve(split + ".json").toFile())) {
        JsonNode gold = record.get("gold_label");
        boolean extended = false;
        for (JsonNode step : gold.path("steps")) {
          extended |= step.get("rule").asText().matches("R[56]");
        }
        if (!extended) {
          continue;
        }
        checked++;
        String db = record.get("db_id").asText();
        String original = record.get("original_sql").asText();
        Execution before = TestData.spiderRunner().run(db, original);
        Execution after = TestData.spiderRunner().run(db, gold.get("sql").asText());
        boolean ordered = original.toLowerCase(Locale.ROOT).matches("(?s).*\\border\\s+by\\b.*");
        if (before.status() != Execution.Status.OK || after.status() != Execution.Status.OK
            || !ResultMatch.matches(before.rows(), after.rows(), ordered)) {
          differ.add(record.get("id").asText() + ": " + original + " -> " + gold.get("sql").asText());
        }
      }
    }
    System.out.println("extended rewrites of Spider train+dev run and compared: " + checked);
    assertEquals(List.of(), differ);
    assertEquals(93, checked, "R5 and R6 gold SQL in Spider train+dev");
    assertTrue(run.out().contains("dev: 1034 questions, 256 REFUSE"), run.out());
  }
}

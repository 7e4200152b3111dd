package rolepolicy.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rolepolicy.TestData;

/**
 * {@code evaluate --profile A,B}: one predictions file scored under each profile, against each
 * profile's dataset, written apart and printed side by side; the same SQL complies under one
 * profile and not another.
 */
class EvaluateProfilesTest {
  @TempDir static Path dir;
  private static Path dataset;

  @BeforeAll
  static void generate() {
    Path data = dir.resolve("data");
    for (String[] run : new String[][] {{"spec-v1", data.toString()}, {"strict", data.resolve("strict").toString()}}) {
      CommandRun generated = CommandRun.of("generate", "--no-progress", "--spider", TestData.spiderDir().toString(),
          "--splits", "dev", "--profile", run[0], "--out", run[1]);
      assertEquals(0, generated.code(), generated.err());
    }
    dataset = data.resolve("dev.json");
  }

  @Test
  void thePredictionsAreScoredUnderEachProfileSideBySide() throws Exception {
    Path out = dir.resolve("results");
    CommandRun run = CommandRun.of("evaluate", "--dataset", dataset.toString(), "--pred",
        TestData.spiderDir().resolveSibling("spider-predictions").resolve("codes-7b-dev.txt").toString(),
        "--profile", "spec-v1,strict", "--out", out.toString(), "--no-cache");
    assertEquals(0, run.code(), run.err());
    assertTrue(run.out().lines().anyMatch(l -> l.matches("\\s+spec-v1\\s+strict")), run.out());
    // ORDER BY and GROUP BY are judged under strict only
    assertTrue(run.out().lines().anyMatch(l -> l.matches("\\s+violating in OrderKey\\s+-\\s+\\d+\\.\\d%")), run.out());
    ObjectMapper json = new ObjectMapper();
    JsonNode v1 = json.readTree(out.resolve("spec-v1/metrics.json").toFile()).get("predictors").elements().next();
    JsonNode strict = json.readTree(out.resolve("strict/metrics.json").toFile()).get("predictors").elements().next();
    double compliantV1 = v1.get("compliance").get("compliant_rate").asDouble();
    double compliantStrict = strict.get("compliance").get("compliant_rate").asDouble();
    assertTrue(compliantStrict < compliantV1, compliantStrict + " vs " + compliantV1);
    assertTrue(Files.isRegularFile(out.resolve("strict/per_question.jsonl")));
    assertTrue(json.readTree(out.resolve("strict/metrics.json").toFile()).get("dataset").asText()
        .endsWith("strict/dev.json"));
  }

  @Test
  void theFirstProfileMayBeAnyAndSpecV1sDatasetIsFoundWhereGenerateWritesIt() throws Exception {
    Path out = dir.resolve("results-strict-first");
    CommandRun run = CommandRun.of("evaluate", "--dataset", dataset.resolveSibling("strict").resolve("dev.json").toString(),
        "--pred", TestData.spiderDir().resolveSibling("spider-predictions").resolve("codes-7b-dev.txt").toString(),
        "--profile", "strict,spec-v1", "--out", out.toString(), "--no-cache");
    assertEquals(0, run.code(), run.err());
    assertEquals(dataset.toString(), new ObjectMapper().readTree(out.resolve("spec-v1/metrics.json").toFile())
        .get("dataset").asText());
  }

  @Test
  void aProfileWithoutItsDatasetIsNamedWithWhereItWasLookedFor() {
    CommandRun run = CommandRun.of("evaluate", "--dataset", dataset.toString(), "--pred",
        TestData.spiderDir().resolveSibling("spider-predictions").resolve("codes-7b-dev.txt").toString(),
        "--profile", "spec-v1,analyst", "--out", dir.resolve("none").toString(), "--no-cache");
    assertEquals(1, run.code(), run.out());
    assertEquals("error: " + dataset.resolveSibling("analyst").resolve("dev.json")
        + ": no dataset of profile analyst (generate --profile analyst writes it there by default)\n", run.err());
    assertTrue(Files.notExists(dir.resolve("none")));
  }

  @Test
  void aDatasetOfAnotherProfileIsRefused() throws Exception {
    assertEquals("{\n  \"profile\" : \"strict\"\n}\n", Files.readString(dataset.resolveSibling("strict").resolve("profile.json")));
    String predictions = TestData.spiderDir().resolveSibling("spider-predictions").resolve("codes-7b-dev.txt").toString();
    CommandRun strict = CommandRun.of("evaluate", "--dataset", dataset.toString(), "--pred", predictions,
        "--profile", "strict", "--out", dir.resolve("refused").toString(), "--no-cache");
    assertEquals(2, strict.code(), strict.out());
    assertTrue(Files.notExists(dataset.resolveSibling("profile.json")), "spec-v1's output is as before profiles");
    assertTrue(strict.err().startsWith("--profile strict: " + dataset + " was generated under profile spec-v1 (its folder has no"
        + " profile.json);"
        + " give --dataset a split of profile strict (generate --profile strict writes data/strict/)\n"), strict.err());
    CommandRun both = CommandRun.of("evaluate", "--dataset", dataset.resolveSibling("strict").resolve("dev.json").toString(),
        "--pred", predictions, "--profile", "spec-v1,strict", "--out", dir.resolve("refused").toString(), "--no-cache");
    assertEquals(2, both.code(), both.out());
    assertTrue(both.err().startsWith("--profile spec-v1: " + dataset.resolveSibling("strict").resolve("dev.json")
        + " was generated under profile strict (its profile.json)"), both.err());
    assertTrue(Files.notExists(dir.resolve("refused")));
  }

  @Test
  void withoutDatasetAProfileIsScoredOnItsOwn() {
    CommandRun run = CommandRun.of("evaluate", "--pred",
        TestData.spiderDir().resolveSibling("spider-predictions").resolve("codes-7b-dev.txt").toString(),
        "--profile", "strict", "--out", dir.resolve("own").toString(), "--no-cache");
    assertEquals(1, run.code(), run.out());
    assertEquals("error: " + Path.of("data", "strict", "dev.json") + ": no dataset of profile strict"
        + " (generate --profile strict writes it there by default)\n", run.err());
  }
}

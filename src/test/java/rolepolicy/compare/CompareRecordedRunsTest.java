package rolepolicy.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rolepolicy.TestData;
import rolepolicy.cli.Main;

/**
 * The README's commands on real data: the five recorded KaggleDBQA runs (round 0) as predictions
 * over the generated KaggleDBQA test dataset, evaluated, then compared.
 */
class CompareRecordedRunsTest {
  static final Path SPHINTERACT = Path.of("..", "shared", "sphinteract");
  static final String[][] RUNS = {
    {"gpt35-0shot", "gpt35_baseline_4round"}, {"gpt35-1shot", "kaggle_gpt35_baseline_4round_1shot"},
    {"gpt35-3shot", "kaggle_gpt35_baseline_4round_3shot"}, {"gpt35-5shot", "kaggle_gpt35_baseline_4round_5shot"},
    {"gpt4turbo-0shot", "gpt4turbo_baseline_4round"}};

  @TempDir static Path dir;
  static String compareOut;

  record Result(int code, String out, String err) {}

  static Result run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = Main.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
    return new Result(code, out.toString(), err.toString());
  }

  static void ok(Result r) {
    assertEquals(0, r.code(), r.err() + r.out());
  }

  @BeforeAll
  static void evaluateTheFiveRecordedRuns() throws IOException {
    Path k = TestData.kaggleDir();
    List<String> tests;
    try (Stream<Path> files = Files.list(k.resolve("examples"))) {
      tests = files.map(Path::toString).filter(f -> f.endsWith("_test.json")).sorted().toList();
    }
    ok(run("generate", "--tables", k.resolve("KaggleDBQA_tables.json").toString(), "--questions", String.join(",", tests),
        "--split", "test", "--overrides", "data/overrides-kaggledbqa.json", "--out", dir.resolve("data").toString(),
        "--no-progress"));
    for (String[] r : RUNS) {
      Path folder = dir.resolve(r[0]);
      Result p = run("recorded-predictions", "--log", SPHINTERACT.resolve("logs/" + r[1] + ".json").toString(),
          "--question-list", SPHINTERACT.resolve("kaggledbqa_208_test_order.json").toString(),
          "--dataset", dir.resolve("data/test.json").toString(), "--out", folder.toString());
      ok(p);
      assertTrue(p.out().startsWith("151 of the 208 logged questions are in "), p.out());
      assertTrue(p.out().contains("not in it: 57 logged questions; not logged: 34 questions of its own"), p.out());
      ok(run("evaluate", "--dataset", folder.resolve("dataset.json").toString(), "--pred",
          folder.resolve("predictions.jsonl").toString(), "--tables", k.resolve("KaggleDBQA_tables.json").toString(),
          "--db", k.resolve("databases").toString(), "--out", folder.toString()));
    }
    List<String> args = new ArrayList<>(List.of("compare", "--out", dir.resolve("compare").toString()));
    for (String[] r : RUNS) {
      args.add(dir.resolve(r[0]).toString());
    }
    Result c = run(args.toArray(String[]::new));
    ok(c);
    compareOut = c.out();
  }

  @Test
  void compareWritesTheTableWithIntervalsAndTests() throws IOException {
    assertTrue(compareOut.startsWith("5 runs over 151 questions paired by id; 95 % percentile bootstrap, 1000 resamples"),
        compareOut);
    String header = compareOut.lines().filter(l -> l.contains("gpt35-0shot") && l.contains("gpt4turbo-0shot")
        && !l.contains("%")).findFirst().orElseThrow();
    assertTrue(header.strip().startsWith("gpt35-0shot"), header);
    for (String row : List.of("REFUSE F1", "decision accuracy", "compliant", "execution match (EX)", "exact set match (EM)",
        "column F1", "RS(0)", "RS(10)", "RS(N)")) {
      assertTrue(compareOut.lines().anyMatch(l -> l.startsWith(row + " ") && l.matches(".*\\[.*, .*\\].*")), row);
    }
    assertEquals(10, compareOut.lines().filter(l -> l.matches("^gpt\\S+\\s+gpt\\S+\\s.*")).count(), "ten pairs");
    JsonNode json = new ObjectMapper().readTree(dir.resolve("compare/compare.json").toFile());
    assertEquals(151, json.get("questions").asInt());
    assertTrue(Files.size(dir.resolve("compare/compare.html")) > 10_000);
  }

  @Test
  void executionMatchPValueOfZeroAgainstOneShotIsTheHandComputedOne() throws IOException {
    JsonNode pair = new ObjectMapper().readTree(dir.resolve("compare/compare.json").toFile()).at("/pairs/0");
    assertEquals("gpt35-1shot", pair.get("b").asText());
    JsonNode ex = pair.get("execution");
    // 1 question matches in 0-shot only, 13 in 1-shot only: p = 2 · (C(14,0) + C(14,1)) / 2^14 = 30 / 16384
    assertEquals(1, ex.get("a_only").asInt());
    assertEquals(13, ex.get("b_only").asInt());
    assertEquals(30.0 / 16384, ex.get("p").asDouble(), 0);
    assertTrue(compareOut.contains("1 / 13, p 0.002"), compareOut);
  }

  @Test
  void holmAdjustsEachTestsPValuesOverTheTenPairs() throws IOException {
    JsonNode pairs = new ObjectMapper().readTree(dir.resolve("compare/compare.json").toFile()).get("pairs");
    JsonNode oneShotVsTurbo = pairs.get(6);
    assertEquals("gpt35-1shot gpt4turbo-0shot", oneShotVsTurbo.get("a").asText() + " " + oneShotVsTurbo.get("b").asText());
    // the sixth smallest of the ten execution-match p-values: raw 0.035, times 10 - 6 + 1 = 5
    assertEquals(0.03515625, oneShotVsTurbo.at("/execution/p").asDouble(), 0);
    assertEquals(5 * 0.03515625, oneShotVsTurbo.at("/holm/execution").asDouble(), 1e-15);
    // the smallest, times 10; a raw p of 1 stays 1
    assertEquals(10 * 0.000274658203125, pairs.get(2).at("/holm/execution").asDouble(), 1e-15);
    assertEquals(1.0, pairs.get(0).at("/holm/decision").asDouble(), 0);
    assertTrue(compareOut.contains("12 / 3, p 0.035 (Holm 0.176)"), compareOut);
  }

  @Test
  void aFolderWhoseFilesDisagreeIsRefused() throws IOException {
    Path copy = dir.resolve("edited");
    Files.createDirectories(copy);
    Path source = dir.resolve(RUNS[0][0]);
    Files.copy(source.resolve("metrics.json"), copy.resolve("metrics.json"));
    List<String> lines = Files.readAllLines(source.resolve("per_question.jsonl"));
    Files.write(copy.resolve("per_question.jsonl"), lines.subList(1, lines.size()));
    Result r = run("compare", copy.toString(), "--out", dir.resolve("never").toString());
    assertEquals(Main.BAD_INPUT, r.code());
    assertTrue(r.err().contains("differ from metrics.json's model figures"), r.err());
    assertTrue(Files.notExists(dir.resolve("never")));
  }
}

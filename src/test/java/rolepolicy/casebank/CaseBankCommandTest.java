package rolepolicy.casebank;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rolepolicy.TestData;
import rolepolicy.cli.Main;
import rolepolicy.io.DatasetWriter;
import rolepolicy.generate.SpiderRun;

/** casebank, prompts and bench-retrieval through the command line, on 60 train and 12 dev records. */
class CaseBankCommandTest {
  @TempDir Path dir;

  private static int run(StringWriter out, StringWriter err, String... args) {
    return Main.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
  }

  private Path firstRecords(String split, String file, int n) throws Exception {
    JsonNode all = SpiderRun.records(split, file);
    ArrayNode some = DatasetWriter.JSON.createArrayNode();
    for (int i = 0; i < n; i++) {
      some.add(all.get(i));
    }
    Path path = dir.resolve(split + ".json");
    DatasetWriter.JSON.writeValue(path.toFile(), some);
    return path;
  }

  @Test
  void buildPromptAndBench() throws Exception {
    Path train = firstRecords("train", "train_spider.json", 60);
    Path dev = firstRecords("dev", "dev.json", 12);
    String tables = TestData.spiderDir().resolve("tables.json").toString();
    Path bank = dir.resolve("bank");
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    assertEquals(0, run(out, err, "casebank", "--dataset", train.toString(), "--tables", tables, "--bank", bank.toString(),
        "--calibration-step", "3"), err.toString());
    assertTrue(out.toString().startsWith("60 cases from " + train), out.toString());
    assertTrue(out.toString().contains("thresholds (calibrated on "), out.toString());
    assertTrue(Files.isRegularFile(bank.resolve("bank.json")));
    assertTrue(Files.notExists(CaseIndex.staging(bank)), "the staging folder is moved into place");

    Path prompts = dir.resolve("prompts/prompts.jsonl");
    assertEquals(0, run(out, err, "prompts", "--dataset", dev.toString(), "--tables", tables, "--bank", bank.toString(),
        "--policy", "skeleton_only", "--examples", "2", "--out", prompts.getParent().toString()), err.toString());
    List<String> lines = Files.readAllLines(prompts);
    assertEquals(12, lines.size());
    JsonNode first = DatasetWriter.JSON.readTree(lines.get(0));
    assertEquals("dev_0001", first.get("id").asText());
    assertEquals(2, first.get("examples").size());
    assertEquals("skeleton", first.at("/examples/0/type").asText());

    // prompts --draft: a draft's skeleton chooses the examples again; REFUSE is no draft
    Path drafts = dir.resolve("drafts.txt");
    List<String> draftLines = new java.util.ArrayList<>();
    JsonNode devRecords = DatasetWriter.JSON.readTree(dev.toFile());
    for (int i = 0; i < 12; i++) {
      draftLines.add(i == 2 ? "REFUSE (a Hidden column)" : devRecords.get(i).get("original_sql").asText());
    }
    Files.write(drafts, draftLines);
    Path drafted = dir.resolve("drafted/prompts.jsonl");
    StringWriter draftOut = new StringWriter();
    assertEquals(0, run(draftOut, err, "prompts", "--dataset", dev.toString(), "--tables", tables, "--bank", bank.toString(),
        "--policy", "skeleton_only", "--examples", "2", "--draft", drafts.toString(), "--out", drafted.getParent().toString()),
        err.toString());
    assertTrue(draftOut.toString().contains(", 11 chosen again by a draft) written to "), draftOut.toString());
    List<String> draftedLines = Files.readAllLines(drafted);
    for (int i = 0; i < 12; i++) {
      JsonNode line = DatasetWriter.JSON.readTree(draftedLines.get(i));
      assertEquals(i != 2, line.get("retrieval").asText().contains("; draft: "), line.toString());
    }
    assertEquals(lines.get(2), draftedLines.get(2), "no draft: the plain prompt");

    StringWriter bench = new StringWriter();
    assertEquals(0, run(bench, err, "bench-retrieval", "--dataset", dev.toString(), "--tables", tables, "--bank", bank.toString()),
        err.toString());
    assertTrue(bench.toString().contains("| masked question (skeleton_only) | "), bench.toString());
    assertTrue(bench.toString().contains("tiered retrieval (5 examples): median "), bench.toString());
  }

  @Test
  void aDevSplitIsRefusedAsABankAndNothingIsWritten() throws Exception {
    Path dev = firstRecords("dev", "dev.json", 3);
    Path bank = dir.resolve("bank");
    StringWriter err = new StringWriter();
    assertEquals(1, run(new StringWriter(), err, "casebank", "--dataset", dev.toString(), "--tables",
        TestData.spiderDir().resolve("tables.json").toString(), "--bank", bank.toString()));
    assertTrue(err.toString().contains("is a dev question: cases come from a train split only"), err.toString());
    assertTrue(Files.notExists(bank));
  }

  /** Every file under {@code dir} with its bytes' digest, in path order. */
  private static Map<String, String> digests(Path dir) throws Exception {
    Map<String, String> out = new TreeMap<>();
    try (var paths = Files.walk(dir)) {
      for (Path p : paths.filter(Files::isRegularFile).toList()) {
        out.put(dir.relativize(p).toString(), HexFormat.of().formatHex(
            MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(p))));
      }
    }
    return out;
  }

  @Test
  void theProjectsDataFolderIsRefusedAsABankAndStaysByteIdentical() throws Exception {
    Path train = firstRecords("train", "train_spider.json", 5);
    // a copy of the project's data/, so that a regression cannot destroy the real one
    Path data = dir.resolve("data");
    try (var paths = Files.walk(Path.of("data"))) {
      for (Path p : paths.toList()) {
        Files.copy(p, data.resolve(Path.of("data").relativize(p).toString()));
      }
    }
    Map<String, String> before = digests(data);
    assertTrue(before.containsKey("overrides.json"), before.keySet().toString());
    StringWriter err = new StringWriter();
    assertEquals(2, run(new StringWriter(), err, "casebank", "--dataset", train.toString(), "--tables",
        TestData.spiderDir().resolve("tables.json").toString(), "--bank", data.toString()));
    assertEquals("error: --bank " + data + ": the folder was not written by casebank (no .rolepolicy-output naming it), so it is"
        + " not replaced; choose a new or empty folder", err.toString().strip());
    assertEquals(before, digests(data));
    assertTrue(Files.notExists(CaseIndex.staging(data)));
  }

  @Test
  void aFileOrAnotherCommandsFolderIsRefusedAsABank() throws Exception {
    Path train = firstRecords("train", "train_spider.json", 5);
    String tables = TestData.spiderDir().resolve("tables.json").toString();
    Path file = Files.writeString(dir.resolve("notes.txt"), "mine");
    StringWriter err = new StringWriter();
    assertEquals(2, run(new StringWriter(), err, "casebank", "--dataset", train.toString(), "--tables", tables,
        "--bank", file.toString()));
    assertTrue(err.toString().contains(file + ": is a file, not a folder"), err.toString());
    assertEquals("mine", Files.readString(file));

    Path other = Files.createDirectories(dir.resolve("other"));
    Files.writeString(other.resolve(".rolepolicy-output"), "evaluate\n");
    Files.writeString(other.resolve("metrics.json"), "{}");
    err = new StringWriter();
    assertEquals(2, run(new StringWriter(), err, "casebank", "--dataset", train.toString(), "--tables", tables,
        "--bank", other.toString()));
    assertTrue(err.toString().contains(other + ": the folder was not written by casebank"), err.toString());
    assertEquals("{}", Files.readString(other.resolve("metrics.json")));
  }

  @Test
  void aBankReplacesTheBankItBuiltBeforeAndLeavesNoStagingFolder() throws Exception {
    Path train = firstRecords("train", "train_spider.json", 20);
    String tables = TestData.spiderDir().resolve("tables.json").toString();
    Path bank = dir.resolve("bank");
    for (int build = 0; build < 2; build++) {
      StringWriter err = new StringWriter();
      assertEquals(0, run(new StringWriter(), err, "casebank", "--dataset", train.toString(), "--tables", tables,
          "--bank", bank.toString(), "--calibration-step", "5"), err.toString());
    }
    assertEquals("casebank\n", Files.readString(bank.resolve(".rolepolicy-output")));
    try (var entries = Files.list(dir)) {
      assertEquals(List.of("bank", "train.json"), entries.map(p -> p.getFileName().toString()).sorted().toList());
    }
  }

  @Test
  void twoBuildsOfTheSameCasesGiveTheSamePrompts() throws Exception {
    Path train = firstRecords("train", "train_spider.json", 60);
    Path dev = firstRecords("dev", "dev.json", 12);
    String tables = TestData.spiderDir().resolve("tables.json").toString();
    StringWriter err = new StringWriter();
    for (String name : List.of("a", "b")) {
      assertEquals(0, run(new StringWriter(), err, "casebank", "--dataset", train.toString(), "--tables", tables,
          "--bank", dir.resolve("bank-" + name).toString(), "--calibration-step", "3"), err.toString());
      assertEquals(0, run(new StringWriter(), err, "prompts", "--dataset", dev.toString(), "--tables", tables,
          "--bank", dir.resolve("bank-" + name).toString(), "--out", dir.resolve("prompts-" + name).toString()), err.toString());
    }
    assertEquals(Files.readString(dir.resolve("bank-a/bank.json")).replace("bank-a", ""),
        Files.readString(dir.resolve("bank-b/bank.json")).replace("bank-b", ""));
    assertEquals(Files.readString(dir.resolve("prompts-a/prompts.jsonl")), Files.readString(dir.resolve("prompts-b/prompts.jsonl")));
  }
  @Test
  void aBankUnderAFolderThatCannotBeWrittenIsExitOneNamingIt() throws Exception {
    Path train = firstRecords("train", "train_spider.json", 5);
    Path readOnly = TestData.unwritableFolder(dir);
    StringWriter err = new StringWriter();
    assertEquals(1, run(new StringWriter(), err, "casebank", "--dataset", train.toString(), "--tables",
        TestData.spiderDir().resolve("tables.json").toString(), "--bank", readOnly.resolve("bank").toString()));
    assertTrue(err.toString().startsWith("error: --bank " + readOnly.resolve("bank") + ": cannot write the folder ("),
        err.toString());
    assertEquals(1, err.toString().strip().lines().count(), err.toString());
  }

  @Test
  void promptsWithoutABankGiveTheCommandThatBuildsOne() throws Exception {
    Path dev = firstRecords("dev", "dev.json", 3);
    Path none = dir.resolve("no-bank");
    StringWriter err = new StringWriter();
    assertEquals(1, run(new StringWriter(), err, "prompts", "--dataset", dev.toString(), "--bank", none.toString(),
        "--out", dir.resolve("prompts").toString()));
    assertEquals("error: " + none + ": no case bank here (bank.json not found); build one with: casebank --dataset"
        + " data/train.json --bank " + none + " (a generated train split: generate --spider ../shared/spider --splits train)",
        err.toString().strip());
  }

  @Test
  void theSchemaFileDefaultsToTheBundledOneWhereverItServes() {
    for (Object command : List.of(new rolepolicy.cli.CaseBankCommand(), new rolepolicy.cli.PromptsCommand(),
        new rolepolicy.cli.BenchRetrievalCommand())) {
      String tables = new picocli.CommandLine(command).getCommandSpec().findOption("--tables").defaultValue();
      assertEquals("data/spider/tables.json", tables, command.getClass().getSimpleName());
      assertTrue(Files.isRegularFile(Path.of(tables)), tables);
    }
  }

  @Test
  void aRebuildWithACacheEmbedsOnlyTheQuestionsThatChangedAndGivesTheSamePrompts() throws Exception {
    Path train = firstRecords("train", "train_spider.json", 20);
    Path dev = firstRecords("dev", "dev.json", 6);
    String tables = TestData.spiderDir().resolve("tables.json").toString();
    Path cache = dir.resolve("cache");
    List<String> outputs = new java.util.ArrayList<>();
    for (String name : List.of("cold", "warm", "edited", "uncached")) {
      if (name.equals("edited")) { // one question reworded
        var records = (ArrayNode) DatasetWriter.JSON.readTree(train.toFile());
        ((com.fasterxml.jackson.databind.node.ObjectNode) records.get(3)).put("question", "How many heads are there in all?");
        DatasetWriter.JSON.writeValue(train.toFile(), records);
      }
      StringWriter out = new StringWriter();
      StringWriter err = new StringWriter();
      List<String> args = new java.util.ArrayList<>(List.of("casebank", "--dataset", train.toString(), "--tables", tables,
          "--bank", dir.resolve("bank-" + name).toString(), "--calibration-step", "5"));
      args.addAll(name.equals("uncached") ? List.of("--no-cache") : List.of("--cache", cache.toString()));
      assertEquals(0, run(out, err, args.toArray(String[]::new)), err.toString());
      outputs.add(out.toString());
      assertEquals(0, run(new StringWriter(), err, "prompts", "--dataset", dev.toString(), "--tables", tables,
          "--bank", dir.resolve("bank-" + name).toString(), "--out", dir.resolve("prompts-" + name).toString()), err.toString());
    }
    assertTrue(outputs.get(0).contains("(40 texts embedded, the cache held 0)"), outputs.get(0));
    assertTrue(outputs.get(1).contains("(0 texts embedded, the cache held 40)"), outputs.get(1));
    assertTrue(outputs.get(2).contains("(2 texts embedded, the cache held 40)"), outputs.get(2));
    assertTrue(outputs.get(3).contains("(40 texts embedded, the cache held 0)"), outputs.get(3));
    assertEquals(Files.readString(dir.resolve("prompts-cold/prompts.jsonl")), Files.readString(dir.resolve("prompts-warm/prompts.jsonl")));
    assertEquals(Files.readString(dir.resolve("prompts-edited/prompts.jsonl")), Files.readString(dir.resolve("prompts-uncached/prompts.jsonl")));
  }

  private String casebank(Path train, Path bank, String... caching) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    List<String> args = new java.util.ArrayList<>(List.of("casebank", "--dataset", train.toString(), "--tables",
        TestData.spiderDir().resolve("tables.json").toString(), "--bank", bank.toString(), "--calibration-step", "4"));
    args.addAll(List.of(caching));
    assertEquals(0, run(out, err, args.toArray(String[]::new)), err.toString());
    return out.toString();
  }

  @Test
  void aRebuildAfterARuleEditCopiesTheIndexesAndTheCalibrationAndGivesWhatAFullBuildGives() throws Exception {
    Path train = firstRecords("train", "train_spider.json", 30);
    Path dev = firstRecords("dev", "dev.json", 6);
    String tables = TestData.spiderDir().resolve("tables.json").toString();
    String cache = dir.resolve("cache").toString();
    Path bank = dir.resolve("bank");
    assertTrue(casebank(train, bank, "--cache", cache).contains("embedded and indexed"));
    // a rule edit: a gold label and a policy change, the questions and their SQL do not
    var records = (ArrayNode) DatasetWriter.JSON.readTree(train.toFile());
    var first = (com.fasterxml.jackson.databind.node.ObjectNode) records.get(0);
    assertEquals("REFUSE", first.path("gold_label").path("type").asText());
    first.putObject("gold_label").put("type", "SQL").put("sql", first.path("original_sql").asText());
    var policies = (com.fasterxml.jackson.databind.node.ObjectNode) records.get(1).get("column_policies");
    policies.put(policies.fieldNames().next(), "Hidden");
    DatasetWriter.JSON.writeValue(train.toFile(), records);

    String rebuilt = casebank(train, bank, "--cache", cache);
    assertTrue(rebuilt.contains("indexes copied from " + bank + " in "), rebuilt);
    assertTrue(rebuilt.contains("thresholds (calibrated as the bank it replaces, the same questions and SQL: on 8 cases"), rebuilt);
    Path full = dir.resolve("bank-full");
    String built = casebank(train, full, "--no-cache");
    assertTrue(built.contains("embedded and indexed") && built.contains("thresholds (calibrated on 8 cases"), built);
    assertEquals(Files.readString(full.resolve("cases.jsonl")), Files.readString(bank.resolve("cases.jsonl")));
    assertTrue(Files.readString(bank.resolve("cases.jsonl")).startsWith("{\"id\":\"train_0001\",\"dbId\":\"department_management\","
        + "\"question\":\"How many heads of the departments are older than 56 ?\",\"goldType\":\"SQL\""));
    assertEquals(Files.readString(full.resolve("bank.json")), Files.readString(bank.resolve("bank.json")));
    StringWriter err = new StringWriter();
    for (Path b : List.of(bank, full)) {
      assertEquals(0, run(new StringWriter(), err, "prompts", "--dataset", dev.toString(), "--tables", tables, "--bank",
          b.toString(), "--out", dir.resolve("prompts-" + b.getFileName()).toString()), err.toString());
    }
    assertEquals(Files.readString(dir.resolve("prompts-bank-full/prompts.jsonl")), Files.readString(dir.resolve("prompts-bank/prompts.jsonl")));

    // a question reworded: its vector changes, so the indexes and the calibration are made anew
    ((com.fasterxml.jackson.databind.node.ObjectNode) records.get(3)).put("question", "How many heads are there in all?");
    DatasetWriter.JSON.writeValue(train.toFile(), records);
    String reworded = casebank(train, bank, "--cache", cache);
    assertTrue(reworded.contains("(2 texts embedded, the cache held ") && reworded.contains("thresholds (calibrated on 8 cases"), reworded);
  }

  @Test
  void aRebuildWithAnEmptyCacheEmbedsOnlyWhatTheBankItReplacesHasNot() throws Exception {
    Path train = firstRecords("train", "train_spider.json", 30);
    Path dev = firstRecords("dev", "dev.json", 6);
    Path bank = dir.resolve("bank");
    assertTrue(casebank(train, bank, "--cache", dir.resolve("cache").toString()).contains("(60 texts embedded, the cache held 0)"));
    var records = (ArrayNode) DatasetWriter.JSON.readTree(train.toFile());
    ((com.fasterxml.jackson.databind.node.ObjectNode) records.get(3)).put("question", "How many heads are there in all?");
    DatasetWriter.JSON.writeValue(train.toFile(), records);
    String rebuilt = casebank(train, bank, "--cache", dir.resolve("empty-cache").toString());
    assertTrue(rebuilt.contains("(2 texts embedded, the cache held 0, the bank it replaces 60 more)"), rebuilt);
    Path full = dir.resolve("bank-full");
    casebank(train, full, "--no-cache");
    StringWriter err = new StringWriter();
    for (Path b : List.of(bank, full)) {
      assertEquals(0, run(new StringWriter(), err, "prompts", "--dataset", dev.toString(), "--tables",
          TestData.spiderDir().resolve("tables.json").toString(), "--bank", b.toString(), "--out",
          dir.resolve("prompts-" + b.getFileName()).toString()), err.toString());
    }
    assertEquals(Files.readString(dir.resolve("prompts-bank-full/prompts.jsonl")), Files.readString(dir.resolve("prompts-bank/prompts.jsonl")));
  }

  @Test
  void aBankWhoseCasesFileDoesNotMatchItsIndexesIsRefusedWithWhatToDo() throws Exception {
    Path train = firstRecords("train", "train_spider.json", 8);
    Path bank = dir.resolve("bank");
    casebank(train, bank, "--cache", dir.resolve("cache").toString());
    Path cases = bank.resolve("cases.jsonl");
    List<String> lines = Files.readAllLines(cases);
    String dev = firstRecords("dev", "dev.json", 2).toString();
    java.util.function.Supplier<String> prompts = () -> {
      StringWriter err = new StringWriter();
      assertEquals(1, run(new StringWriter(), err, "prompts", "--dataset", dev, "--bank", bank.toString(), "--out",
          dir.resolve("prompts").toString()));
      return err.toString().strip();
    };
    String notItsFile = "error: " + bank + ": the case bank is damaged (cases.jsonl is not the file its indexes were built from);"
        + " build it again with the casebank command";
    Files.write(cases, lines.subList(0, 7)); // one case short
    assertEquals(notItsFile, prompts.get());
    List<String> swapped = new java.util.ArrayList<>(lines); // two cases in each other's places
    java.util.Collections.swap(swapped, 0, 1);
    Files.write(cases, swapped);
    assertEquals(notItsFile, prompts.get());
    Files.delete(cases);
    assertEquals("error: " + bank + ": the case bank is damaged (cases.jsonl is missing); build it again with the casebank"
        + " command", prompts.get());
  }

  @Test
  void aRebuildInPlaceBuildsDamagedIndexesAnewInsteadOfCopyingThem() throws Exception {
    Path train = firstRecords("train", "train_spider.json", 8);
    Path bank = dir.resolve("bank");
    String cache = dir.resolve("cache").toString();
    casebank(train, bank, "--cache", cache);
    Path segment;
    try (var files = Files.list(bank.resolve("index/specific"))) {
      segment = files.filter(f -> f.toString().endsWith(".cfs")).findFirst().orElseThrow();
    }
    byte[] bytes = Files.readAllBytes(segment);
    bytes[bytes.length / 2] ^= 1; // one bit flipped: the file's checksum no longer holds
    Files.write(segment, bytes);
    String rebuilt = casebank(train, bank, "--cache", cache);
    assertTrue(rebuilt.contains("the indexes of " + bank + " are damaged: built anew") && rebuilt.contains("embedded and indexed"),
        rebuilt);
    String again = casebank(train, bank, "--cache", cache);
    assertTrue(again.contains("indexes copied from " + bank), again);
  }
}

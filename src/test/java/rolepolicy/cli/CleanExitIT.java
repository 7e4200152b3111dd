package rolepolicy.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import rolepolicy.TestData;
import rolepolicy.cache.CacheFolder;
import rolepolicy.evaluate.Evaluator;
import rolepolicy.evaluate.PredictionReader;
import rolepolicy.io.DatasetWriter;
import rolepolicy.run.RecordedModel;

/**
 * Every command, in a JVM of its own, run once to its end and once stopped by Ctrl-C halfway:
 * each leaves its temporary folder (java.io.tmpdir) empty and its input folders as they were, file
 * for file and byte for byte — the native libraries it loads, the bank it reads, the folders it
 * reads outputs from included. Runs in {@code mvn verify}: {@code bench} and {@code bench-evaluate}
 * start the packaged jar.
 */
@Execution(ExecutionMode.CONCURRENT)
class CleanExitIT {
  @TempDir static Path root;
  /** The inputs every command reads: small copies of the real data, and what the tool made of them. */
  static Path in;
  static Map<String, String> inputs;
  static RecordedModel model;

  @BeforeAll
  static void inputs() throws Exception {
    in = Files.createDirectories(root.resolve("in"));
    Path spider = Files.createDirectories(in.resolve("spider"));
    Files.copy(Path.of("data/spider/tables.json"), spider.resolve("tables.json"));
    first(Path.of("data/spider/dev.json"), 40, spider.resolve("dev.json"));
    first(TestData.spiderDir().resolve("train_spider.json"), 40, spider.resolve("train_spider.json"));
    Path bird = Files.createDirectories(in.resolve("bird"));
    Files.copy(TestData.birdDir().resolve("dev_tables.json"), bird.resolve("dev_tables.json"));
    first(TestData.birdDir().resolve("dev.json"), 40, bird.resolve("dev.json"));
    copyTree(TestData.udaDir().resolve("Art"), in.resolve("uda/Art"));
    copyTree(TestData.kaggleDir().resolve("databases"), in.resolve("kaggle-db"));
    copyTree(TestData.spiderDir().resolve("database/concert_singer"), in.resolve("spider-db/concert_singer"));
    try (java.io.InputStream rcr = new java.util.zip.GZIPInputStream(Files.newInputStream(TestData.rcrFile()))) {
      Files.write(in.resolve("rcr.jsonl"), new String(rcr.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8)
          .lines().limit(40).map(l -> l + "\n").collect(java.util.stream.Collectors.joining()).getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }
    Path sphinteract = TestData.spiderDir().resolveSibling("sphinteract");
    Files.createDirectories(in.resolve("sphinteract"));
    Files.copy(sphinteract.resolve("kaggledbqa_208_test_order.json"), in.resolve("sphinteract/order.json"));
    Files.copy(sphinteract.resolve("logs/gpt35_baseline_4round.json"), in.resolve("sphinteract/gpt35.json"));

    made("generate", "--spider", spider.toString(), "--splits", "train,dev", "--out", in("data"));
    made("predictions", "--dataset", in("data/dev.json"), "--out", in("pred"));
    for (String run : List.of("evalA", "evalB")) {
      made("evaluate", "--dataset", in("data/dev.json"), "--pred", in("pred/predictions.jsonl"), "--tables",
          in("spider/tables.json"), "--out", in(run));
    }
    made("casebank", "--dataset", in("data/train.json"), "--tables", in("spider/tables.json"), "--bank", in("bank"));
    Path kaggle = TestData.kaggleDir();
    List<String> tests;
    try (Stream<Path> files = Files.list(kaggle.resolve("examples"))) {
      tests = files.filter(f -> f.toString().endsWith("_test.json")).sorted().map(Path::toString).toList();
    }
    made("generate", "--tables", kaggle.resolve("KaggleDBQA_tables.json").toString(), "--questions", String.join(",", tests),
        "--split", "test", "--out", in("kaggle"));
    inputs = digests(in);
    var records = Evaluator.readDataset(in.resolve("data/dev.json"));
    model = new RecordedModel(records, PredictionReader.read(in.resolve("pred/predictions.jsonl"), records), 0);
  }

  @AfterAll
  static void stopTheModel() {
    model.close();
  }

  /** One command line per command, reading {@link #in} and writing {@code out}. */
  private static List<String> command(String name, Path out) {
    List<String> args = new ArrayList<>(List.of(name));
    String dev = in("data/dev.json");
    String tables = in("spider/tables.json");
    args.addAll(switch (name) {
      case "generate" -> List.of("--spider", in("spider"), "--out", out.toString());
      case "evaluate" -> List.of("--dataset", dev, "--pred", in("pred/predictions.jsonl"), "--tables", tables, "--db",
          in("spider-db"), "--out", out.toString());
      case "review" -> List.of("--spider", in("spider"));
      case "report" -> List.of("--data", in("data"), "--spider", in("spider"), "--out", out.toString());
      case "bench" -> List.of("--spider", in("spider"), "--splits", "dev", "--runs", "1", "--warmup", "1", "--c1-runs", "0",
          "--launcher-runs", "0", "--maven-runs", "0", "--scale", "0");
      case "score-tables" -> List.of("--gold-as-result", "--uda", in("uda"), "--out", out.toString());
      case "bench-tables" -> List.of("--runs", "1", "--uda", in("uda"));
      case "interact" -> List.of("--dataset", in("sphinteract/order.json"), "--db", in("kaggle-db"), "--replay",
          in("sphinteract/gpt35.json"), "--out", out.toString());
      case "casebank" -> List.of("--dataset", in("data/train.json"), "--tables", tables, "--bank", out.resolve("bank").toString());
      case "prompts" -> List.of("--dataset", dev, "--tables", tables, "--bank", in("bank"), "--out", out.toString());
      case "bench-retrieval" -> List.of("--dataset", dev, "--tables", tables, "--bank", in("bank"));
      case "bench-facts" -> List.of("--runs", "1", "--warmup", "0", "--spider", in("spider"), "--bird", in("bird"));
      case "recorded-predictions" -> List.of("--log", in("sphinteract/gpt35.json"), "--question-list",
          in("sphinteract/order.json"), "--dataset", in("kaggle/test.json"), "--out", out.toString());
      case "compare" -> List.of(in("evalA"), in("evalB"), "--resamples", "10", "--out", out.toString());
      case "diff" -> List.of(in("data"), in("data"), "--out", out.toString());
      case "explain" -> List.of("dev_0001", "--spider", in("spider"));
      case "decide" -> List.of(in("rcr.jsonl"), "--out", out.toString());
      case "bench-decide" -> List.of(in("rcr.jsonl"), "--runs", "1", "--warmup", "0");
      case "export-grants" -> List.of("--tables", tables, "--to", "analyst", "--out", out.toString());
      case "run" -> List.of("--llm-url", model.baseUrl(), "--llm-model", "stand-in", "--dataset", dev, "--tables", tables,
          "--bank", in("bank"), "--limit", "10", "--out", out.toString());
      case "bench-run" -> List.of("--dataset", dev, "--tables", tables, "--bank", in("bank"), "--repeats", "1", "--limit", "5");
      case "predictions" -> List.of("--dataset", dev, "--out", out.toString());
      case "bench-evaluate" -> List.of("--runs", "1", "--dataset", dev, "--tables", tables, "--pred",
          in("pred/predictions.jsonl"), "--db", in("spider-db"));
      case "stand-in" -> List.of("--dataset", dev, "--pred", in("pred/predictions.jsonl"), "--port", "0");
      default -> throw new IllegalArgumentException(name);
    });
    return args;
  }

  /** Every command of the tool: one without a line in {@link #command} fails. */
  static Stream<String> commands() {
    return Main.COMMANDS.stream().map(c -> c.getAnnotation(picocli.CommandLine.Command.class).name());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("commands")
  void aRunToItsEndAndOneStoppedLeaveNothingBehind(String name) throws Exception {
    Path cache = Files.createDirectories(root.resolve("cache-" + name));

    long started = System.nanoTime();
    ToolProcess whole = start(name, "whole", cache);
    if (name.equals("stand-in")) { // it serves until stopped
      waitFor(whole, "Ctrl-C stops");
      whole.interrupt();
    }
    int code = whole.await(300);
    long millis = (System.nanoTime() - started) / 1_000_000;
    assertTrue(code == 0 || name.equals("stand-in") && (code == 130 || code == 143), name + ": exit " + code + "\n" + whole.err());
    assertNothingLeft(name + " to its end", root.resolve(name + "-whole"));

    ToolProcess stopped = start(name, "stopped", cache);
    Thread.sleep(Math.max(300, millis / 2));
    stopped.interrupt();
    int stoppedCode = stopped.await(300);
    // done before the signal, the error a stop may cause (an unfinished input read), or the signal: no crash, no bug
    assertTrue(List.of(0, 1, 130, 143).contains(stoppedCode), name + " stopped: exit " + stoppedCode + "\n" + stopped.err()
        + stopped.out() + crashReports(root.resolve(name + "-stopped").resolve("logs")));
    assertNothingLeft(name + " stopped after " + Math.max(300, millis / 2) + " ms", root.resolve(name + "-stopped"));
  }

  /** The JVM's crash reports (hs_err) in a run's log folder, to say where a crash happened. */
  private static String crashReports(Path logs) throws IOException {
    try (Stream<Path> files = Files.list(logs)) {
      StringBuilder all = new StringBuilder();
      for (Path f : files.filter(f -> f.getFileName().toString().startsWith("hs_err")).toList()) {
        all.append('\n').append(f).append(":\n").append(Files.readString(f).lines().limit(40).collect(
            java.util.stream.Collectors.joining("\n")));
      }
      return all.toString();
    }
  }

  private static ToolProcess start(String name, String how, Path cache) throws IOException {
    Path run = Files.createDirectories(root.resolve(name + "-" + how));
    Files.createDirectories(run.resolve("tmp"));
    return ToolProcess.start(run.resolve("tmp"), cache, run.resolve("logs"), command(name, run.resolve("out")));
  }

  private static void assertNothingLeft(String what, Path run) throws IOException {
    try (Stream<Path> left = Files.walk(run.resolve("tmp"))) {
      assertEquals(List.of(), left.skip(1).limit(5).map(Path::toString).toList(), what + ": left in the temporary folder");
    }
    assertEquals(inputs, digests(in), what + ": the inputs changed");
  }

  private static void waitFor(ToolProcess tool, String line) throws Exception {
    long deadline = System.nanoTime() + 60_000_000_000L;
    while (!tool.out().contains(line)) {
      assertTrue(tool.process().isAlive() && System.nanoTime() < deadline, "no '" + line + "': " + tool.err());
      Thread.sleep(20);
    }
  }

  private static void made(String... args) {
    CommandRun r = CommandRun.of(args);
    assertEquals(0, r.code(), String.join(" ", args) + "\n" + r.err());
  }

  private static String in(String path) {
    return in.resolve(path).toString();
  }

  private static void first(Path from, int n, Path to) throws IOException {
    JsonNode all = DatasetWriter.JSON.readTree(from.toFile());
    ArrayNode head = DatasetWriter.JSON.createArrayNode();
    for (int i = 0; i < n; i++) {
      head.add(all.get(i));
    }
    DatasetWriter.JSON.writeValue(to.toFile(), head);
  }

  private static void copyTree(Path from, Path to) throws IOException {
    try (Stream<Path> all = Files.walk(from)) {
      for (Path p : all.toList()) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.copy(p, target);
        }
      }
    }
  }

  /** Every file under {@code folder}, by relative path, with its SHA-256 (folders too, empty ones included). */
  private static Map<String, String> digests(Path folder) throws IOException {
    Map<String, String> all = new TreeMap<>();
    try (Stream<Path> paths = Files.walk(folder)) {
      for (Path p : paths.toList()) {
        String key = folder.relativize(p).toString();
        if (Files.isDirectory(p)) {
          all.put(key + "/", "folder");
        } else {
          all.put(key, CacheFolder.digest(p));
        }
      }
    }
    return all;
  }
}

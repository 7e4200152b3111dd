package rolepolicy.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rolepolicy.TestData;
import rolepolicy.io.DatasetWriter;
import rolepolicy.generate.SpiderRun;

/**
 * Ctrl-C (SIGINT) sent to a running {@code generate}, {@code score-tables} and {@code casebank} at
 * several moments: each leaves no temporary file, and a rerun after it neither, in its output folder
 * or in the cache folder the runs of one test share. Linux only (it reads /proc).
 */
class InterruptTest {
  @TempDir Path dir;

  record Stopped(int code, String err) {}

  /**
   * Starts the tool in a JVM of its own and, {@code millis} after its first temporary file appears
   * under {@code root} (if it is still running then), sends SIGINT; waits for it to end. A negative
   * {@code millis} lets it run to the end. Files named {@link #PROBE} do not count: {@code casebank}
   * makes one and removes it at once, to see that the folder takes files, long before it writes.
   */
  private Stopped interrupt(Path root, long millis, String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-XX:TieredStopAtLevel=1", "-Drolepolicy.cache=" + dir.resolve("cache"), "-cp", System.getProperty("java.class.path"),
        Main.class.getName()));
    command.addAll(List.of(args));
    Path err = Files.createTempFile(dir, "stderr", ".txt");
    Process p = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .redirectError(err.toFile()).start();
    if (millis >= 0) {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
      while (p.isAlive() && debris(root).stream().allMatch(d -> d.contains(PROBE)) && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
      if (!p.waitFor(millis, TimeUnit.MILLISECONDS)) {
        new ProcessBuilder("kill", "-" + ctrlC(p.pid()), Long.toString(p.pid())).start().waitFor();
      }
    }
    assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the tool did not stop: " + String.join(" ", args));
    String text = Files.readString(err, StandardCharsets.UTF_8);
    Files.delete(err);
    return new Stopped(p.exitValue(), text);
  }

  /**
   * INT, as Ctrl-C sends; TERM where the tool was started with SIGINT ignored (as a shell starts
   * background jobs, the test runner among them), which no process can undo. The JVM's shutdown
   * hooks run on either.
   */
  private static String ctrlC(long pid) throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
      if (line.startsWith("SigIgn:")) {
        return (Long.parseUnsignedLong(line.substring("SigIgn:".length()).strip(), 16) & 2) != 0 ? "TERM" : "INT";
      }
    }
    return "INT";
  }

  /** The name of the file {@code casebank} makes and removes to see that a folder takes files. */
  private static final String PROBE = ".rolepolicy-probe-";

  /** Temporary files and folders under {@code root}, of any kind the tool ever made. */
  private static List<String> debris(Path root) throws IOException {
    if (!Files.exists(root)) {
      return List.of();
    }
    try (var paths = Files.walk(root)) {
      return paths.map(p -> root.relativize(p).toString())
          .filter(p -> p.contains(".rolepolicy-tmp-") || p.endsWith(".tmp") || p.endsWith(".building")
              || p.endsWith(".previous"))
          .toList();
    }
  }

  /**
   * Runs the command interrupted at each moment (milliseconds after it began to write), then once
   * to the end; after each run no debris is left, and at least one run was stopped while it wrote
   * (it says so).
   */
  private void interruptedThenRerun(Path root, long[] moments, String... args) throws Exception {
    int stoppedWhileWriting = 0;
    StringBuilder runs = new StringBuilder();
    for (long moment : moments) {
      Stopped s = interrupt(root, moment, args);
      assertEquals(List.of(), debris(root), "after SIGINT " + moment + " ms into the writing: " + s.err());
      assertEquals(List.of(), debris(dir.resolve("cache")), "in the cache folder after SIGINT " + moment + " ms: " + s.err());
      if (s.err().contains("rolepolicy: stopped before the end: ")) {
        stoppedWhileWriting++;
      }
      runs.append("\n").append(moment).append(" ms: exit ").append(s.code()).append(", ").append(s.err().strip());
    }
    assertTrue(stoppedWhileWriting > 0, "no SIGINT came while " + args[0] + " wrote:" + runs);
    Stopped done = interrupt(root, -1, args);
    assertEquals(0, done.code(), done.err());
    assertEquals(List.of(), debris(root), "after a full run");
    assertEquals(List.of(), debris(dir.resolve("cache")), "in the cache folder after a full run");
  }

  @Test
  void generate() throws Exception {
    Path out = dir.resolve("data");
    interruptedThenRerun(out, new long[] {0, 300, 1500}, "generate", "--spider", TestData.spiderDir().toString(),
        "--splits", "dev", "--out", out.toString(), "--no-progress");
    assertEquals(1034, DatasetWriter.JSON.readTree(out.resolve("dev.json").toFile()).size());
  }

  @Test
  void scoreTables() throws Exception {
    Path out = dir.resolve("tables");
    interruptedThenRerun(out, new long[] {0, 300, 1500}, "score-tables", "--gold-as-result", "--out", out.toString(),
        "--uda", TestData.udaDir().toString(), "--datasets", "Art,Player");
  }

  @Test
  void casebank() throws Exception {
    JsonNode all = SpiderRun.first("train", "train_spider.json", 200);
    ArrayNode some = DatasetWriter.JSON.createArrayNode();
    for (int i = 0; i < 200; i++) {
      some.add(all.get(i));
    }
    Path train = dir.resolve("train.json");
    DatasetWriter.JSON.writeValue(train.toFile(), some);
    Path banks = dir.resolve("banks");
    interruptedThenRerun(banks, new long[] {0, 300, 1500}, "casebank", "--dataset", train.toString(), "--tables",
        TestData.spiderDir().resolve("tables.json").toString(), "--bank", banks.resolve("bank").toString());
    assertTrue(Files.isRegularFile(banks.resolve("bank/bank.json")));
  }
}

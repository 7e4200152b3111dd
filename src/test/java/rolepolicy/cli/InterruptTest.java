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
   * Starts the tool in a JVM of its own and, once its temporary files under {@code root} hold
   * {@code bytes} bytes (0: once the first appears), sends SIGINT if it is still running; waits for
   * it to end. A negative {@code bytes} lets it run to the end. Files named {@link #PROBE} do not
   * count: {@code casebank} makes one and removes it at once, to see that the folder takes files,
   * long before it writes.
   */
  private Stopped interrupt(Path root, long bytes, String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-XX:TieredStopAtLevel=1", "-Drolepolicy.cache=" + dir.resolve("cache"), "-cp", System.getProperty("java.class.path"),
        Main.class.getName()));
    command.addAll(List.of(args));
    Path err = Files.createTempFile(dir, "stderr", ".txt");
    Process p = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .redirectError(err.toFile()).start();
    if (bytes >= 0) {
      while (p.isAlive() && !writing(root, bytes)) {
        p.waitFor(10, TimeUnit.MILLISECONDS); // polls the folder; the run's own end ends the wait too
      }
      if (p.isAlive()) {
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

  /** Whether the temporary files under {@code root} (but a probe) exist and hold {@code bytes} bytes. */
  private static boolean writing(Path root, long bytes) throws IOException {
    List<String> temporary = debris(root).stream().filter(d -> !d.contains(PROBE)).toList();
    long size = 0;
    for (String d : temporary) {
      Path file = root.resolve(d);
      try {
        size += Files.isRegularFile(file) ? Files.size(file) : 0;
      } catch (IOException gone) {
        // moved into place or removed meanwhile
      }
    }
    return !temporary.isEmpty() && size >= bytes;
  }

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
   * Runs the command interrupted at each moment (once its temporary files hold that many bytes),
   * then once to the end; after each run no debris is left, and at least one run was stopped while
   * it wrote (it says so).
   */
  private void interruptedThenRerun(Path root, long[] moments, String... args) throws Exception {
    int stoppedWhileWriting = 0;
    StringBuilder runs = new StringBuilder();
    for (long moment : moments) {
      Stopped s = interrupt(root, moment, args);
      assertEquals(List.of(), debris(root), "after SIGINT at " + moment + " bytes written: " + s.err());
      assertEquals(List.of(), debris(dir.resolve("cache")), "in the cache folder after SIGINT at " + moment + " bytes: " + s.err());
      if (s.err().contains("rolepolicy: stopped before the end: ")) {
        stoppedWhileWriting++;
      }
      runs.append("\n").append(moment).append(" bytes: exit ").append(s.code()).append(", ").append(s.err().strip());
    }
    assertTrue(stoppedWhileWriting > 0, "no SIGINT came while " + args[0] + " wrote:" + runs);
    Stopped done = interrupt(root, -1, args);
    assertEquals(0, done.code(), done.err());
    assertEquals(List.of(), debris(root), "after a full run");
    assertEquals(List.of(), debris(dir.resolve("cache")), "in the cache folder after a full run");
  }

  /** The first temporary file, its first byte, 64 KiB written. */
  private static final long[] MOMENTS = {0, 1, 64 * 1024};

  @Test
  void generate() throws Exception {
    Path out = dir.resolve("data");
    interruptedThenRerun(out, MOMENTS, "generate", "--spider", TestData.spiderDir().toString(),
        "--splits", "dev", "--out", out.toString(), "--no-progress");
    assertEquals(1034, DatasetWriter.JSON.readTree(out.resolve("dev.json").toFile()).size());
  }

  @Test
  void scoreTables() throws Exception {
    Path out = dir.resolve("tables");
    interruptedThenRerun(out, MOMENTS, "score-tables", "--gold-as-result", "--out", out.toString(),
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
    interruptedThenRerun(banks, MOMENTS, "casebank", "--dataset", train.toString(), "--tables",
        TestData.spiderDir().resolve("tables.json").toString(), "--bank", banks.resolve("bank").toString());
    assertTrue(Files.isRegularFile(banks.resolve("bank/bank.json")));
  }
}

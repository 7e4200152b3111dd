package rolepolicy.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rolepolicy.TestData;
import rolepolicy.io.InputException;
import rolepolicy.io.JsonFiles;

/**
 * An input that is a folder or a pipe is named as what it is, not "file not found"; an input read
 * once as a stream (decide's records, --grants) is read from a pipe.
 */
class InputNotAFileTest {
  @TempDir Path dir;

  private Path fifo(String name) throws Exception {
    Path fifo = dir.resolve(name);
    Process p = new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start();
    assertEquals(0, p.waitFor());
    return fifo;
  }

  @Test
  void aFolderGivenForAFileIsNamedAsAFolder() throws Exception {
    Path folder = Files.createDirectories(dir.resolve("grants.sql"));
    CommandRun run = CommandRun.of("generate", "--profile", "grants", "--grants", folder.toString(),
        "--grant-role", "r", "--out", dir.resolve("out").toString());
    assertEquals(Main.BAD_INPUT, run.code(), run.err());
    assertEquals("error: " + folder + ": is a folder, not a file (--grants)\n", run.err());
    InputException e = org.junit.jupiter.api.Assertions.assertThrows(InputException.class, () -> JsonFiles.read(folder));
    assertEquals(folder + ": is a folder, not a file", e.getMessage());
  }

  @Test
  void aPipeGivenForAQuestionFileIsNamedAsAPipe() throws Exception {
    Path pipe = fifo("questions.json");
    CommandRun run = CommandRun.of("generate", "--tables", TestData.spiderDir().resolve("tables.json").toString(),
        "--questions", pipe.toString(), "--split", "s", "--out", dir.resolve("out").toString());
    assertEquals(Main.BAD_INPUT, run.code(), run.err());
    assertEquals("error: " + pipe + ": is not a regular file (a pipe or device): save it to a file and give that"
        + " (needed for split s)\n", run.err());
  }

  @Test
  void decideReadsItsRecordsFromAPipe() throws Exception {
    String records;
    try (BufferedReader in = new BufferedReader(new InputStreamReader(
        new GZIPInputStream(Files.newInputStream(TestData.rcrFile())), StandardCharsets.UTF_8))) {
      records = in.lines().limit(25).collect(Collectors.joining("\n", "", "\n"));
    }
    Path pipe = fifo("records.jsonl");
    CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
      try (OutputStream out = Files.newOutputStream(pipe)) { // opens once the reader does
        out.write(records.getBytes(StandardCharsets.UTF_8));
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    });
    CommandRun run = CommandRun.of("decide", pipe.toString(), "--out", dir.resolve("out").toString());
    if (run.code() != 0 && !writer.isDone()) {
      try (var unblock = Files.newInputStream(pipe)) { // the writer waits for a reader that never came
        unblock.readAllBytes();
      }
    }
    writer.join();
    assertEquals(0, run.code(), run.err());
    assertTrue(run.out().startsWith("decide: 25 records, profile grants"), run.out());
    assertEquals(25, Files.readAllLines(dir.resolve("out/decisions.jsonl")).size());
  }
}

package rolepolicy.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rolepolicy.io.DatasetWriter;
import rolepolicy.io.OwnedFolder;
import rolepolicy.generate.SpiderRun;

/**
 * What a command may write over: never an input, nor a folder that holds one, compared as files
 * (through symbolic links, as {@code ../shared} is on every machine here); never a file the tool
 * did not write, unless {@code --force}. Each refusal is exit 2 and leaves every file as it was.
 */
class OutputGuardTest {
  @TempDir Path dir;
  /** A Spider folder (the bundled schema and dev questions), and a link to it. */
  Path spider;
  Path link;

  @BeforeEach
  void spiderAndALinkToIt() throws IOException {
    spider = Files.createDirectories(dir.resolve("spider"));
    Files.copy(Path.of("data/spider/tables.json"), spider.resolve("tables.json"));
    Files.copy(Path.of("data/spider/dev.json"), spider.resolve("dev.json"));
    link = Files.createSymbolicLink(dir.resolve("link"), spider);
  }

  @Test
  void questionsReachedThroughALinkAreNotOverwrittenByTheOutput() throws IOException {
    Map<String, byte[]> before = files(spider);
    CommandRun r = CommandRun.of("generate", "--tables", spider.resolve("tables.json").toString(), "--questions",
        link.resolve("dev.json").toString(), "--split", "dev", "--out", spider.toString());
    assertEquals(2, r.code(), r.err());
    assertEquals("error: " + spider.resolve("dev.json") + ": this output would be written over an input, --questions "
        + link.resolve("dev.json") + " (both are " + spider.toRealPath().resolve("dev.json") + "); choose another output\n", r.err());
    assertSame(before, files(spider));
  }

  @Test
  void anOutputFolderThatIsALinkToTheSpiderFolderIsRefused() throws IOException {
    Map<String, byte[]> before = files(spider);
    CommandRun r = CommandRun.of("generate", "--spider", spider.toString(), "--out", link.toString());
    assertEquals(2, r.code(), r.err());
    assertEquals("error: " + link + ": this output would be written over an input, --spider " + spider + " (both are "
        + spider.toRealPath() + "); choose another output\n", r.err());
    assertSame(before, files(spider));
  }

  @Test
  void theSpiderFolderReachedThroughALinkHoldsNoOutput() throws IOException {
    Map<String, byte[]> before = files(spider);
    CommandRun r = CommandRun.of("generate", "--spider", link.toString(), "--out", spider.toString());
    assertEquals(2, r.code(), r.err());
    assertEquals("error: " + spider + ": this output would be written over an input, --spider " + link + " (both are "
        + spider.toRealPath() + "); choose another output\n", r.err());
    assertSame(before, files(spider));
  }

  @Test
  void aFileOfAnOutputsNameThatTheToolDidNotWriteIsKeptUnlessForced() throws IOException {
    Path out = Files.createDirectories(dir.resolve("mine"));
    Files.writeString(out.resolve("dev.json"), "my notes\n");
    Files.writeString(out.resolve("notes.txt"), "other notes\n");

    CommandRun r = CommandRun.of("generate", "--spider", spider.toString(), "--out", out.toString());

    assertEquals(2, r.code(), r.err());
    assertEquals("error: " + out.resolve("dev.json") + ": this file was not written by rolepolicy (its folder's "
        + OwnedFolder.MARKER + " does not name it), so it is not replaced; choose another output folder, or give --force to"
        + " replace it\n", r.err());
    assertEquals(Map.of("dev.json", "my notes\n", "notes.txt", "other notes\n"), texts(out));

    CommandRun forced = CommandRun.of("generate", "--spider", spider.toString(), "--out", out.toString(), "--force");
    assertEquals(0, forced.code(), forced.err());
    assertTrue(Files.readString(out.resolve("dev.json")).startsWith("["), "replaced by the generated split");
    assertEquals("other notes\n", Files.readString(out.resolve("notes.txt")), "a file of another name is left alone");

    CommandRun again = CommandRun.of("generate", "--spider", spider.toString(), "--out", out.toString());
    assertEquals(0, again.code(), "the tool's own files are replaced without --force: " + again.err());
  }

  @Test
  void predictionsOverAUsersFileAreRefused() throws Exception {
    Path dataset = dir.resolve("dev-records.json");
    DatasetWriter.JSON.writeValue(dataset.toFile(), SpiderRun.first("dev", "dev.json", 5));
    Path out = Files.createDirectories(dir.resolve("preds"));
    Files.writeString(out.resolve("predictions.jsonl"), "{\"id\": \"mine\"}\n");

    CommandRun r = CommandRun.of("predictions", "--dataset", dataset.toString(), "--out", out.toString());

    assertEquals(2, r.code(), r.err());
    assertTrue(r.err().contains(out.resolve("predictions.jsonl") + ": this file was not written by rolepolicy"), r.err());
    assertEquals("{\"id\": \"mine\"}\n", Files.readString(out.resolve("predictions.jsonl")));
  }

  @Test
  void aBankFolderThatHoldsItsDatasetIsRefused() throws Exception {
    Path bank = Files.createDirectories(dir.resolve("bank"));
    Path train = bank.resolve("train.json");
    DatasetWriter.JSON.writeValue(train.toFile(), SpiderRun.first("train", "train_spider.json", 5));
    Files.createSymbolicLink(dir.resolve("bank-link"), bank);
    CommandRun held = CommandRun.of("casebank", "--dataset", train.toString(), "--bank", dir.resolve("bank-link").toString());
    assertEquals(2, held.code(), held.err());
    assertTrue(held.err().startsWith("error: " + dir.resolve("bank-link") + ": this output folder holds an input, --dataset "
        + train), held.err());
    assertEquals(java.util.Set.of("train.json"), texts(bank).keySet());
  }

  @Test
  void anOutFolderNamedThroughALinksParentIsCheckedWhereItWrites() throws IOException {
    Files.createDirectories(dir.resolve("a/b"));
    Files.createSymbolicLink(dir.resolve("l"), dir.resolve("a/b"));
    Files.writeString(dir.resolve("dev.json"), "mine\n");

    CommandRun r = CommandRun.of("generate", "--spider", spider.toString(), "--out", dir.resolve("l/..").toString());

    assertEquals(2, r.code(), r.err());
    assertTrue(r.err().startsWith("error: " + dir.resolve("dev.json") + ": this file was not written by rolepolicy"), r.err());
    assertEquals("mine\n", Files.readString(dir.resolve("dev.json")));
  }

  @Test
  void evaluateRefusesAUsersMetricsBeforeItScores() throws Exception {
    Path dataset = dir.resolve("dev-records.json");
    DatasetWriter.JSON.writeValue(dataset.toFile(), SpiderRun.first("dev", "dev.json", 5));
    Path predictions = Files.writeString(dir.resolve("pred.txt"), "SELECT 1\n".repeat(5));
    Path out = Files.createDirectories(dir.resolve("scored"));
    Files.writeString(out.resolve("metrics.json"), "{\"mine\": true}\n");

    CommandRun r = CommandRun.of("evaluate", "--dataset", dataset.toString(), "--pred", predictions.toString(), "--tables",
        "data/spider/tables.json", "--out", out.toString());

    assertEquals(2, r.code(), r.err());
    assertTrue(r.err().startsWith("error: " + out.resolve("metrics.json") + ": this file was not written by rolepolicy"), r.err());
    assertEquals("", r.out(), "nothing scored");
    assertEquals(Map.of("metrics.json", "{\"mine\": true}\n"), texts(out));
  }

  private static void assertSame(Map<String, byte[]> before, Map<String, byte[]> after) {
    assertEquals(before.keySet(), after.keySet());
    before.forEach((name, bytes) -> assertArrayEquals(bytes, after.get(name), name + " changed"));
  }

  private static Map<String, byte[]> files(Path folder) throws IOException {
    Map<String, byte[]> files = new TreeMap<>();
    try (Stream<Path> all = Files.walk(folder)) {
      for (Path p : all.filter(Files::isRegularFile).toList()) {
        files.put(folder.relativize(p).toString(), Files.readAllBytes(p));
      }
    }
    assertFalse(files.isEmpty());
    return files;
  }

  private static Map<String, String> texts(Path folder) throws IOException {
    Map<String, String> texts = new TreeMap<>();
    files(folder).forEach((name, bytes) -> texts.put(name, new String(bytes, java.nio.charset.StandardCharsets.UTF_8)));
    return texts;
  }
}

package rolepolicy.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rolepolicy.TestData;

/**
 * A disk that takes no more bytes, as the shell's file-size limit makes one (every write past 4 KiB
 * fails, "File too large", naming no file): the error names the output folder, exit 1, no trace,
 * and nothing is left. Linux only (bash's ulimit).
 */
class FullDiskTest {
  @TempDir Path dir;

  @Test
  void aWriteThatFailsNamesTheOutputFolder() throws Exception {
    Path out = dir.resolve("grants");
    List<String> command = new ArrayList<>(List.of("bash", "-c", "ulimit -f 4 && exec \"$@\"", "bash",
        Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-XX:-UsePerfData", "-XX:TieredStopAtLevel=1",
        "-cp", System.getProperty("java.class.path"), Main.class.getName(),
        "export-grants", "--tables", TestData.spiderDir().resolve("tables.json").toString(), "--to", "r",
        "--out", out.toString()));
    Path err = dir.resolve("stderr.txt");
    ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .redirectError(err.toFile());
    builder.environment().put("ROLEPOLICY_CACHE", "off");
    Process p = builder.start();
    assertTrue(p.waitFor(300, TimeUnit.SECONDS), "export-grants did not end");
    String text = Files.readString(err, StandardCharsets.UTF_8);
    assertEquals(Main.BAD_INPUT, p.exitValue(), text);
    assertEquals("error: " + out + ": cannot write the output (File too large)\n", text);
    assertFalse(Files.exists(out), "nothing is left");
  }
}

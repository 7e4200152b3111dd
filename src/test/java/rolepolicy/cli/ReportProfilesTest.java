package rolepolicy.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rolepolicy.TestData;

/** {@code report --profiles}: Q1-Q5 of the datasets of several profiles side by side. */
class ReportProfilesTest {
  @TempDir Path dir;

  @Test
  void theFiguresOfEachProfileStandSideBySide() {
    Path data = dir.resolve("data");
    for (String[] run : new String[][] {{"spec-v1", data.toString()}, {"strict", data.resolve("strict").toString()}}) {
      CommandRun generated = CommandRun.of("generate", "--no-progress", "--spider", TestData.spiderDir().toString(),
          "--splits", "dev", "--profile", run[0], "--out", run[1]);
      assertEquals(0, generated.code(), generated.err());
    }
    CommandRun report = CommandRun.of("report", "--data", data.toString(), "--spider", TestData.spiderDir().toString(),
        "--profiles", "strict");
    assertEquals(0, report.code(), report.err());
    assertTrue(report.out().lines().anyMatch(l -> l.matches("dev Q2 REFUSE\\s+25\\.7%\\s+28\\.3%")), report.out());
    assertTrue(report.out().lines().anyMatch(l -> l.matches("dev Q5 violations\\s+356\\s+403")), report.out());

    CommandRun missing = CommandRun.of("report", "--data", data.toString(), "--spider", TestData.spiderDir().toString(),
        "--profiles", "strict,analyst", "--out", dir.resolve("qa2").toString());
    assertEquals(1, missing.code(), missing.out());
    assertEquals("error: " + data.resolve("analyst") + ": no dataset of profile analyst"
        + " (generate --profile analyst writes it there by default)\n", missing.err());
    assertTrue(Files.notExists(dir.resolve("qa2")));
  }
}

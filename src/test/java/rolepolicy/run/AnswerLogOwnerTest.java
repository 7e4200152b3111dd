package rolepolicy.run;

import static org.junit.jupiter.api.Assertions.assertNull;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rolepolicy.io.OutputGuard;
import rolepolicy.io.OutputRefused;
import rolepolicy.io.OwnedFolder;

/** A run's answer log is only ever one it wrote: another file of its name is neither read nor appended to. */
class AnswerLogOwnerTest {
  @TempDir Path dir;

  private static final String USERS = "{\"key\": \"mine\", \"answer\": \"SELECT 1\"}\n{\"cut short";

  private static AnswerLog.Entry entry() {
    return new AnswerLog.Entry("k1", "dev_0001", "answer", "m", "SELECT 1", "SQL", "SELECT 1", null, null, 3, 2, 10L, 0, null, null, "stop", null, null, null, null, null);
  }

  @Test
  void aUsersAnswersFileIsRefusedAndLeftAsItWas() throws Exception {
    Files.writeString(dir.resolve(AnswerLog.FILE), USERS);
    OutputRefused e = assertThrows(OutputRefused.class,
        () -> OutputGuard.with(new OutputGuard(List.of(), false), () -> AnswerLog.open(dir)));
    assertTrue(e.getMessage().startsWith(dir.resolve(AnswerLog.FILE) + ": this file was not written by rolepolicy"), e.getMessage());
    assertEquals(USERS, Files.readString(dir.resolve(AnswerLog.FILE)));
  }

  @Test
  void withForceItIsReplacedNotReadNorAppendedTo() throws Exception {
    Files.writeString(dir.resolve(AnswerLog.FILE), USERS);
    try (AnswerLog log = OutputGuard.with(new OutputGuard(List.of(), true), () -> AnswerLog.open(dir))) {
      assertEquals(0, log.size(), "the user's lines are not answers of this run");
      log.append(entry());
    }
    List<String> lines = Files.readAllLines(dir.resolve(AnswerLog.FILE));
    assertEquals(1, lines.size(), lines.toString());
    assertTrue(lines.get(0).startsWith("{\"key\":\"k1\""), lines.get(0));
  }

  @Test
  void itsOwnLogIsReadAndAppendedTo() throws Exception {
    try (AnswerLog log = AnswerLog.open(dir)) {
      log.append(entry());
    }
    try (AnswerLog log = AnswerLog.open(dir)) {
      assertEquals(1, log.size());
      log.append(new AnswerLog.Entry("k2", "dev_0002", "answer", "m", "SELECT 2", "SQL", "SELECT 2", null, null, 3, 2, 10L, 0, null, null, "stop", null, null, null, null, null));
    }
    assertEquals(2, Files.readAllLines(dir.resolve(AnswerLog.FILE)).size());
  }

  @Test
  void aLinkNamedLikeTheLogIsNeverWrittenThrough() throws Exception {
    Path precious = Files.writeString(dir.resolve("precious.txt"), "mine\n");
    Path run = Files.createDirectories(dir.resolve("run"));
    Files.createSymbolicLink(run.resolve(AnswerLog.FILE), precious);
    OwnedFolder.recordWritten(List.of(run.resolve(AnswerLog.FILE))); // even named in the marker

    assertThrows(OutputRefused.class, () -> OutputGuard.with(new OutputGuard(List.of(), false), () -> AnswerLog.open(run)));
    try (AnswerLog log = OutputGuard.with(new OutputGuard(List.of(), true), () -> AnswerLog.open(run))) {
      log.append(entry());
    }
    assertEquals("mine\n", Files.readString(precious));
    assertFalse(Files.isSymbolicLink(run.resolve(AnswerLog.FILE)), "the link is replaced by the log");
  }

  @Test
  void aTruncatedAnswerIsLoggedButNotReusedSoARerunAsksAgain() throws Exception {
    AnswerLog.Entry cut = new AnswerLog.Entry("k3", "dev_0003", "answer", "m", "SELECT name FROM", "TRUNCATED", "", null,
        "the endpoint cut the answer off", 3, 64, 10L, 0, null, null, "length", null, null, null, null, null);
    try (AnswerLog log = AnswerLog.open(dir)) {
      log.append(cut);
      assertNull(log.answer("k3"));
    }
    assertTrue(Files.readString(dir.resolve(AnswerLog.FILE)).contains("\"finish_reason\":\"length\""));
    try (AnswerLog log = AnswerLog.open(dir)) {
      assertNull(log.answer("k3"), "read back, a truncated answer is not an answer to reuse");
      assertEquals(0, log.size());
    }
  }
}

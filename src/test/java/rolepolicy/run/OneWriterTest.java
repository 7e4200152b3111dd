package rolepolicy.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rolepolicy.cli.Main;
import rolepolicy.io.FolderLock;
import rolepolicy.llm.LocalChatServer;
import rolepolicy.llm.LocalChatServer.Reply;

/** One writer per run folder: a second run into a folder in use is refused, naming the process; the lock dies with it. */
class OneWriterTest {
  private static RunFixture fixture;
  private static Map<String, String> good;

  @TempDir Path dir;

  @BeforeAll
  static void fixture() throws IOException {
    fixture = RunFixture.shared();
    good = fixture.goodAnswers();
  }

  /** The tool in a JVM of its own, its output in {@code log}. */
  private static Process start(List<String> args, Path log) throws IOException {
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"), Main.class.getName()));
    command.addAll(args);
    return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
  }

  /** A server whose answers wait for {@code release} once the first request has come ({@code asked}). */
  private static LocalChatServer held(CountDownLatch asked, CountDownLatch release) throws IOException {
    return new LocalChatServer(r -> {
      asked.countDown();
      try {
        release.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return Reply.text(good.get(RunFixture.questionOf(r.prompt())));
    });
  }

  @Test
  void aSecondRunIntoAFolderInUseIsRefusedNamingTheProcessAndTheFirstCompletes() throws Exception {
    CountDownLatch asked = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    Path out = dir.resolve("runs/shared");
    Path log = dir.resolve("first.log");
    try (LocalChatServer server = held(asked, release)) {
      Process first = start(fixture.runArgs(server.baseUrl(), out), log);
      try {
        assertTrue(asked.await(300, TimeUnit.SECONDS), "the first run sends a request: " + Files.readString(log));
        RunFixture.Result second = RunFixture.main(fixture.runArgs(server.baseUrl(), out).toArray(String[]::new));
        assertEquals(Main.USAGE, second.code(), second.err());
        assertTrue(second.err().startsWith("error: " + out + " is in use by another run (process " + first.pid() + ", lock "
            + out.resolve(FolderLock.FILE) + ")"), second.err());
        int sent = server.count();
        release.countDown();
        assertTrue(first.waitFor(300, TimeUnit.SECONDS));
        assertEquals(0, first.exitValue(), Files.readString(log));
        assertEquals(RunFixture.QUESTIONS, server.count(), "the second run sent nothing (" + sent + " before the release)");
      } finally {
        release.countDown();
        first.destroyForcibly().waitFor();
      }
      assertEquals(RunFixture.QUESTIONS, Files.readAllLines(out.resolve(AnswerLog.FILE)).size(), "every answer is kept");
      assertEquals(RunFixture.QUESTIONS, Files.readAllLines(out.resolve(ModelRun.PREDICTIONS)).size());
    }
  }

  @Test
  void theLockDiesWithItsProcessAndTheNextRunResumes() throws Exception {
    CountDownLatch asked = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    Path out = dir.resolve("runs/killed");
    Path log = dir.resolve("killed.log");
    try (LocalChatServer server = held(asked, release)) {
      Process first = start(fixture.runArgs(server.baseUrl(), out, "--parallel", "1"), log);
      try {
        assertTrue(asked.await(300, TimeUnit.SECONDS), "the run sends a request: " + Files.readString(log));
        first.destroyForcibly().waitFor(); // SIGKILL: no shutdown hook runs
      } finally {
        release.countDown();
      }
      RunFixture.Result next = RunFixture.main(fixture.runArgs(server.baseUrl(), out).toArray(String[]::new));
      assertEquals(0, next.code(), next.err());
      assertEquals(RunFixture.QUESTIONS, Files.readAllLines(out.resolve(ModelRun.PREDICTIONS)).size());
      assertTrue(rolepolicy.io.OwnedFolder.wrote(out.resolve(FolderLock.FILE)), "the lock file is the tool's own");
    }
  }
}

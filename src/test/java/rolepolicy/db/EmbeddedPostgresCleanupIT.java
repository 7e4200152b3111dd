package rolepolicy.db;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * An embedded PostgreSQL whose JVM is killed outright (SIGKILL) is stopped by its watchdog, and one
 * whose watchdog is killed too is stopped and removed by the next start.
 */
class EmbeddedPostgresCleanupIT {
  /** What a child JVM printed: its server's folder, postmaster and watchdog. */
  private record Child(Process jvm, Path folder, ProcessHandle postmaster, ProcessHandle watchdog) {}

  private static Child start() throws Exception {
    Process jvm = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"), EmbeddedPostgresChild.class.getName())
        .redirectError(ProcessBuilder.Redirect.INHERIT)
        .start();
    String line = new BufferedReader(new InputStreamReader(jvm.getInputStream(), StandardCharsets.UTF_8)).readLine();
    assertTrue(line != null, "the child JVM printed nothing");
    String[] parts = line.split("\t");
    Path folder = Path.of(parts[0]);
    assertTrue(Files.isRegularFile(folder.resolve("data/postmaster.pid")), line);
    return new Child(jvm, folder, ProcessHandle.of(Long.parseLong(parts[1])).orElseThrow(),
        ProcessHandle.of(Long.parseLong(parts[2])).orElseThrow());
  }

  @Test
  void theWatchdogStopsTheServerAndRemovesItsFolderWhenItsJvmIsKilled() throws Exception {
    Child child = start();
    child.jvm().destroyForcibly(); // SIGKILL
    child.jvm().waitFor();
    child.postmaster().onExit().get(120, TimeUnit.SECONDS);
    child.watchdog().onExit().get(120, TimeUnit.SECONDS);
    assertFalse(Files.exists(child.folder()), child.folder() + " is left");
  }

  @Test
  void theNextStartStopsAndRemovesAServerLeftByAKilledJvm() throws Exception {
    Child child = start();
    child.watchdog().destroyForcibly(); // as kill -9 of the whole process group
    child.watchdog().onExit().get(120, TimeUnit.SECONDS);
    child.jvm().destroyForcibly();
    child.jvm().waitFor();
    assertTrue(child.postmaster().isAlive(), "the server outlives its JVM and watchdog");
    try (Postgres next = Postgres.embedded()) {
      assertFalse(child.postmaster().isAlive(), "the stale server runs on");
      assertFalse(Files.exists(child.folder()), child.folder() + " is left");
      assertTrue(Files.isRegularFile(next.folder().resolve("data/postmaster.pid")));
    }
  }
}

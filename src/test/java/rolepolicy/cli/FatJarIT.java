package rolepolicy.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The packaged jar, run as {@code java -jar target/rolepolicy.jar} and through {@code
 * bin/rolepolicy}, writes the same bytes as the in-process run that {@code mvn exec:java} makes.
 * Runs in {@code mvn verify}, after the jar is built (failsafe).
 */
class FatJarIT {
  private static final Path JAR = Path.of("target", "rolepolicy.jar");

  @TempDir Path dir;

  @Test
  void theJarGeneratesTheSameBytesAsTheInProcessRun() throws IOException, InterruptedException {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    assertSameBytesAsInProcess(List.of(java, "-jar", JAR.toString()));
  }

  /** bin/rolepolicy: the jar with the C1 compiler, the serial collector and the class-data archive. */
  @Test
  void theLauncherGeneratesTheSameBytesAsTheInProcessRun() throws IOException, InterruptedException {
    assertSameBytesAsInProcess(List.of("bash", Path.of("bin", "rolepolicy").toString()));
  }

  private void assertSameBytesAsInProcess(List<String> launcher)
      throws IOException, InterruptedException {
    assertTrue(Files.isRegularFile(JAR), JAR + " is missing: mvn package builds it");
    Path overrides = dir.resolve("no-overrides.json");
    Files.writeString(overrides, "[]");
    List<String> args = List.of("generate", "--overrides", overrides.toString(), "--no-progress");

    Path launched = dir.resolve("launched");
    List<String> command = new java.util.ArrayList<>(launcher);
    command.addAll(args);
    command.addAll(List.of("--out", launched.toString()));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String printed = new String(process.getInputStream().readAllBytes());
    assertEquals(0, process.waitFor(), printed);

    Path inProcess = dir.resolve("in-process");
    StringWriter err = new StringWriter();
    String[] all = Stream.concat(args.stream(), Stream.of("--out", inProcess.toString())).toArray(String[]::new);
    assertEquals(0, Main.run(all, new PrintWriter(new StringWriter()), new PrintWriter(err)), err.toString());

    List<Path> files = files(inProcess);
    assertEquals(files, files(launched), "the same files");
    assertTrue(files.contains(Path.of("dev.json")), files.toString());
    for (Path file : files) {
      assertEquals(
          Files.mismatch(inProcess.resolve(file), launched.resolve(file)), -1L, file + " differs");
    }
  }

  private static List<Path> files(Path root) throws IOException {
    try (Stream<Path> all = Files.walk(root)) {
      return all.filter(Files::isRegularFile).map(root::relativize).sorted().toList();
    }
  }
}

package rolepolicy.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The tool run in a JVM of its own (from the test class path), with its own temporary folder and
 * cache folder: for what a process does at its end (exit, Ctrl-C, an action that never returns).
 */
record ToolProcess(Process process, Path stdout, Path stderr) {
  /**
   * Starts {@code args} with {@code tmp} as java.io.tmpdir and {@code cache} as the cache folder,
   * its output in {@code logs}/stdout.txt and stderr.txt.
   */
  static ToolProcess start(Path tmp, Path cache, Path logs, List<String> args) throws IOException {
    return start(tmp, cache, logs, args, java.util.Map.of());
  }

  /** {@link #start} with these environment variables set too. */
  static ToolProcess start(Path tmp, Path cache, Path logs, List<String> args, java.util.Map<String, String> environment)
      throws IOException {
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-XX:TieredStopAtLevel=1",
        "-Djava.io.tmpdir=" + tmp, "-Drolepolicy.cache=" + cache, "-XX:ErrorFile=" + logs.resolve("hs_err_pid%p.log"),
        "-cp", System.getProperty("java.class.path"),
        Main.class.getName()));
    command.addAll(args);
    Files.createDirectories(logs);
    Path stdout = logs.resolve("stdout.txt");
    Path stderr = logs.resolve("stderr.txt");
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().putAll(environment);
    Process p = builder.redirectOutput(stdout.toFile()).redirectError(stderr.toFile()).start();
    return new ToolProcess(p, stdout, stderr);
  }

  /** Ctrl-C: INT, or TERM where the process was started with INT ignored (as a background job); the shutdown hooks run on either. */
  void interrupt() throws IOException, InterruptedException {
    Path status = Path.of("/proc", Long.toString(process.pid()), "status");
    if (!process.isAlive() || !Files.exists(status)) {
      return;
    }
    String signal = "INT";
    for (String line : Files.readAllLines(status)) {
      if (line.startsWith("SigIgn:")
          && (Long.parseUnsignedLong(line.substring("SigIgn:".length()).strip(), 16) & 2) != 0) {
        signal = "TERM";
      }
    }
    new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).start().waitFor();
  }

  /** Waits for the end (at most {@code seconds}, else fails) and gives the exit code. */
  int await(long seconds) throws InterruptedException {
    if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError("the tool did not stop within " + seconds + " s");
    }
    return process.exitValue();
  }

  String out() throws IOException {
    return Files.readString(stdout, StandardCharsets.UTF_8);
  }

  String err() throws IOException {
    return Files.readString(stderr, StandardCharsets.UTF_8);
  }
}

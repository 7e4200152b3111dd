package rolepolicy.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * The packaged jar, run as {@code java -jar target/rolepolicy.jar} and through {@code
 * bin/rolepolicy}, writes the same bytes as the in-process run that {@code mvn exec:java} makes;
 * the dependencies its manifest names are beside it, in target/lib, and not packed in it as well.
 * Runs in {@code mvn verify}, after the jar is built (failsafe).
 */
@Execution(ExecutionMode.CONCURRENT) // the two launches at once, beside the in-process run
class PackagedJarIT {
  private static final Path JAR = Path.of("target", "rolepolicy.jar");

  @TempDir static Path dir;

  /** The in-process run's folder, or how it failed: run once, while the launched processes run beside it. */
  private static Path inProcess;
  private static AssertionError inProcessFailed;

  @Test
  void theJarGeneratesTheSameBytesAsTheInProcessRun() throws IOException, InterruptedException {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    assertSameBytesAsInProcess("jar", List.of(java, "-jar", JAR.toString()));
  }

  /** bin/rolepolicy: the jar with the C1 compiler, the serial collector and the class-data archive. */
  @Test
  void theLauncherGeneratesTheSameBytesAsTheInProcessRun() throws IOException, InterruptedException {
    assertSameBytesAsInProcess("launcher", List.of("bash", Path.of("bin", "rolepolicy").toString()));
  }

  @Test
  void everyJarOnTheClassPathIsBesideItAndNotPackedInIt() throws IOException {
    try (JarFile jar = new JarFile(JAR.toFile())) {
      String classPath = jar.getManifest().getMainAttributes().getValue(Attributes.Name.CLASS_PATH);
      assertTrue(classPath != null && !classPath.isBlank(), "the manifest names no Class-Path");
      List<String> named = List.of(classPath.trim().split(" +"));
      for (String entry : named) {
        Path lib = JAR.resolveSibling(entry);
        assertTrue(Files.isRegularFile(lib), entry + " is named on the Class-Path but " + lib + " is missing");
        try (JarFile dependency = new JarFile(lib.toFile())) {
          String someClass = dependency.stream().map(JarEntry::getName)
              .filter(name -> name.endsWith(".class") && !name.contains("module-info")).findFirst().orElseThrow();
          assertNull(jar.getEntry(someClass), someClass + " of " + entry + " is packed in the jar as well");
        }
      }
      for (Path lib : files(JAR.resolveSibling("lib"))) {
        assertTrue(named.contains("lib/" + lib), "target/lib/" + lib + " is not named on the jar's Class-Path");
      }
    }
  }

  /** A class of each dependency left out of the shading, found from the jar alone (its Class-Path). */
  @Test
  void theNativeAndModelDependenciesLoadFromTheJar() throws IOException {
    try (URLClassLoader jar = new URLClassLoader(new URL[] {JAR.toUri().toURL()}, ClassLoader.getPlatformClassLoader())) {
      for (String name : List.of("ai.onnxruntime.OrtEnvironment", "org.duckdb.DuckDBDriver",
          "ai.djl.huggingface.tokenizers.HuggingFaceTokenizer", "org.sqlite.JDBC",
          "dev.langchain4j.model.embedding.onnx.allminilml6v2q.AllMiniLmL6V2QuantizedEmbeddingModel")) {
        try {
          Class.forName(name, false, jar);
        } catch (ClassNotFoundException e) {
          throw new AssertionError(name + " is neither in the jar nor on its Class-Path", e);
        }
      }
    }
  }

  @BeforeAll
  static void noOverrides() throws IOException {
    Files.writeString(dir.resolve("no-overrides.json"), "[]");
  }

  /** generate on the bundled dev split without overrides, into {@code out}. */
  private static List<String> args(Path out) {
    return List.of("generate", "--overrides", dir.resolve("no-overrides.json").toString(), "--no-progress",
        "--out", out.toString());
  }

  private static synchronized Path inProcess() {
    if (inProcessFailed != null) {
      throw inProcessFailed;
    }
    if (inProcess == null) {
      Path out = dir.resolve("in-process");
      StringWriter err = new StringWriter();
      try {
        assertEquals(0, Main.run(args(out).toArray(String[]::new), new PrintWriter(new StringWriter()), new PrintWriter(err)),
            err.toString());
      } catch (AssertionError e) {
        inProcessFailed = e;
        throw e;
      }
      inProcess = out;
    }
    return inProcess;
  }

  private void assertSameBytesAsInProcess(String name, List<String> launcher)
      throws IOException, InterruptedException {
    assertTrue(Files.isRegularFile(JAR), JAR + " is missing: mvn package builds it");
    Path launched = dir.resolve(name);
    List<String> command = new java.util.ArrayList<>(launcher);
    command.addAll(args(launched));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    // its output read on a thread of its own, so that the in-process run can go on beside it
    var printed = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
      try {
        return new String(process.getInputStream().readAllBytes());
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    });
    Path inProcess;
    try {
      inProcess = inProcess();
    } catch (RuntimeException | Error e) { // the in-process run failed: no launched process is left running
      process.destroyForcibly().waitFor();
      throw e;
    }
    assertEquals(0, process.waitFor(), printed.join());

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

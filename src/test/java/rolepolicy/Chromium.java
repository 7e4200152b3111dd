package rolepolicy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Headless Chromium (Debian's {@code chromium}) for page tests, with no network: background
 * services off and any request sent to a closed local port. A test using it is skipped, with the
 * reason, when {@code chromium} is not on the PATH; .ci/run installs it.
 */
public final class Chromium {
  private Chromium() {}

  public static String path() {
    for (String folder : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      Path candidate = Path.of(folder, "chromium");
      if (Files.isExecutable(candidate)) {
        return candidate.toString();
      }
    }
    return null;
  }

  /** The DOM after the page's scripts ran, for a page URL (which may carry a fragment). */
  public static String dumpDom(String url, Path work) throws IOException, InterruptedException {
    return run(work, "--dump-dom", url);
  }

  /** A screenshot of the page at 1280 × {@code height} pixels. */
  public static void screenshot(String url, Path png, int height, Path work) throws IOException, InterruptedException {
    run(work, "--hide-scrollbars", "--screenshot=" + png.toAbsolutePath(), "--window-size=1280," + height, url);
  }

  private static String run(Path work, String... args) throws IOException, InterruptedException {
    String chromium = path();
    assumeTrue(chromium != null, "chromium is not installed (apt-get install -y chromium; .ci/run installs it)");
    List<String> command = new ArrayList<>(List.of(chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-pings",
        "--proxy-server=http://127.0.0.1:9", "--user-data-dir=" + work.resolve("profile")));
    command.addAll(List.of(args));
    Path err = work.resolve("chromium.err");
    Process p = new ProcessBuilder(command).directory(work.toFile()).redirectError(err.toFile()).start();
    byte[] out = p.getInputStream().readAllBytes();
    assertTrue(p.waitFor(120, TimeUnit.SECONDS), "chromium did not finish");
    assertEquals(0, p.exitValue(), Files.readString(err));
    return new String(out, StandardCharsets.UTF_8);
  }
}

package rolepolicy.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rolepolicy.TestData;
import rolepolicy.generate.SpiderRun;

/** Printed numbers and written files are the same whatever the JVM's default locale. */
class LocaleTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern COMMA_DECIMAL = Pattern.compile("\\d,\\d");

  @TempDir Path dir;
  private Locale saved;
  private Locale savedFormat;
  private Locale savedDisplay;

  record Result(int code, String out, String err) {}

  @BeforeEach
  void german() {
    saved = Locale.getDefault();
    savedFormat = Locale.getDefault(Locale.Category.FORMAT);
    savedDisplay = Locale.getDefault(Locale.Category.DISPLAY);
    Locale.setDefault(Locale.GERMANY);
  }

  @AfterEach
  void restore() {
    Locale.setDefault(saved);
    Locale.setDefault(Locale.Category.FORMAT, savedFormat);
    Locale.setDefault(Locale.Category.DISPLAY, savedDisplay);
  }

  private static Result run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = Main.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
    return new Result(code, out.toString(), err.toString());
  }

  @Test
  void generateOnTheBundledSplitPrintsDecimalPointsAndWritesTheSameBytes() throws IOException {
    Result german = run("generate", "--no-progress", "--out", dir.resolve("de").toString());
    assertEquals(0, german.code(), german.err());
    assertTrue(Pattern.compile("(?m)^rules: \\d+ files compiled in \\d+\\.\\d\\d s$").matcher(german.out()).find(), german.out());
    assertTrue(Pattern.compile("(?m)^dev: \\d+ questions, .*, \\d+\\.\\d\\d s, \\d+ questions/s$").matcher(german.out()).find(),
        german.out());
    assertFalse(COMMA_DECIMAL.matcher(german.out()).find(), german.out());

    Locale.setDefault(Locale.ROOT);
    Result root = run("generate", "--no-progress", "--out", dir.resolve("root").toString());
    assertEquals(0, root.code(), root.err());
    assertArrayEquals(Files.readAllBytes(dir.resolve("root/dev.json")), Files.readAllBytes(dir.resolve("de/dev.json")));
    assertArrayEquals(Files.readAllBytes(dir.resolve("root/policies/concert_singer.json")),
        Files.readAllBytes(dir.resolve("de/policies/concert_singer.json")));
  }

  @Test
  void evaluatePrintsDecimalPoints() throws IOException {
    JsonNode dev = SpiderRun.records("dev", "dev.json");
    Path dataset = dir.resolve("dev.json");
    JSON.writeValue(dataset.toFile(), JSON.createArrayNode().add(dev.get(0)).add(dev.get(1)).add(dev.get(2)));
    Path pred = dir.resolve("pred.txt");
    // dev_0001 right, dev_0002 wrong, dev_0003 answered where the gold is REFUSE
    Files.writeString(pred, "SELECT count(*) FROM singer\nSELECT name FROM singer\nSELECT count(*) FROM singer\n");
    Result r = run("evaluate", "--dataset", dataset.toString(), "--pred", pred.toString(),
        "--tables", TestData.spiderDir().resolve("tables.json").toString(),
        "--db", TestData.spiderDir().resolve("database").toString(), "--out", dir.resolve("out").toString());
    assertEquals(0, r.code(), r.err());
    assertTrue(Pattern.compile("(?m)^decision accuracy +66\\.7% +33\\.3% +66\\.7%$").matcher(r.out()).find(), r.out());
    assertTrue(Pattern.compile("(?m)^RS\\(N\\) +-1\\.667 +0\\.333 +-0\\.333$").matcher(r.out()).find(), r.out());
    assertFalse(COMMA_DECIMAL.matcher(r.out()).find(), r.out());
  }
}

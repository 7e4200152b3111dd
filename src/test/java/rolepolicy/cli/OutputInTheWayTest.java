package rolepolicy.cli;

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
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import rolepolicy.TestData;
import rolepolicy.generate.SpiderRun;

/**
 * Every command that writes a folder of output, given an {@code --out} it cannot write — a regular
 * file, or a folder under one that takes no new file — exits 1 with one line naming the path, not
 * an internal error (70), and leaves the file as it was.
 */
class OutputInTheWayTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir static Path inputs;
  static Path dataset;
  static Path predictions;
  static Path evaluated;
  @TempDir Path dir;

  record Result(int code, String out, String err) {}

  static Result run(List<String> args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = Main.run(args.toArray(String[]::new), new PrintWriter(out, true), new PrintWriter(err, true));
    return new Result(code, out.toString(), err.toString());
  }

  @BeforeAll
  static void threeDevQuestionsEvaluated() throws IOException {
    JsonNode dev = SpiderRun.records("dev", "dev.json");
    dataset = inputs.resolve("dev.json");
    JSON.writeValue(dataset.toFile(), JSON.createArrayNode().add(dev.get(0)).add(dev.get(1)).add(dev.get(2)));
    predictions = Files.writeString(inputs.resolve("pred.txt"), "SELECT count(*) FROM singer\nSELECT 1\nREFUSE\n");
    evaluated = inputs.resolve("evaluated");
    Result r = run(command("evaluate", evaluated));
    assertEquals(0, r.code(), r.err());
  }

  private static List<String> command(String name, Path out) {
    List<String> args = new ArrayList<>(List.of(name));
    switch (name) {
      case "evaluate" -> args.addAll(List.of("--dataset", dataset.toString(), "--pred", predictions.toString(),
          "--tables", TestData.spiderDir().resolve("tables.json").toString()));
      case "predictions" -> args.addAll(List.of("--dataset", dataset.toString(), "--from", "gold"));
      case "compare" -> args.addAll(List.of(evaluated.toString(), evaluated.toString(), "--names", "a,b", "--resamples", "10"));
      default -> throw new IllegalArgumentException(name);
    }
    args.addAll(List.of("--out", out.toString()));
    return args;
  }

  @ParameterizedTest
  @ValueSource(strings = {"evaluate", "predictions", "compare"})
  void anOutThatIsARegularFileIsExitOneNamingItAndTheFileIsKept(String name) throws IOException {
    Path file = Files.writeString(dir.resolve("out.txt"), "not a folder\n");
    Result r = run(command(name, file));
    assertEquals(1, r.code(), r.err());
    assertTrue(r.err().startsWith("error: ") && r.err().contains(file.toString()), r.err());
    assertEquals(1, r.err().strip().lines().count(), r.err());
    assertFalse(r.err().contains("internal error"), r.err());
    assertEquals("not a folder\n", Files.readString(file));
  }

  @ParameterizedTest
  @ValueSource(strings = {"evaluate", "predictions", "compare"})
  void anOutUnderAFolderThatTakesNoFileIsExitOneNamingIt(String name) throws IOException {
    Path readOnly = TestData.unwritableFolder(dir);
    Result r = run(command(name, readOnly.resolve("out")));
    assertEquals(1, r.code(), r.err());
    assertTrue(r.err().startsWith("error: ") && r.err().contains(readOnly.toString()), r.err());
    assertEquals(1, r.err().strip().lines().count(), r.err());
    assertFalse(r.err().contains("internal error"), r.err());
  }
}

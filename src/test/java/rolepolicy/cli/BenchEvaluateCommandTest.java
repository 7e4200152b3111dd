package rolepolicy.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.ExitCode;
import rolepolicy.bench.EvaluateBench;
import rolepolicy.generate.DatasetWriter;

/** bench-evaluate's checks before it times anything, and the predictions it makes. */
class BenchEvaluateCommandTest {
  private static String[] run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    String[] all = Stream.concat(Stream.of("bench-evaluate"), Stream.of(args)).toArray(String[]::new);
    int code = Main.run(all, new PrintWriter(out, true), new PrintWriter(err, true));
    return new String[] {String.valueOf(code), out.toString(), err.toString()};
  }

  @Test
  void noRoundIsRefused() {
    String[] r = run("--runs", "0");
    assertEquals(String.valueOf(ExitCode.USAGE), r[0], r[2]);
    assertEquals("--runs must be at least 1", r[2].lines().findFirst().orElse(""));
  }

  @Test
  void aMissingLauncherIsNamed() {
    String[] r = run("--dataset", "data/spider/dev.json", "--launcher", "target/none");
    assertEquals(String.valueOf(Main.BAD_INPUT), r[0], r[2]);
    assertEquals("error: target/none: not found\n", r[2]);
    assertEquals("", r[1]);
  }

  @Test
  void predictionsAreOriginalSqlRefusalsAndNegatives() throws Exception {
    JsonNode records = DatasetWriter.JSON.readTree("""
        [{"original_sql": "SELECT a\\n FROM t", "negative_examples": [{"sql": "SELECT b FROM t"}]},
         {"original_sql": "SELECT a FROM t"},
         {"original_sql": "SELECT a FROM t", "negative_examples": [{"sql": "SELECT  b FROM t"}]},
         {"original_sql": "SELECT c FROM t"}]
        """);
    assertEquals(List.of("SELECT a FROM t", "REFUSE", "SELECT b FROM t", "SELECT c FROM t"), EvaluateBench.predictions(records));
  }
}

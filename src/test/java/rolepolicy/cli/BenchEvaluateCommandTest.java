package rolepolicy.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine.ExitCode;
import rolepolicy.bench.EvaluateBench;
import rolepolicy.io.DatasetWriter;

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
    assertEquals("--runs must be at least 1, not 0", r[2].lines().findFirst().orElse(""));
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

  @Test
  void aSpiderScriptFolderWithoutTheScriptIsNamed(@TempDir Path dir) {
    String[] r = run("--dataset", "data/spider/dev.json", "--spider-script", dir.toString());
    assertEquals(String.valueOf(Main.BAD_INPUT), r[0], r[2]);
    assertEquals("error: " + dir.resolve("evaluation.py") + ": not found\n", r[2]);
  }

  @Test
  void spiderScriptGetsTheQuestionsItCanScore() throws Exception {
    JsonNode records = DatasetWriter.JSON.readTree("""
        [{"db_id": "a", "gold_label": {"type": "SQL", "sql": "SELECT x FROM t"}},
         {"db_id": "a", "gold_label": {"type": "REFUSE"}},
         {"db_id": "b", "gold_label": {"type": "SQL", "sql": "SELECT x AS y FROM t"}},
         {"db_id": "b", "gold_label": {"type": "SQL", "sql": "SELECT z FROM t"}},
         {"db_id": "b", "gold_label": {"type": "SQL", "sql": "SELECT w FROM t"}},
         {"db_id": "c", "gold_label": {"type": "SQL", "sql": "SELECT v\\nFROM t"}}]
        """);
    List<String> predictions = List.of("SELECT x FROM t", "SELECT x FROM t", "SELECT y FROM t", "REFUSE", " ", "SELECT v FROM t");
    List<JsonNode> perQuestion = new ArrayList<>();
    for (String q : List.of("{\"em_script\": true}", "{\"em_script\": null}", "{\"em_script\": null}", "{\"em_script\": false}",
        "{\"em_script\": false}", "{\"em_script\": true}")) {
      perQuestion.add(DatasetWriter.JSON.readTree(q));
    }
    EvaluateBench.ScriptInput input = EvaluateBench.scriptInput(records, predictions, perQuestion);
    // left out: a REFUSE gold, a gold the script's parser rejects (em_script null), a blank prediction, a gold on two lines
    assertEquals(List.of("SELECT x FROM t\ta", "SELECT z FROM t\tb"), input.gold());
    assertEquals(List.of("SELECT x FROM t", "REFUSE"), input.predictions());
    assertEquals(1, input.matched());
  }

  /** bin/spider-script.py: the script's main, run with its arguments, and NLTK's word tokenizer without Punkt. */
  @Test
  void theScriptLauncherReplacesTheTokenizerAndRunsTheMain(@TempDir Path dir) throws Exception {
    assumeTrue(new ProcessBuilder("python3", "-c", "import nltk").start().waitFor() == 0, "python3 with NLTK needed");
    Files.writeString(dir.resolve("process_sql.py"), "from nltk import word_tokenize\n\ndef tokens(s):\n    return word_tokenize(s)\n");
    Files.writeString(dir.resolve("evaluation.py"), """
        import sys
        from process_sql import tokens
        if __name__ == "__main__":
            print(tokens("select a. from b"), sys.argv[1:])
        """);
    Process p = new ProcessBuilder("python3", "bin/spider-script.py", dir.toString(), "--etype", "all").redirectErrorStream(true).start();
    String printed = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, p.waitFor(), printed);
    assertEquals("['select', 'a.', 'from', 'b'] ['--etype', 'all']\n", printed);
  }
}

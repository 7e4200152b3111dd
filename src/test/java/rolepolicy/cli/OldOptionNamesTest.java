package rolepolicy.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The names renamed in this release still work, with a warning naming the new one; the new names warn of nothing. */
class OldOptionNamesTest {
  private final StringWriter err = new StringWriter();

  /** Parses a command line as Main does (runs nothing) and returns the command's object. */
  @SuppressWarnings("unchecked")
  private <T> T parse(String... args) {
    CommandLine cli = Main.commandLine();
    return (T) cli.parseArgs(RenamedOption.rewrite(args, new PrintWriter(err, true))).subcommand().commandSpec().userObject();
  }

  @Test
  void interactQuestionsIsNowDataset() {
    InteractCommand command = parse("interact", "--questions", "q.json");
    assertEquals(Path.of("q.json"), command.data.dataset);
    assertEquals("warning: --questions is now --dataset", err.toString().strip());
  }

  @Test
  void kIsNowExamplesInPromptsRunAndInteract() {
    PromptsCommand prompts = parse("prompts", "-k", "2");
    RunCommand run = parse("run", "-k", "4");
    InteractCommand interact = parse("interact", "-k", "5");
    assertEquals(List.of(2, 4, 5), List.of(prompts.fewShot.examples, run.fewShot.examples, interact.fewShot.examples));
    assertEquals(3, err.toString().lines().filter("warning: -k is now --examples"::equals).count(), err.toString());
  }

  @Test
  void recordedPredictionsQuestionsIsNowQuestionList() {
    RecordedPredictionsCommand command = parse("recorded-predictions", "--log", "log.json", "--questions=list.json",
        "--dataset", "test.json", "--out", "x");
    assertEquals(Path.of("list.json"), command.questions);
    assertEquals("warning: --questions is now --question-list", err.toString().strip());
  }

  @Test
  void diffSplitIsNowSplits() {
    DiffCommand command = parse("diff", "a", "b", "--split", "dev,test");
    assertEquals(List.of("dev", "test"), command.splits);
    assertEquals("warning: --split is now --splits", err.toString().strip());
  }

  @Test
  void anOldNameIsWarnedOfOnceAndOnlyInItsCommand() {
    assertEquals(List.of("generate", "--questions", "a.json", "--split", "x"),
        List.of(RenamedOption.rewrite(new String[] {"generate", "--questions", "a.json", "--split", "x"}, new PrintWriter(err))));
    DiffCommand diff = parse("diff", "a", "b", "--split", "dev", "--split", "test");
    assertEquals(List.of("dev", "test"), diff.splits);
    assertEquals("warning: --split is now --splits", err.toString().strip());
  }

  @Test
  void reviewDatabasesIsNowDb() {
    ReviewCommand command = parse("review", "--databases", "dbs");
    assertEquals(Path.of("dbs"), command.databaseFolder.dir);
    assertEquals("warning: --databases is now --db", err.toString().strip());
  }

  @Test
  void theNewNamesWarnOfNothing() {
    InteractCommand interact = parse("interact", "--dataset", "q.json", "--examples", "2", "--db", "dbs");
    assertEquals(Path.of("q.json"), interact.data.dataset);
    assertEquals(2, interact.fewShot.examples);
    parse("recorded-predictions", "--log", "log.json", "--question-list", "list.json", "--dataset", "test.json", "--out", "x");
    parse("review", "--db", "dbs", "--database", "pets_1");
    assertFalse(err.toString().contains("warning"), err.toString());
  }

  @Test
  void promptsOutIsAFolderAndAnOldStyleFileIsAUsageErrorThatSaysSo(@TempDir Path dir) {
    CommandRun run = CommandRun.of("prompts", "--out", dir.resolve("results/prompts.jsonl").toString());
    assertEquals(2, run.code(), run.err());
    assertTrue(run.err().contains("--out is a folder (prompts writes OUT/prompts.jsonl), not a file: give --out "
        + dir.resolve("results")), run.err());
    assertFalse(dir.resolve("results").toFile().exists(), "nothing is written");
  }

  @Test
  void interactWithoutDbIsAUsageErrorThatNamesIt() {
    CommandRun run = CommandRun.of("interact", "--replay", "log.json");
    assertEquals(2, run.code(), run.err());
    assertTrue(run.err().contains("interact needs --db, the folder of SQLite databases"), run.err());
  }
}

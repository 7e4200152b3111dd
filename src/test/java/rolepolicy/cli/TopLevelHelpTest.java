package rolepolicy.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** rolepolicy --help: each command's first sentence whole, lines broken at spaces only. */
class TopLevelHelpTest {
  private final CommandRun help = CommandRun.of("--help");

  @Test
  void eachCommandShowsItsWholeFirstSentence() {
    assertEquals(0, help.code(), help.err());
    String flowing = help.out().replaceAll("\\s+", " ");
    Main.commandLine().getSubcommands().forEach((name, cli) -> {
      String summary = CommandList.summary(cli.getCommandSpec());
      assertTrue(summary.endsWith("."), name + ": " + summary);
      assertTrue(flowing.contains(" " + name + " " + summary + " "), name + " in\n" + help.out());
    });
    // generate's sentence spans two description lines: the second used to be cut off at the comma
    assertTrue(flowing.contains("from Spider, or from any benchmark in Spider's shape with --tables, --questions and --split."),
        help.out());
  }

  @Test
  void pathsAreNeverSplitAcrossLines() {
    for (String path : List.of("data/policies/<db_id>.json", "../shared/sphinteract/logs", "bin/exec-floor.py",
        "DATA/qa/audit.html")) {
      assertTrue(help.out().lines().anyMatch(line -> line.contains(path)), path + " in\n" + help.out());
    }
    assertTrue(help.out().lines().allMatch(line -> line.length() <= 80 || !line.strip().contains(" ")), help.out());
  }

  @Test
  void wrappingBreaksAtSpacesOnlyAndLeavesALongPathWhole() {
    assertEquals(List.of("a b", "c"), CommandList.wrap("a b c", 3));
    assertEquals(List.of("a", "../shared/spider/tables.json", "b"), CommandList.wrap("a ../shared/spider/tables.json b", 5));
  }

  @Test
  void aCommandLineNamingASubcommandBuildsOnlyThatOneAndTheHelpListsThemAll() {
    assertEquals(List.of("evaluate"), List.copyOf(Main.commandLine("evaluate").getSubcommands().keySet()));
    assertEquals(Main.COMMANDS.size(), Main.commandLine().getSubcommands().size());
    assertEquals(Main.COMMANDS.size(), Main.commandLine("--help").getSubcommands().size());
    for (Class<?> command : Main.COMMANDS) {
      String name = command.getAnnotation(picocli.CommandLine.Command.class).name();
      assertTrue(help.out().contains("  " + name + " "), name + " in\n" + help.out());
    }
  }
}

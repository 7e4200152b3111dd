package rolepolicy.cli;

import java.io.PrintWriter;
import java.util.List;

/**
 * Options renamed in this release, whose meaning did not change: the old name still works for one
 * release, rewritten to the new one with a warning on stderr.
 */
record RenamedOption(String command, String oldName, String newName) {
  static final List<RenamedOption> ALL = List.of(
      new RenamedOption("interact", "--questions", "--dataset"),
      new RenamedOption("recorded-predictions", "--questions", "--question-list"),
      new RenamedOption("prompts", "-k", "--examples"),
      new RenamedOption("run", "-k", "--examples"),
      new RenamedOption("interact", "-k", "--examples"),
      new RenamedOption("review", "--databases", "--db"),
      new RenamedOption("diff", "--split", "--splits"));

  /** The arguments with the old names of the command (the first argument) replaced, each warned of once. */
  static String[] rewrite(String[] args, PrintWriter err) {
    String[] result = args.clone();
    for (RenamedOption renamed : ALL) {
      if (args.length == 0 || !args[0].equals(renamed.command())) {
        continue;
      }
      boolean used = false;
      for (int i = 1; i < result.length && !result[i].equals("--"); i++) {
        String arg = result[i];
        if (arg.equals(renamed.oldName()) || arg.startsWith(renamed.oldName() + "=")) {
          result[i] = renamed.newName() + arg.substring(renamed.oldName().length());
          used = true;
        }
      }
      if (used) {
        err.println("warning: " + renamed.oldName() + " is now " + renamed.newName());
      }
    }
    return result;
  }
}

package rolepolicy.cli;

import java.io.PrintWriter;
import java.io.StringWriter;

/** One run of the command line in this JVM: its exit code and what it printed. */
public record CommandRun(int code, String out, String err) {
  public static CommandRun of(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = Main.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
    return new CommandRun(code, out.toString(), err.toString());
  }
}

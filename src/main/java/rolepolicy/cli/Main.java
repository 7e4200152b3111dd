package rolepolicy.cli;

import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import rolepolicy.engine.RuleFileException;
import rolepolicy.llm.EndpointException;
import rolepolicy.spider.InputException;

/** Entry point: {@code rolepolicy generate | evaluate | run | compare | review | report | diff | explain | bench | score-tables | bench-tables | interact | casebank | prompts | bench-retrieval | bench-facts | bench-run | bench-evaluate | recorded-predictions | predictions}; no arguments runs {@code generate} on the bundled dev split. */
@Command(
    name = "rolepolicy",
    mixinStandardHelpOptions = true,
    version = rolepolicy.Version.TEXT,
    description = "Role-sensitive column usage policies for Text-to-SQL, decided by Drools rules.",
    subcommands = {
      GenerateCommand.class,
      EvaluateCommand.class,
      ReviewCommand.class,
      ReportCommand.class,
      BenchCommand.class,
      ScoreTablesCommand.class,
      BenchTablesCommand.class,
      InteractCommand.class,
      CaseBankCommand.class,
      PromptsCommand.class,
      BenchRetrievalCommand.class,
      BenchFactsCommand.class,
      RecordedPredictionsCommand.class,
      CompareCommand.class,
      DiffCommand.class,
      ExplainCommand.class,
      RunCommand.class,
      BenchRunCommand.class,
      PredictionsCommand.class,
      BenchEvaluateCommand.class
    })
public final class Main {
  /** Exit code for bad input or a rule file that does not compile. */
  public static final int BAD_INPUT = 1;

  /** Exit code for an unexpected failure (a bug). */
  public static final int INTERNAL_ERROR = 70;

  public static void main(String[] args) {
    rolepolicy.cache.CacheFolder.enable();
    int code = run(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true));
    if (code != 0) {
      System.exit(code);
    }
  }

  /** Runs the command line with the given writers and returns the exit code. */
  public static int run(String[] args, PrintWriter out, PrintWriter err) {
    CommandLine cli = new CommandLine(new Main());
    cli.setOut(out);
    cli.setErr(err);
    CommandLine.IParameterExceptionHandler usage = cli.getParameterExceptionHandler();
    cli.setParameterExceptionHandler((e, arguments) -> usage.handleParseException(withoutRepeatedWord(e), arguments));
    cli.setExecutionExceptionHandler(
        (e, commandLine, parseResult) -> {
          if (e instanceof InputException || e instanceof RuleFileException || e instanceof EndpointException) {
            err.println("error: " + e.getMessage());
            return BAD_INPUT;
          }
          err.println("internal error: " + e);
          e.printStackTrace(err);
          return INTERNAL_ERROR;
        });
    return cli.execute(args.length == 0 ? new String[] {"generate"} : args);
  }

  /** picocli says "Value for option option '--id-column' …" of a KEY=VALUE option: the word once. */
  private static CommandLine.ParameterException withoutRepeatedWord(CommandLine.ParameterException e) {
    String message = e.getMessage();
    if (message == null || !message.contains("option option ")) {
      return e;
    }
    return new CommandLine.ParameterException(e.getCommandLine(), message.replace("option option ", "option "), e.getCause(),
        e.getArgSpec(), e.getValue());
  }
}

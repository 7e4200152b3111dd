package rolepolicy.cli;

import java.io.PrintWriter;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.UsageMessageSpec;
import rolepolicy.engine.RuleFileException;
import rolepolicy.llm.EndpointException;
import rolepolicy.spider.InputException;

/** Entry point: {@code rolepolicy generate | evaluate | run | compare | review | report | diff | explain | bench | score-tables | bench-tables | interact | casebank | prompts | bench-retrieval | bench-facts | bench-run | bench-evaluate | recorded-predictions | predictions | stand-in}; no arguments runs {@code generate} on the bundled dev split. */
@Command(
    name = "rolepolicy",
    mixinStandardHelpOptions = true,
    version = rolepolicy.Version.TEXT,
    description = "Role-sensitive column usage policies for Text-to-SQL, decided by Drools rules.")
public final class Main {
  /** The subcommands, in the order the help lists them. */
  static final List<Class<?>> COMMANDS = List.of(
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
      BenchEvaluateCommand.class,
      StandInCommand.class);

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
    String[] line = args.length == 0 ? new String[] {"generate"} : RenamedOption.rewrite(args, err);
    CommandLine cli = commandLine(line[0]);
    cli.getHelpSectionMap().put(UsageMessageSpec.SECTION_KEY_COMMAND_LIST, CommandList::render);
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
    return cli.execute(line);
  }

  /** The command line with every subcommand. */
  public static CommandLine commandLine() {
    return commandLine(null);
  }

  /**
   * The command line with only the subcommand named {@code first}, when it names one (building
   * every subcommand's model takes a tenth of a second of each start), else with all of them.
   */
  static CommandLine commandLine(String first) {
    CommandLine cli = new CommandLine(new Main());
    for (Class<?> command : COMMANDS) {
      if (command.getAnnotation(Command.class).name().equals(first)) {
        cli.addSubcommand(newInstance(command));
        return cli;
      }
    }
    COMMANDS.forEach(command -> cli.addSubcommand(newInstance(command)));
    return cli;
  }

  private static Object newInstance(Class<?> command) {
    try {
      return command.getDeclaredConstructor().newInstance();
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(e);
    }
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

package rolepolicy.cli;

import java.io.PrintWriter;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.UsageMessageSpec;
import rolepolicy.engine.RuleFileException;
import rolepolicy.engine.RuleLimits;
import rolepolicy.io.OutputRefused;
import rolepolicy.io.RunTemp;
import rolepolicy.io.Secrets;
import rolepolicy.llm.EndpointException;
import rolepolicy.io.InputException;

/** Entry point: {@code rolepolicy generate | evaluate | run | compare | review | report | diff | explain | bench | score-tables | bench-tables | interact | casebank | prompts | bench-retrieval | bench-facts | bench-run | bench-evaluate | recorded-predictions | predictions | stand-in}; no arguments prints the usage (exit 2). */
@Command(
    name = "rolepolicy",
    mixinStandardHelpOptions = true,
    version = rolepolicy.io.Version.TEXT,
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
      DecideCommand.class,
      ExportGrantsCommand.class,
      BenchDecideCommand.class,
      RunCommand.class,
      BenchRunCommand.class,
      PredictionsCommand.class,
      BenchEvaluateCommand.class,
      StandInCommand.class);

  /** Exit code for bad input or a rule file that does not compile. */
  public static final int BAD_INPUT = 1;

  /** Exit code for a bad command line: an unknown option, a value out of range, an output refused. */
  public static final int USAGE = 2;

  /** Exit code of a model run that wrote its folder but left questions without a final answer (failed or cut off). */
  public static final int INCOMPLETE = 3;

  /** Exit code of a run stopped by Ctrl-C, as a shell reports one (128 + SIGINT). */
  public static final int INTERRUPTED = 130;

  /** Exit code for an unexpected failure (a bug). */
  public static final int INTERNAL_ERROR = 70;

  public static void main(String[] args) {
    rolepolicy.cache.CacheFolder.enable();
    exitAfterNativeWorkOn("INT", INTERRUPTED);
    exitAfterNativeWorkOn("TERM", 143);
    RuleLimits.onStuck(message -> {
      System.err.println("error: " + Secrets.redact(message));
      System.err.flush();
      System.exit(BAD_INPUT); // the shutdown hooks remove what the run was writing
    });
    int code = run(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true));
    if (code != 0) {
      System.exit(code);
    }
  }

  /**
   * On the signal, the exit (its code 128 + the signal's number, as the JVM's own) begins once no native
   * call is under way ({@link rolepolicy.cache.NativeLibraries#stopNativeWork}): the shutdown hooks run
   * after it. A signal the process was started ignoring (a background job's INT) stays ignored.
   */
  private static void exitAfterNativeWorkOn(String name, int code) {
    try {
      sun.misc.SignalHandler before = sun.misc.Signal.handle(new sun.misc.Signal(name), signal -> {
        rolepolicy.cache.NativeLibraries.stopNativeWork();
        System.exit(code);
      });
      if (before == sun.misc.SignalHandler.SIG_IGN) {
        sun.misc.Signal.handle(new sun.misc.Signal(name), sun.misc.SignalHandler.SIG_IGN);
      }
    } catch (IllegalArgumentException e) {
      // no such signal here, or the JVM keeps it (-Xrs): its own handling stays
    }
  }

  /** Runs the command line with the given writers and returns the exit code. */
  public static int run(String[] args, PrintWriter out, PrintWriter err) {
    if (args.length == 0) {
      CommandLine all = commandLine();
      all.getHelpSectionMap().put(UsageMessageSpec.SECTION_KEY_COMMAND_LIST, CommandList::render);
      err.println("error: no command given: name one of those below (e.g. rolepolicy generate --help)");
      all.usage(err);
      return USAGE;
    }
    String[] line = RenamedOption.rewrite(args, err);
    CommandLine cli = commandLine(line[0]);
    cli.getHelpSectionMap().put(UsageMessageSpec.SECTION_KEY_COMMAND_LIST, CommandList::render);
    cli.setOut(out);
    cli.setErr(err);
    CommandLine.IParameterExceptionHandler usage = cli.getParameterExceptionHandler();
    cli.setParameterExceptionHandler((e, arguments) -> usage.handleParseException(clearer(e), arguments));
    cli.setExecutionStrategy(Preflight::execute);
    cli.setExecutionExceptionHandler(
        (e, commandLine, parseResult) -> {
          if (RunTemp.isStopping()) { // Ctrl-C: the hook has said what it removed; a step cut short is no bug
            return INTERRUPTED;
          }
          if (e instanceof OutputRefused) {
            err.println("error: " + Secrets.redact(e.getMessage()));
            return USAGE;
          }
          if (e instanceof InputException || e instanceof RuleFileException || e instanceof EndpointException) {
            err.println("error: " + Secrets.redact(e.getMessage()));
            return BAD_INPUT;
          }
          InputException io = rolepolicy.io.AtomicOutput.failure(e); // a disk full, a file in the way
          if (io != null) {
            err.println("error: " + Secrets.redact(io.getMessage()));
            return BAD_INPUT;
          }
          java.io.StringWriter trace = new java.io.StringWriter();
          e.printStackTrace(new PrintWriter(trace));
          err.println("internal error: " + Secrets.redact(e.toString()));
          err.print(Secrets.redact(trace.toString()));
          err.flush();
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

  /**
   * picocli's wording made plain: "Value for option option '--id-column' …" of a KEY=VALUE option
   * says the word once; an option given twice, in a group or not, is named once.
   */
  private static CommandLine.ParameterException clearer(CommandLine.ParameterException e) {
    String message = e.getMessage();
    if (message == null) {
      return e;
    }
    String plain = Secrets.redact(message).replace("option option ", "option ");
    Matcher twice = REPEATED.matcher(message);
    Matcher grouped = REPEATED_IN_GROUP.matcher(message);
    if (e instanceof CommandLine.OverwrittenOptionException && twice.find()) {
      plain = twice.group(1) + " is given more than once: give it once";
    } else if (grouped.find()) {
      plain = grouped.group(1) + " is given more than once (" + grouped.group(2) + ", then " + grouped.group(3)
          + "): give it once";
    }
    return plain.equals(message) ? e : new CommandLine.ParameterException(e.getCommandLine(), plain);
  }

  private static final Pattern REPEATED = Pattern.compile("option '(-[^']+)' .*should be specified only once");
  private static final Pattern REPEATED_IN_GROUP =
      Pattern.compile("expected only one match but got .*=\\{(--[\\w-]+)=([^}]*)\\} and .*=\\{--[\\w-]+=([^}]*)\\}");
}

package rolepolicy.cli;

import java.io.PrintWriter;
import java.lang.reflect.Field;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;
import picocli.CommandLine.Model.UsageMessageSpec;
import picocli.CommandLine.ParseResult;
import rolepolicy.engine.RuleFileException;
import rolepolicy.engine.RuleLimits;
import rolepolicy.generate.OutputGuard;
import rolepolicy.generate.OutputRefused;
import rolepolicy.llm.EndpointException;
import rolepolicy.spider.InputException;

/** Entry point: {@code rolepolicy generate | evaluate | run | compare | review | report | diff | explain | bench | score-tables | bench-tables | interact | casebank | prompts | bench-retrieval | bench-facts | bench-run | bench-evaluate | recorded-predictions | predictions | stand-in}; no arguments prints the usage (exit 2). */
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

  /** Exit code for a bad command line: an unknown option, a value out of range, an output refused. */
  public static final int USAGE = 2;

  /** Exit code for an unexpected failure (a bug). */
  public static final int INTERNAL_ERROR = 70;

  public static void main(String[] args) {
    rolepolicy.cache.CacheFolder.enable();
    rolepolicy.cache.NativeLibraries.useCacheFolder(rolepolicy.cache.CacheFolder.folder());
    RuleLimits.onStuck(message -> {
      System.err.println("error: " + message);
      System.err.flush();
      System.exit(BAD_INPUT); // the shutdown hooks remove what the run was writing
    });
    int code = run(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true));
    if (code != 0) {
      System.exit(code);
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
    cli.setExecutionStrategy(parsed -> {
      checkRanges(parsed);
      try {
        RuleLimits.set(ruleLimits(parsed));
        OutputGuard guard = guard(parsed);
        OptionSpec outOption = deepest(parsed).commandSpec().findOption("--out");
        if (outOption != null && outOption.getValue() instanceof Path folder) {
          guard.checkOutputFolder(folder);
        }
        return OutputGuard.with(guard, () -> new CommandLine.RunLast().execute(parsed));
      } catch (CommandLine.ParameterException | CommandLine.ExecutionException e) {
        throw e;
      } catch (Exception e) {
        throw new CommandLine.ExecutionException(cli, e.toString(), e);
      } finally {
        RuleLimits.set(null);
      }
    });
    cli.setExecutionExceptionHandler(
        (e, commandLine, parseResult) -> {
          if (e instanceof OutputRefused) {
            err.println("error: " + e.getMessage());
            return USAGE;
          }
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

  /** The path options that name what a command writes (or caches), not what it reads. */
  private static final Set<String> WRITTEN = Set.of("--out", "--audit", "--work", "--cache", "--judge-cache");

  /**
   * The command's output guard: every path option and parameter it was given or defaults to is an
   * input, but for those naming what it writes ({@link #WRITTEN}, and a command's own {@link Writes}).
   */
  private static OutputGuard guard(ParseResult parsed) {
    ParseResult command = deepest(parsed);
    CommandSpec spec = command.commandSpec();
    Set<String> written = spec.userObject() instanceof Writes writes ? writes.writtenOptions() : Set.of();
    List<OutputGuard.Input> inputs = new ArrayList<>();
    boolean force = false;
    for (ArgSpec arg : spec.args()) {
      String name = arg instanceof OptionSpec option ? option.longestName() : ((PositionalParamSpec) arg).paramLabel();
      if (name.equals("--force")) {
        force = Boolean.TRUE.equals(arg.getValue());
      }
      if (WRITTEN.contains(name) || written.contains(name)) {
        continue;
      }
      Object value = arg.getValue();
      if (value instanceof Path path) {
        inputs.add(new OutputGuard.Input(name, path));
      } else if (value instanceof Collection<?> values) {
        values.stream().filter(Path.class::isInstance).forEach(p -> inputs.add(new OutputGuard.Input(name, (Path) p)));
      }
    }
    return new OutputGuard(inputs, force);
  }

  /** The command's --rule-firings and --rule-timeout, or null (the defaults) without them. */
  private static RuleLimits ruleLimits(ParseResult parsed) {
    CommandSpec spec = deepest(parsed).commandSpec();
    OptionSpec firings = spec.findOption("--rule-firings");
    OptionSpec seconds = spec.findOption("--rule-timeout");
    return firings == null || seconds == null ? null
        : new RuleLimits(firings.<Integer>getValue(), seconds.<Double>getValue());
  }

  private static ParseResult deepest(ParseResult parsed) {
    ParseResult command = parsed;
    while (command.subcommand() != null) {
      command = command.subcommand();
    }
    return command;
  }

  /** Refuses a numeric option's value outside its {@link Range}, naming the option (exit 2). */
  private static void checkRanges(ParseResult parsed) {
    ParseResult command = deepest(parsed);
    for (OptionSpec option : command.commandSpec().options()) {
      Range range = option.userObject() instanceof Field field ? field.getAnnotation(Range.class) : null;
      if (range == null || !(option.getValue() instanceof Number number)) {
        continue;
      }
      double value = number.doubleValue();
      boolean low = range.aboveMin() ? !(value > range.min()) : !(value >= range.min());
      if (low || value > range.max()) {
        throw new CommandLine.ParameterException(command.commandSpec().commandLine(),
            option.longestName() + " must be " + describe(range) + ", not " + number(value));
      }
    }
  }

  private static String describe(Range range) {
    String min = number(range.min());
    String max = number(range.max());
    if (range.max() == Double.POSITIVE_INFINITY) {
      return range.aboveMin() ? "above " + min : "at least " + min;
    }
    return range.aboveMin() ? "above " + min + " and at most " + max : "from " + min + " to " + max;
  }

  private static String number(double value) {
    return value == Math.rint(value) ? String.valueOf((long) value) : String.valueOf(value);
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
    String plain = message.replace("option option ", "option ");
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

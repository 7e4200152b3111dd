package rolepolicy.cli;

import java.lang.reflect.Field;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;
import picocli.CommandLine.ParseResult;
import rolepolicy.cache.CacheFolder;
import rolepolicy.cache.NativeLibraries;
import rolepolicy.engine.RuleLimits;
import rolepolicy.engine.RuleSet;
import rolepolicy.io.OutputGuard;

/**
 * What is checked and set before any command runs, from its parsed command line: every numeric
 * option within its {@link Range} (else exit 2 naming it), the rule limits, and the output guard
 * (its inputs found from the path options; an {@code --out} that is one, or lies in one, refused
 * now). The command then runs with them.
 */
final class Preflight {
  private Preflight() {}

  /** The execution strategy of the command line: the checks, then the command. */
  static int execute(ParseResult parsed) {
    checkRanges(parsed);
    checkProfile(parsed);
    nativeLibraries(deepest(parsed));
    try {
      RuleLimits.set(ruleLimits(parsed));
      OutputGuard guard = guard(parsed);
      OptionSpec out = deepest(parsed).commandSpec().findOption("--out");
      if (out != null && out.getValue() instanceof Path folder) {
        guard.checkOutputFolder(folder);
      }
      return OutputGuard.with(guard, () -> new CommandLine.RunLast().execute(parsed));
    } catch (CommandLine.ParameterException | CommandLine.ExecutionException e) {
      throw e;
    } catch (Exception e) {
      throw new CommandLine.ExecutionException(parsed.commandSpec().commandLine(), e.toString(), e);
    } finally {
      RuleLimits.set(null);
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

  /**
   * The native libraries from the cache folder: the command's {@code --cache}, none with {@code
   * --no-cache}, else the tool's (none where it is off); not for help, which loads none.
   */
  private static void nativeLibraries(ParseResult command) {
    if (command.isUsageHelpRequested() || command.isVersionHelpRequested()) {
      return;
    }
    OptionSpec noCache = command.commandSpec().findOption("--no-cache");
    OptionSpec cache = command.commandSpec().findOption("--cache");
    if (noCache != null && Boolean.TRUE.equals(noCache.getValue())) {
      return;
    }
    NativeLibraries.useCacheFolder(cache != null && cache.getValue() instanceof Path folder ? folder : CacheFolder.folder());
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

  /**
   * Refuses a {@code --profile} that names no profile of the {@code --rules} folder, naming the
   * profiles there (exit 2); evaluate alone takes a comma-separated list.
   */
  private static void checkProfile(ParseResult parsed) {
    ParseResult command = deepest(parsed);
    CommandSpec spec = command.commandSpec();
    OptionSpec profile = spec.findOption("--profile");
    OptionSpec rules = spec.findOption("--rules");
    if (profile == null || rules == null || !(profile.getValue() instanceof String value)
        || !(rules.getValue() instanceof Path folder) || !Files.isDirectory(folder)) {
      return; // a missing rules folder is reported when the rules are read
    }
    List<String> known = RuleSet.profiles(folder);
    if (known.isEmpty()) {
      known = List.of(RuleSet.DEFAULT_PROFILE);
    }
    boolean many = spec.userObject() instanceof EvaluateCommand;
    List<String> names = many ? List.of(value.split(",", -1)) : List.of(value);
    for (String name : names) {
      if (known.contains(name) && names.indexOf(name) != names.lastIndexOf(name)) {
        throw new CommandLine.ParameterException(spec.commandLine(), "--profile '" + value + "': '" + name
            + "' is named twice; name each profile once");
      }
      if (known.contains(name)) {
        continue;
      }
      String problem;
      if (name.isBlank()) {
        problem = "no profile named";
      } else if (!many && name.contains(",")) {
        problem = "one profile only";
      } else {
        String lower = name.strip().toLowerCase(Locale.ROOT);
        problem = "no profile '" + name + "'" + (known.contains(lower) ? " (did you mean '" + lower + "'?)" : "");
      }
      throw new CommandLine.ParameterException(spec.commandLine(), "--profile '" + value + "': " + problem
          + "; give one of " + String.join(", ", known) + (many ? ", or several separated by ','" : ""));
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
}

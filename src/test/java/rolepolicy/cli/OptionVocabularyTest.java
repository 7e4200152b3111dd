package rolepolicy.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.reflect.Member;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.Model.OptionSpec;

/**
 * One option vocabulary across the commands: an option name that several commands have means the
 * same thing, with the same parameter and the same default, and comes from the same mixin; the
 * table of docs/options.md says so. A new command that gives a known name another default fails here.
 */
class OptionVocabularyTest {
  /** Default of an option whose default depends on the command (an output folder, a seed). */
  private static final String PER_COMMAND = "per command";

  /** Default of an option that must be given. */
  private static final String REQUIRED = "required";

  /**
   * One name of the vocabulary: its parameter, its default (null: none), the class that declares
   * it (null: each command declares its own), and the commands that differ, with their default.
   */
  private record Term(String name, String label, String defaultValue, Class<?> declaredBy, Map<String, String> exceptions) {}

  private static final List<Term> VOCABULARY = List.of(
      new Term("--dataset", "FILE", "data/dev.json", DatasetOption.class,
          Map.of("casebank", "data/train.json", "recorded-predictions", REQUIRED)),
      new Term("--tables", "FILE", "data/spider/tables.json", TablesOption.class,
          Map.of("generate", "none", "review", "none")),
      new Term("--db", "DIR", null, DatabasesOption.class, Map.of("bench-evaluate", "../shared/spider/database")),
      new Term("--spider", "DIR", "data/spider", SpiderOption.class, Map.of("bench", REQUIRED, "bench-facts", "../shared/spider")),
      new Term("--rules", "DIR", "rules", RulesOption.class, Map.of()),
      new Term("--profile", "NAME", "spec-v1", RulesOption.class, Map.of("decide", "grants", "bench-decide", "grants")),
      new Term("--rule-firings", "N", "100000", RulesOption.class, Map.of()),
      new Term("--rule-timeout", "SECONDS", "60", RulesOption.class, Map.of()),
      new Term("--force", "", null, ForceOption.class, Map.of()),
      new Term("--overrides", "FILE", null, PolicyOptions.class, Map.of()),
      new Term("--grants", "FILE", null, PolicyOptions.class, Map.of()),
      new Term("--grants-from", "JDBC_URL", null, PolicyOptions.class, Map.of()),
      new Term("--grant-role", "ROLE", null, PolicyOptions.class, Map.of()),
      new Term("--bank", "DIR", "data/casebank", CaseBankOption.class, Map.of()),
      new Term("--template", "FILE", "data/prompts/few-shot.txt", TemplateOption.class, Map.of()),
      new Term("--examples", "N", "3", FewShotOptions.class, Map.of()),
      new Term("--policy", "NAME", "skeleton_vote", FewShotOptions.class, Map.of()),
      new Term("--schema-style", "NAME", "create-table", FewShotOptions.class, Map.of()),
      new Term("--parallel", "N", "4", ParallelOption.class, Map.of()),
      new Term("--timeout", "SECONDS", "30", QueryTimeoutOption.class, Map.of()),
      new Term("--cache", "DIR", null, CacheOptions.class, Map.of()),
      new Term("--no-cache", "", null, CacheOptions.class, Map.of()),
      new Term("--llm-url", "URL", null, EndpointOptions.class, Map.of()),
      new Term("--llm-model", "NAME", null, EndpointOptions.class, Map.of()),
      new Term("--llm-key-env", "VAR", null, EndpointOptions.class, Map.of()),
      new Term("--llm-timeout", "SECONDS", "60", EndpointOptions.class, Map.of()),
      new Term("--llm-retries", "N", "2", EndpointOptions.class, Map.of()),
      new Term("--llm-max-bytes", "N", "8388608", EndpointOptions.class, Map.of()),
      new Term("--llm-backoff", "SECONDS", "1", EndpointOptions.class, Map.of()),
      new Term("--llm-header", "'NAME: VALUE'", null, EndpointOptions.class, Map.of()),
      new Term("--rpm", "N", null, EndpointOptions.class, Map.of()),
      new Term("--tpm", "N", null, EndpointOptions.class, Map.of()),
      new Term("--temperature", "T", "0", EndpointOptions.class, Map.of()),
      new Term("--max-tokens", "N", null, EndpointOptions.class, Map.of()),
      new Term("--token-field", "NAME", null, EndpointOptions.class, Map.of()),
      new Term("--top-p", "P", null, EndpointOptions.class, Map.of()),
      new Term("--stop", "TEXT", null, EndpointOptions.class, Map.of()),
      new Term("--reasoning-effort", "LEVEL", null, EndpointOptions.class, Map.of()),
      new Term("--extra-body", "JSON", null, EndpointOptions.class, Map.of()),
      new Term("--out", "DIR", PER_COMMAND, null, Map.of()),
      new Term("--splits", "LIST", PER_COMMAND, null, Map.of()),
      new Term("--seed", "N", PER_COMMAND, null, Map.of()),
      new Term("--threads", "N", null, null, Map.of()),
      new Term("--pred", "FILE", null, null, Map.of()),
      new Term("--draft", "FILE", null, null, Map.of()),
      new Term("--limit", "N", null, null, Map.of()),
      new Term("--json", "", null, null, Map.of()),
      new Term("--runs", "N", "5", null, Map.of()),
      new Term("--warmup", "N", "4", null, Map.of()),
      new Term("--work", "DIR", null, null, Map.of()),
      new Term("--uda", "DIR", "../shared/uda-bench/Query", null, Map.of()));

  /** One command's declaration of an option. */
  private record Declared(String command, OptionSpec option) {}

  /** Every visible option of every command, by name. */
  private static Map<String, List<Declared>> declarations() {
    Map<String, List<Declared>> byName = new TreeMap<>();
    Main.commandLine().getSubcommands().forEach((command, cli) -> {
      for (OptionSpec option : cli.getCommandSpec().options()) {
        if (!option.hidden() && !option.usageHelp() && !option.versionHelp()) {
          byName.computeIfAbsent(option.longestName(), n -> new ArrayList<>()).add(new Declared(command, option));
        }
      }
    });
    return byName;
  }

  private static Term term(String name) {
    return VOCABULARY.stream().filter(t -> t.name().equals(name)).findFirst().orElse(null);
  }

  /** The default value, else {@code required} for an option that must be given (outside an option group), else none. */
  private static String defaultOf(OptionSpec option) {
    String provided = provided(option);
    if (provided != null) {
      return provided;
    }
    return option.defaultValue() != null ? option.defaultValue() : option.required() && option.group() == null ? REQUIRED : "none";
  }

  /** The default a command's default-value provider gives (it comes before the annotation's), or null. */
  private static String provided(OptionSpec option) {
    picocli.CommandLine.IDefaultValueProvider provider =
        option.command() == null ? null : option.command().defaultValueProvider();
    try {
      return provider == null ? null : provider.defaultValue(option);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  @Test
  void everyOptionOfSeveralCommandsIsInTheVocabulary() {
    List<String> missing = declarations().entrySet().stream()
        .filter(e -> e.getValue().size() > 1 && term(e.getKey()) == null)
        .map(e -> e.getKey() + " " + e.getValue().stream().map(Declared::command).toList())
        .toList();
    assertEquals(List.of(), missing, "options of several commands that the vocabulary does not know");
  }

  @Test
  void eachNameHasOneParameterOneDefaultAndOneDeclaration() {
    List<String> wrong = new ArrayList<>();
    declarations().forEach((name, declared) -> {
      Term term = term(name);
      if (term == null) {
        return;
      }
      for (Declared d : declared) {
        OptionSpec option = d.option();
        String where = d.command() + " " + name;
        String label = option.typeInfo().isBoolean() ? "" : option.paramLabel();
        if (!label.equals(term.label())) {
          wrong.add(where + ": parameter " + label + ", not " + term.label());
        }
        String expected = term.exceptions().getOrDefault(d.command(), term.defaultValue() == null ? "none" : term.defaultValue());
        String actual = defaultOf(option);
        // an option that must be given has no default: that agrees with a name that has none
        boolean defaultAgrees = expected.equals(PER_COMMAND) || expected.equals(actual)
            || expected.equals("none") && actual.equals(REQUIRED);
        if (!defaultAgrees) {
          wrong.add(where + ": default " + actual + ", not " + expected);
        }
        if (term.declaredBy() != null && !term.exceptions().containsKey(d.command())) {
          Class<?> declaring = ((Member) option.userObject()).getDeclaringClass();
          if (declaring != term.declaredBy()) {
            wrong.add(where + ": declared in " + declaring.getSimpleName() + ", not the shared " + term.declaredBy().getSimpleName());
          }
        }
      }
    });
    assertEquals(List.of(), wrong);
  }

  @Test
  void eachSharedNameHasOneDescriptionWhereItComesFromItsMixin() {
    List<String> wrong = new ArrayList<>();
    declarations().forEach((name, declared) -> {
      Term term = term(name);
      if (term == null || term.declaredBy() == null) {
        return;
      }
      Set<String> descriptions = declared.stream()
          .filter(d -> !term.exceptions().containsKey(d.command()))
          .map(d -> String.join(" ", d.option().description()))
          .collect(Collectors.toCollection(TreeSet::new));
      if (descriptions.size() != 1) {
        wrong.add(name + ": " + descriptions);
      }
    });
    assertEquals(List.of(), wrong);
  }

  @Test
  void theOptionsTableListsEachSharedNameWithItsDefaultAndCommands() throws IOException {
    Map<String, String[]> rows = new LinkedHashMap<>();
    List<String> readme = Files.readAllLines(Path.of("docs/options.md"));
    int start = readme.indexOf("# Options: one vocabulary");
    assertTrue(start >= 0, "docs/options.md has no title '# Options: one vocabulary'");
    for (String line : readme.subList(start + 1, readme.size())) {
      if (line.startsWith("## ")) {
        break;
      }
      if (line.startsWith("| `--")) {
        String[] cells = Arrays.stream(line.split("\\|")).map(String::strip).toArray(String[]::new);
        rows.put(cells[1].replaceAll("`", "").split(" ")[0], cells);
      }
    }
    Set<String> commandNames = Main.commandLine().getSubcommands().keySet();
    List<String> wrong = new ArrayList<>();
    declarations().forEach((name, declared) -> {
      Term term = term(name);
      if (term == null) {
        return;
      }
      String[] row = rows.get(name);
      if (row == null || row.length < 5) {
        wrong.add(name + ": no row in docs/options.md's option table");
        return;
      }
      String shown = term.label().isEmpty() ? "off" : term.defaultValue() == null ? "none" : term.defaultValue();
      String cell = row[3].replaceAll("`", "");
      if (!cell.equals(shown) && !cell.startsWith(shown + " (")) {
        wrong.add(name + ": docs/options.md's default is " + row[3] + ", not " + shown);
      }
      Set<String> listed = Arrays.stream(row[4].split("[^a-z-]+")).filter(commandNames::contains)
          .collect(Collectors.toCollection(TreeSet::new));
      Set<String> actual = declared.stream().map(Declared::command).collect(Collectors.toCollection(TreeSet::new));
      if (!listed.equals(actual)) {
        wrong.add(name + ": docs/options.md lists " + listed + ", the commands are " + actual);
      }
      for (Map.Entry<String, String> exception : term.exceptions().entrySet()) {
        if (!row[4].contains(exception.getKey() + " (") || !row[4].contains(exception.getValue())) {
          wrong.add(name + ": docs/options.md does not show " + exception.getKey() + "'s default " + exception.getValue());
        }
      }
    });
    assertEquals(List.of(), wrong);
  }
}

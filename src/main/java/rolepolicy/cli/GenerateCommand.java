package rolepolicy.cli;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;
import org.kie.api.KieBase;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;
import rolepolicy.engine.DatabasePolicies;
import rolepolicy.engine.PolicyAssigner;
import rolepolicy.engine.QuestionEngine;
import rolepolicy.engine.ResultCheck;
import rolepolicy.engine.RuleBase;
import rolepolicy.evaluate.SameResult;
import rolepolicy.io.AtomicOutput;
import rolepolicy.generate.AccessTiers;
import rolepolicy.generate.AuditTrail;
import rolepolicy.generate.DatasetGenerator;
import rolepolicy.generate.QuestionGenerator;
import rolepolicy.generate.SplitSummary;
import rolepolicy.model.PolicyOverride;
import rolepolicy.io.InputException;
import rolepolicy.spider.AccessRecords;
import rolepolicy.spider.Schema;
import rolepolicy.spider.SchemaReader;

/** Generates the policy dataset (SPEC §1–8) from Spider splits. */
@Command(
    name = "generate",
    mixinStandardHelpOptions = true,
    description = {
      "Generate data/<split>.json and data/policies/<db_id>.json from Spider,",
      "or from any benchmark in Spider's shape with --tables, --questions and --split."
    })
public final class GenerateCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Mixin SpiderOption spiderFolder;

  @Mixin DatabasesOption databases;

  @Mixin QueryTimeoutOption query;

  @Option(
      names = "--splits",
      paramLabel = "LIST",
      split = ",",
      description = "Splits to generate, any of train, dev, test (default: ${DEFAULT-VALUE}).",
      defaultValue = "dev")
  List<String> splits;

  @Option(
      names = "--tables",
      paramLabel = "FILE",
      description = "A schema file in Spider's tables.json shape; with --questions and --split, instead of --spider.")
  Path tables;

  @Option(
      names = "--questions",
      paramLabel = "FILE",
      split = ",",
      arity = "1..*",
      description = "Question files read one after the other into one split (FILE[,FILE...] or several FILEs).")
  List<Path> questions;

  @Option(
      names = "--split",
      paramLabel = "NAME",
      description = "The split's name with --tables: writes <out>/<NAME>.json, ids NAME_0001, ...")
  String split;

  @Option(
      names = "--access-records",
      paramLabel = "FILE",
      description = "Spider-AC records (Role-Conditioned Refusals' JSON Lines, plain or .gz) instead of --spider: one dataset per user,"
          + " <out>/<user>/access.json, the policies being the user's GRANTs (with --profile grants).")
  Path accessRecords;

  @Option(
      names = "--facts",
      paramLabel = "SOURCE",
      description = "Where the rules' facts come from: auto (the Spider AST where a record has one, else the SQL text) or text (always the SQL text) (default: ${DEFAULT-VALUE}).",
      defaultValue = "auto")
  String facts;

  @Option(
      names = "--out",
      paramLabel = "DIR",
      description = "Output folder (default: ${DEFAULT-VALUE}; data/NAME with --profile NAME).",
      defaultValue = "data")
  Path out;

  @Mixin PolicyOptions policy;

  @Option(
      names = "--audit",
      paramLabel = "FILE",
      description = "Also write one JSON line per question with every rule that fired, in order.")
  Path audit;

  @Option(
      names = "--compare-with",
      paramLabel = "DIR",
      description = "Then compare the fresh output with this earlier generated folder (as diff DIR OUT), into OUT/diff.")
  Path compareWith;

  @Option(
      names = "--threads",
      paramLabel = "N",
      description = "Questions worked on at once; the output is the same for any N (default: the number of cores).")
  @Range(min = 1)
  Integer threads;

  @Option(
      names = "--progress",
      negatable = true,
      description = "Show a progress bar (default: only on a terminal).")
  Boolean progress;

  /** A split name, its question files and its schema file. */
  private record Split(String name, List<Path> questions, Path schemas) {}

  @Mixin ForceOption force;

  @Override
  public Integer call() {
    PrintWriter stdout = spec.commandLine().getOut();
    policy.checkGrantsProfile(); // before any work
    if (!spec.commandLine().getParseResult().hasMatchedOption("--out")
        && !policy.profile.equals(rolepolicy.engine.RuleSet.DEFAULT_PROFILE)) {
      out = Path.of("data", policy.profile); // one dataset per profile
    }
    if (compareWith != null && !Files.isDirectory(compareWith)) {
      throw new InputException(compareWith + ": folder not found (--compare-with needs an earlier generate --out folder)");
    }
    if (accessRecords != null) {
      return accessTiers(stdout);
    }
    List<Split> wanted = tables != null || questions != null || split != null ? explicitSplit() : resolveSplits();
    for (Split split : wanted) {
      if (audit != null
          && audit.toAbsolutePath().normalize().equals(AuditTrail.splitFile(out, split.name()).toAbsolutePath().normalize())) {
        throw new picocli.CommandLine.ParameterException(
            spec.commandLine(), "--audit " + audit + " is the audit file generate writes for split " + split.name() + " anyway");
      }
    }
    QuestionGenerator.Facts factSource = factSource();
    Map<String, Schema> schemas = readSchemas(wanted);
    // data/overrides.json is Spider's: a benchmark by explicit files takes overrides only when given
    boolean spiderOverrides = policy.overrides != null || split == null;
    List<PolicyOverride> overrideList = spiderOverrides ? policy.readOverrides() : List.of();
    String overridesSource = spiderOverrides ? policy.overridesSource() : "no overrides";

    long start = System.nanoTime();
    KieBase ruleBase = RuleBase.load(policy.ruleSet());
    double ruleSeconds = (System.nanoTime() - start) / 1e9;
    Map<String, DatabasePolicies> policies =
        new PolicyAssigner(ruleBase)
            .assign(schemas, overrideList, overridesSource, policy.policyFacts());
    SameResult runner = databaseFolder() == null ? null : new SameResult(databaseFolder(), query.timeout);
    DatasetGenerator generator =
        new DatasetGenerator(
            new QuestionGenerator(new QuestionEngine(ruleBase), schemas, policies, factSource,
                runner == null ? ResultCheck.NONE : runner),
            threads == null ? defaultThreads() : threads);

    List<SplitSummary> summaries = new ArrayList<>();
    try (AtomicOutput output = new AtomicOutput(out)) {
      List<Path> auditFiles = new ArrayList<>();
      for (Split split : wanted) {
        Path file = output.stage(out.resolve(split.name() + ".json"));
        Path auditFile = output.stage(AuditTrail.splitFile(out, split.name()));
        auditFiles.add(auditFile);
        try (ProgressBar bar = progressBar(split);
            BufferedWriter auditWriter = Files.newBufferedWriter(auditFile)) {
          summaries.add(
              generator.generate(split.name(), split.questions(), file, auditWriter, bar::stepTo));
        }
      }
      AuditTrail.writeRules(RuleBase.rules(ruleBase), output.stage(AuditTrail.rulesFile(out)));
      if (audit != null) {
        Path combined = output.stage(audit);
        for (Path auditFile : auditFiles) {
          Files.write(combined, Files.readAllBytes(auditFile), java.nio.file.StandardOpenOption.APPEND);
        }
      }
      DatasetGenerator.writePolicies(policies, out, output);
      rolepolicy.generate.DatasetProfile.write(out, policy.profile, output);
      output.commit();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      if (runner != null) {
        runner.close();
      }
    }
    stdout.printf(Locale.ROOT, "rules: %d files compiled in %.2f s%n", RuleBase.ruleFiles(policy.ruleSet()).size(), ruleSeconds);
    summaries.forEach(s -> stdout.println(s.line()));
    PrintWriter stderr = spec.commandLine().getErr();
    for (SplitSummary summary : summaries) {
      if (!summary.unanalysable().isEmpty()) {
        stderr.printf(Locale.ROOT, "%s: %s whose SQL text cannot be analysed (written, refused as UNRESOLVED):%n",
            summary.split(), rolepolicy.io.Plural.of(summary.unanalysable().size(), "question"));
        summary.unanalysable().forEach(line -> stderr.println("  " + line));
      }
    }
    List<String> written = new ArrayList<>();
    wanted.forEach(split -> written.add(out.resolve(split.name() + ".json").toString()));
    written.add(out.resolve("policies") + "/");
    written.add(out.resolve("audit") + "/");
    stdout.printf(Locale.ROOT, "wrote %s%n", String.join(", ", written));
    if (compareWith != null) {
      DiffCommand.run(compareWith, out, wanted.stream().map(Split::name).toList(), out.resolve("diff"), false, stdout);
    }
    return 0;
  }

  /**
   * One dataset per user tier of Spider-AC's records: {@code <out>/<user>/access.json} with its audit
   * and policies, the questions' facts from their SQL text.
   */
  private int accessTiers(PrintWriter stdout) {
    var parsed = spec.commandLine().getParseResult();
    for (String option : List.of("--spider", "--splits", "--tables", "--questions", "--split", "--grants", "--grants-from",
        "--grant-role", "--overrides")) {
      if (parsed.hasMatchedOption(option)) {
        throw new picocli.CommandLine.ParameterException(spec.commandLine(), option + " cannot be combined with --access-records:"
            + " the records carry their schemas and GRANTs");
      }
    }
    if (!policy.ruleSet().includes("grants")) { // the records' GRANTs are the policies
      throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--access-records is read only by profile grants,"
          + " not " + policy.profile + ": add --profile grants");
    }
    if (!parsed.hasMatchedOption("--out")) {
      throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--access-records needs --out DIR (data/ holds Spider's dataset)");
    }
    KieBase ruleBase = RuleBase.load(policy.ruleSet());
    List<AccessTiers.Tier> tiers = AccessTiers.of(AccessRecords.read(accessRecords), accessRecords.toString(), ruleBase);
    List<String> lines = new ArrayList<>();
    try (AtomicOutput output = new AtomicOutput(out)) {
      for (AccessTiers.Tier tier : tiers) {
        Path folder = out.resolve(tier.user());
        DatasetGenerator generator = new DatasetGenerator(
            new QuestionGenerator(new QuestionEngine(ruleBase), tier.schemas(), tier.policies(), QuestionGenerator.Facts.TEXT,
                ResultCheck.NONE),
            threads == null ? defaultThreads() : threads);
        try (BufferedWriter auditWriter = Files.newBufferedWriter(output.stage(AuditTrail.splitFile(folder, "access")))) {
          SplitSummary summary = generator.generate("access", tier.questions(), tier.places(),
              output.stage(folder.resolve("access.json")), auditWriter);
          lines.add(tier.user() + ": " + summary.line());
        }
        AuditTrail.writeRules(RuleBase.rules(ruleBase), output.stage(AuditTrail.rulesFile(folder)));
        DatasetGenerator.writePolicies(tier.policies(), folder, output);
      }
      output.commit();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    lines.forEach(stdout::println);
    stdout.printf(Locale.ROOT, "wrote %s/<user>/access.json, policies/, audit/ for %s%n", out,
        String.join(", ", tiers.stream().map(AccessTiers.Tier::user).toList()));
    return 0;
  }

  /** One worker thread per core. */
  static int defaultThreads() {
    return Runtime.getRuntime().availableProcessors();
  }

  private List<Split> resolveSplits() {
    Path spider = spiderFolder.spider;
    List<Split> result = new ArrayList<>();
    for (String name : splits) {
      Split split =
          switch (name.strip()) {
            case "train" -> new Split("train", List.of(spider.resolve("train_spider.json")), spider.resolve("tables.json"));
            case "dev" -> new Split("dev", List.of(spider.resolve("dev.json")), spider.resolve("tables.json"));
            case "test" -> new Split("test", List.of(spider.resolve("test.json")), spider.resolve("test_tables.json"));
            default -> throw new picocli.CommandLine.ParameterException(
                spec.commandLine(), "unknown split '" + name + "': use train, dev or test");
          };
      if (result.stream().anyMatch(s -> s.name().equals(split.name()))) {
        throw new picocli.CommandLine.ParameterException(
            spec.commandLine(), "split '" + split.name() + "' is named twice");
      }
      requireFiles(split);
      result.add(split);
    }
    return result;
  }

  /** The databases a rewrite that must keep the answer runs on: --db, else Spider's with --spider, else none. */
  private Path databaseFolder() {
    if (databases.dir != null) {
      if (!Files.isDirectory(databases.dir)) {
        throw new InputException(databases.dir + ": database folder not found");
      }
      return databases.dir;
    }
    Path spiderDatabases = spiderFolder.spider.resolve("database");
    return tables == null && Files.isDirectory(spiderDatabases) ? spiderDatabases : null;
  }

  /** The one split of --tables, --questions and --split, which go together and not with --spider. */
  private List<Split> explicitSplit() {
    var parsed = spec.commandLine().getParseResult();
    for (String option : List.of("--spider", "--splits")) {
      if (parsed.hasMatchedOption(option)) {
        throw new picocli.CommandLine.ParameterException(
            spec.commandLine(), option + " cannot be combined with --tables, --questions and --split");
      }
    }
    if (tables == null || questions == null || split == null) {
      throw new picocli.CommandLine.ParameterException(
          spec.commandLine(), "--tables, --questions and --split go together: all three are needed");
    }
    if (!parsed.hasMatchedOption("--out")) {
      // data/ holds Spider's dataset: another benchmark's policies/<db>.json could replace its files
      throw new picocli.CommandLine.ParameterException(
          spec.commandLine(), "--tables needs --out DIR, a folder for this benchmark (data/ holds Spider's dataset)");
    }
    if (!split.matches("[A-Za-z0-9_-]+")) {
      throw new picocli.CommandLine.ParameterException(
          spec.commandLine(), "--split '" + split + "': use letters, digits, '_' and '-' only");
    }
    if (questions.stream().distinct().count() != questions.size()) {
      throw new picocli.CommandLine.ParameterException(
          spec.commandLine(), "--questions names a file twice");
    }
    Split result = new Split(split, List.copyOf(questions), tables);
    requireFiles(result);
    return List.of(result);
  }

  private static void requireFiles(Split split) {
    List<Path> files = new ArrayList<>(split.questions());
    files.add(split.schemas());
    for (Path file : files) {
      InputException.requireFile(file, false, " (needed for split " + split.name() + ")");
    }
  }

  private QuestionGenerator.Facts factSource() {
    return switch (facts.strip().toLowerCase(Locale.ROOT)) {
      case "auto" -> QuestionGenerator.Facts.AUTO;
      case "text" -> QuestionGenerator.Facts.TEXT;
      default -> throw new picocli.CommandLine.ParameterException(
          spec.commandLine(), "--facts '" + facts + "': use auto or text");
    };
  }

  /** The union of the splits' schema files; a database in two files must agree. */
  private static Map<String, Schema> readSchemas(List<Split> wanted) {
    Map<String, Schema> schemas = new LinkedHashMap<>();
    for (Path file : wanted.stream().map(Split::schemas).distinct().sorted().toList()) {
      for (Schema schema : SchemaReader.read(file).values()) {
        Schema known = schemas.putIfAbsent(schema.dbId(), schema);
        if (known != null && !known.columns().equals(schema.columns())) {
          throw new InputException(file + ": database " + schema.dbId() + " differs from its earlier schema");
        }
      }
    }
    return schemas;
  }

  private ProgressBar progressBar(Split split) {
    boolean show = progress != null ? progress : System.console() != null;
    ProgressBarBuilder builder =
        new ProgressBarBuilder()
            .setTaskName(split.name())
            .setStyle(ProgressBarStyle.ASCII)
            .setUnit(" MB", 1 << 20)
            .setInitialMax(split.questions().stream().mapToLong(GenerateCommand::sizeOf).sum())
            .showSpeed();
    if (!show) {
      builder.setConsumer(new me.tongfei.progressbar.DelegatingProgressBarConsumer(line -> {}));
    }
    return builder.build();
  }

  private static long sizeOf(Path file) {
    try {
      return Files.size(file);
    } catch (IOException e) {
      throw new InputException(file + ": cannot read (" + InputException.reason(file, e) + ")", e);
    }
  }
}

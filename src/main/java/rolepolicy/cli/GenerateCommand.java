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
import rolepolicy.engine.RuleBase;
import rolepolicy.generate.AtomicOutput;
import rolepolicy.generate.DatasetGenerator;
import rolepolicy.generate.QuestionGenerator;
import rolepolicy.generate.SplitSummary;
import rolepolicy.model.PolicyOverride;
import rolepolicy.spider.InputException;
import rolepolicy.spider.Schema;
import rolepolicy.spider.SchemaReader;

/** Generates the policy dataset (SPEC §1–8) from Spider splits. */
@Command(
    name = "generate",
    mixinStandardHelpOptions = true,
    description = "Generate data/<split>.json and data/policies/<db_id>.json from Spider.")
public final class GenerateCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(
      names = "--spider",
      paramLabel = "DIR",
      description = "Spider folder with tables.json and the split files (default: ${DEFAULT-VALUE}, the bundled dev split).",
      defaultValue = "data/spider")
  Path spider;

  @Option(
      names = "--splits",
      paramLabel = "LIST",
      split = ",",
      description = "Splits to generate, any of train, dev, test (default: ${DEFAULT-VALUE}).",
      defaultValue = "dev")
  List<String> splits;

  @Option(
      names = "--out",
      paramLabel = "DIR",
      description = "Output folder (default: ${DEFAULT-VALUE}).",
      defaultValue = "data")
  Path out;

  @Mixin PolicyOptions policy;

  @Option(
      names = "--audit",
      paramLabel = "FILE",
      description = "Also write one JSON line per question with every rule that fired, in order.")
  Path audit;

  @Option(
      names = "--threads",
      paramLabel = "N",
      description = "Questions worked on at once; the output is the same for any N (default: the number of cores).")
  Integer threads;

  @Option(
      names = "--progress",
      negatable = true,
      description = "Show a progress bar (default: only on a terminal).")
  Boolean progress;

  /** A split name, its question file and its schema file in a Spider folder. */
  private record Split(String name, Path questions, Path schemas) {}

  @Override
  public Integer call() {
    PrintWriter stdout = spec.commandLine().getOut();
    if (threads != null && threads < 1) {
      throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--threads must be at least 1");
    }
    List<Split> wanted = resolveSplits();
    Map<String, Schema> schemas = readSchemas(wanted);
    List<PolicyOverride> overrideList = policy.readOverrides();

    long start = System.nanoTime();
    KieBase ruleBase = RuleBase.load(policy.rules);
    double ruleSeconds = (System.nanoTime() - start) / 1e9;
    Map<String, DatabasePolicies> policies =
        new PolicyAssigner(ruleBase)
            .assign(schemas, overrideList, policy.overridesSource());
    DatasetGenerator generator =
        new DatasetGenerator(
            new QuestionGenerator(new QuestionEngine(ruleBase), schemas, policies),
            threads == null ? defaultThreads() : threads);

    List<SplitSummary> summaries = new ArrayList<>();
    try (AtomicOutput output = new AtomicOutput();
        BufferedWriter auditWriter = audit == null ? null : Files.newBufferedWriter(output.stage(audit))) {
      for (Split split : wanted) {
        Path file = output.stage(out.resolve(split.name() + ".json"));
        try (ProgressBar bar = progressBar(split)) {
          summaries.add(
              generator.generate(split.name(), split.questions(), file, auditWriter, bar::stepTo));
        }
      }
      if (auditWriter != null) {
        auditWriter.flush();
      }
      DatasetGenerator.writePolicies(policies, out, output);
      output.commit();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    stdout.printf(Locale.ROOT, "rules: %d files compiled in %.2f s%n", RuleBase.ruleFiles(policy.rules).size(), ruleSeconds);
    summaries.forEach(s -> stdout.println(s.line()));
    stdout.printf(Locale.ROOT, "wrote %s%n", out.resolve("{" + String.join(",", splits) + "}.json and policies/"));
    return 0;
  }

  /** One worker thread per core. */
  static int defaultThreads() {
    return Runtime.getRuntime().availableProcessors();
  }

  private List<Split> resolveSplits() {
    List<Split> result = new ArrayList<>();
    for (String name : splits) {
      Split split =
          switch (name.strip()) {
            case "train" -> new Split("train", spider.resolve("train_spider.json"), spider.resolve("tables.json"));
            case "dev" -> new Split("dev", spider.resolve("dev.json"), spider.resolve("tables.json"));
            case "test" -> new Split("test", spider.resolve("test.json"), spider.resolve("test_tables.json"));
            default -> throw new picocli.CommandLine.ParameterException(
                spec.commandLine(), "unknown split '" + name + "': use train, dev or test");
          };
      if (result.stream().anyMatch(s -> s.name().equals(split.name()))) {
        throw new picocli.CommandLine.ParameterException(
            spec.commandLine(), "split '" + split.name() + "' is named twice");
      }
      for (Path file : List.of(split.questions(), split.schemas())) {
        if (!Files.isRegularFile(file)) {
          throw new InputException(file + ": file not found (needed for split " + split.name() + ")");
        }
      }
      result.add(split);
    }
    return result;
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
            .setInitialMax(sizeOf(split.questions()))
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
      throw new InputException(file + ": cannot read: " + e.getMessage(), e);
    }
  }
}

package rolepolicy.cli;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.kie.api.KieBase;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import rolepolicy.engine.RuleSet;
import rolepolicy.evaluate.Metrics;
import rolepolicy.io.Phases;
import rolepolicy.db.SqliteRunner;
import rolepolicy.engine.RuleBase;
import rolepolicy.evaluate.EvaluationCache;
import rolepolicy.evaluate.Evaluation;
import rolepolicy.evaluate.ExactMatchesAhead;
import rolepolicy.evaluate.Evaluator;
import rolepolicy.evaluate.GoldRecord;
import rolepolicy.evaluate.PredictionReader;
import rolepolicy.io.AtomicOutput;
import rolepolicy.io.OutputGuard;
import rolepolicy.io.InputException;
import rolepolicy.spider.SchemaReader;

/** Scores a model's predictions against a generated split (SPEC §9). */
@Command(
    name = "evaluate",
    mixinStandardHelpOptions = true,
    description = "Score predictions (SQL text or REFUSE) against a generated split.")
public final class EvaluateCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Mixin DatasetOption data;

  @Option(
      names = "--pred",
      required = true,
      paramLabel = "FILE",
      description = "Predictions: one per line in dataset order (SQL or REFUSE), or JSON Lines {\"id\", \"prediction\"}.")
  Path predictions;

  @Mixin TablesOption schemaFile;

  @Mixin DatabasesOption databases;

  @Option(names = "--out", paramLabel = "DIR", defaultValue = "results", description = "Output folder (default: ${DEFAULT-VALUE}).")
  Path out;

  @Mixin QueryTimeoutOption query;

  @Mixin RulesOption ruleFiles;

  @Option(names = "--threads", paramLabel = "N", description = "Threads that score questions (default: the number of cores).")
  @Range(min = 1)
  Integer threads;

  @Mixin CacheOptions caching;

  @Mixin ForceOption force;

  @Override
  public Integer call() {
    List<String> profiles = List.of(ruleFiles.profile.split(",", -1));
    if (!spec.commandLine().getParseResult().hasMatchedOption("--dataset")
        && !profiles.get(0).equals(RuleSet.DEFAULT_PROFILE)) {
      // the profile's own dataset, where generate --profile P writes it by default
      data.dataset = datasetOf(profiles.get(0), RuleSet.DEFAULT_PROFILE);
    }
    if (profiles.size() > 1) {
      return underEachProfile(profiles);
    }
    checkProfile(profiles.get(0), data.dataset);
    OutputGuard.current().checkFiles(out, Evaluation.METRICS, Evaluation.PER_QUESTION);
    if (databases.dir != null && !Files.isDirectory(databases.dir)) {
      throw new InputException(databases.dir + ": database folder not found");
    }
    Phases.mark("JVM start, picocli");
    Path cacheFolder = caching.folder();
    // the rules are compiled (or read from the cache) while the inputs are read
    CompletableFuture<KieBase> base = CompletableFuture.supplyAsync(() -> RuleBase.load(ruleFiles.ruleSet(), cacheFolder));
    if (databases.dir != null) {
      // SQLite's native library (extracted and loaded: 0.1-0.2 s) while the inputs are read
      CompletableFuture.runAsync(SqliteRunner::loadDriver);
    }
    List<GoldRecord> records = Evaluator.readDataset(data.dataset);
    // the cache's keys (digests of the input files) while the predictions and schemas are read
    CompletableFuture<EvaluationCache> keyed = CompletableFuture.supplyAsync(() ->
        cacheFolder == null ? null : new EvaluationCache(cacheFolder, data.dataset, schemaFile.tables, ruleFiles.ruleSet(), databases.dir, query.timeout, records));
    List<String> predicted = PredictionReader.read(predictions, records);
    Phases.mark("dataset and predictions read");
    var schemas = SchemaReader.read(schemaFile.tables);
    Phases.mark("tables.json read");
    // exact match needs no rules: the model's is worked out while they are built or read
    ExactMatchesAhead ahead = ExactMatchesAhead.start(schemas, records, predicted);
    EvaluationCache evaluationCache = join(keyed);
    Phases.mark("cache keys (file digests)");
    KieBase rulesBase = join(base);
    Phases.mark("rules built");
    Evaluation.Inputs settings = new Evaluation.Inputs(data.dataset.toString(), schemas, databases.dir, query.timeout, rulesBase);
    Evaluation.Outcome outcome = Evaluation.score(settings, records, predicted, predictions.toString(),
        threads != null ? threads : Runtime.getRuntime().availableProcessors(), evaluationCache, ahead);
    try (AtomicOutput output = new AtomicOutput()) {
      Evaluation.stage(output, out, outcome);
      output.commit();
    }
    Phases.mark("metrics.json, per_question.jsonl written");
    PrintWriter w = spec.commandLine().getOut();
    MetricsTable.print(w, outcome.metrics());
    w.println("wrote " + out.resolve(Evaluation.METRICS) + " and " + out.resolve(Evaluation.PER_QUESTION));
    Phases.mark("table printed");
    Phases.printSums();
    return 0;
  }

  /**
   * {@code --profile A,B,...}: the predictions scored under each profile, against that profile's
   * dataset ({@code --dataset} for the first; for another, the file of the same name in the folder
   * {@code generate --profile P} writes by default: {@code data/dev.json} gives {@code data/P/dev.json}),
   * written to {@code OUT/P/}, and the model's figures printed side by side.
   */
  private int underEachProfile(List<String> profiles) {
    if (databases.dir != null && !Files.isDirectory(databases.dir)) {
      throw new InputException(databases.dir + ": database folder not found");
    }
    if (profiles.size() != new java.util.HashSet<>(profiles).size()) {
      throw new InputException("--profile " + ruleFiles.profile + ": a profile is named twice");
    }
    // every profile's dataset and output are checked before any is scored
    Map<String, Path> datasets = new LinkedHashMap<>();
    for (String profile : profiles) {
      new RuleSet(ruleFiles.rules, profile).files();
      datasets.put(profile, profile.equals(profiles.get(0)) ? data.dataset : datasetOf(profile, profiles.get(0)));
      checkProfile(profile, datasets.get(profile));
      OutputGuard.current().checkFiles(out.resolve(profile), Evaluation.METRICS, Evaluation.PER_QUESTION);
    }
    var schemas = SchemaReader.read(schemaFile.tables);
    Map<String, Evaluation.Outcome> outcomes = new LinkedHashMap<>();
    for (String profile : profiles) {
      RuleSet rules = new RuleSet(ruleFiles.rules, profile);
      Path dataset = datasets.get(profile);
      List<GoldRecord> records = Evaluator.readDataset(dataset);
      List<String> predicted = PredictionReader.read(predictions, records);
      Path cacheFolder = caching.folder();
      EvaluationCache cache = cacheFolder == null ? null
          : new EvaluationCache(cacheFolder, dataset, schemaFile.tables, rules, databases.dir, query.timeout, records);
      Evaluation.Inputs settings = new Evaluation.Inputs(dataset.toString(), schemas, databases.dir, query.timeout,
          RuleBase.load(rules, cacheFolder));
      outcomes.put(profile, Evaluation.score(settings, records, predicted, predictions.toString(),
          threads != null ? threads : Runtime.getRuntime().availableProcessors(), cache,
          ExactMatchesAhead.start(schemas, records, predicted)));
    }
    try (AtomicOutput output = new AtomicOutput()) {
      outcomes.forEach((profile, outcome) -> Evaluation.stage(output, out.resolve(profile), outcome));
      output.commit();
    }
    Map<String, Metrics> byProfile = new LinkedHashMap<>();
    outcomes.forEach((profile, outcome) ->
        byProfile.put(profile, outcome.metrics().predictors().values().iterator().next()));
    Evaluation.MetricsFile first = outcomes.values().iterator().next().metrics();
    PrintWriter w = spec.commandLine().getOut();
    w.println("the predictions of " + predictions + " under each profile:");
    MetricsTable.print(w, new Evaluation.MetricsFile(first.dataset(), first.predictions(), first.execution(),
        first.notComputed(), byProfile));
    w.println("wrote " + String.join(", ", profiles.stream().map(p -> out.resolve(p) + "/").toList()));
    return 0;
  }

  /**
   * The dataset of {@code profile} where {@code generate} writes it by default, beside {@code
   * --dataset}, the first profile's: spec-v1's in DIR ({@code data/dev.json}), another's in DIR/P
   * ({@code data/strict/dev.json}).
   */
  private Path datasetOf(String profile, String first) {
    Path name = data.dataset.getFileName();
    Path base = folderOf(data.dataset);
    if (!first.equals(RuleSet.DEFAULT_PROFILE)) {
      base = folderOf(base);
    }
    Path shown = profile.equals(RuleSet.DEFAULT_PROFILE) ? base.resolve(name) : base.resolve(profile).resolve(name);
    Path dataset = shown;
    if (!Files.isRegularFile(dataset)) {
      throw new InputException(shown + ": no dataset of profile " + profile + " (generate --profile " + profile
          + " writes it there by default)");
    }
    return shown;
  }

  /** Refuses a dataset whose folder records another profile than the one it is scored under. */
  private void checkProfile(String profile, Path dataset) {
    String made = rolepolicy.generate.DatasetProfile.of(dataset);
    if (!made.equals(profile)) {
      throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--profile " + profile + ": " + dataset
          + " was generated under profile " + made + " (" + (made.equals(RuleSet.DEFAULT_PROFILE)
              ? "its folder has no " : "its ") + rolepolicy.generate.DatasetProfile.FILE
          + "); give --dataset a split of profile " + profile + " (generate --profile " + profile + " writes data/"
          + profile + "/)");
    }
  }

  private static Path folderOf(Path path) {
    return path.getParent() == null ? Path.of("") : path.getParent();
  }

  /** The value of a task run in the background; its failure as thrown there. */
  private static <T> T join(CompletableFuture<T> task) {
    try {
      return task.join();
    } catch (CompletionException e) {
      throw e.getCause() instanceof RuntimeException r ? r : e;
    }
  }
}

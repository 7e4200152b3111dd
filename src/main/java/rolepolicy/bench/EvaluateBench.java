package rolepolicy.bench;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import rolepolicy.engine.RuleSet;
import rolepolicy.io.DatasetWriter;
import rolepolicy.io.OwnedFolder;
import rolepolicy.io.RunTemp;
import rolepolicy.io.InputException;
import rolepolicy.io.JsonFiles;

/**
 * Times {@code evaluate} as a user runs it: whole cold processes through {@code bin/rolepolicy},
 * with the cache empty (the first run, or the first after a rule edit) and with the cache warm (every
 * run after), interleaved with a plain baseline measured in the same rounds: {@code bin/exec-floor.py},
 * which runs the gold and the predicted SQL of the same questions on the same SQLite files and
 * compares the results (the floor of any execution-match evaluation), and the launcher's JVM start
 * ({@code bin/rolepolicy --version}). Medians with min and max; the ratio of each run to the floor
 * run of its round. Method and figures: docs/benchmark.md.
 */
public final class EvaluateBench {
  /** What to time. {@code predictions} null: made from the split ({@link #predictions}). */
  /**
   * What to time. {@code predictions} null: made from the split ({@link #predictions}). {@code spiderScript}
   * null: Spider's evaluation.py is not run; else its folder, run through {@code scriptLauncher}.
   */
  public record Plan(Path dataset, Path tables, Path databases, RuleSet rules, Path predictions, Path launcher,
      Path floorScript, Path before, int runs, Path work, Path spiderScript, Path scriptLauncher) {}

  /**
   * The files Spider's evaluation.py reads: gold lines "SQL\tdb_id" and prediction lines; of them, how many
   * evaluate's em_script counts as exact matches.
   */
  public record ScriptInput(List<String> gold, List<String> predictions, int matched) {}

  private final Plan settings;
  private PrintWriter out;
  private int scriptQuestions;

  public EvaluateBench(Plan settings) {
    this.settings = settings;
  }

  /**
   * Realistic predictions for a split, one line per record: the original SQL, except every fifth
   * question (from the second) refused and every seventh (from the third) its first negative example
   * (a policy violation), when it has one.
   */
  public static List<String> predictions(JsonNode records) {
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < records.size(); i++) {
      JsonNode r = records.get(i);
      JsonNode negative = r.path("negative_examples").path(0).path("sql");
      String sql = i % 5 == 1 ? "REFUSE" : i % 7 == 2 && negative.isTextual() ? negative.asText() : r.path("original_sql").asText();
      lines.add(sql.strip().replaceAll("\\s+", " "));
    }
    return lines;
  }

  /**
   * What Spider's evaluation.py is given: the questions it can score, those whose gold label is SQL its
   * parser accepts ({@code em_script} not null in evaluate's own per_question.jsonl: the script stops at
   * any other gold), with a prediction line that is not blank (the script skips blank lines) and no tab
   * or line break in the gold SQL (the script's line format). Predictions go as they are, REFUSE
   * included: the script reads the word as a query its parser rejects, as {@code em_script} does.
   */
  public static ScriptInput scriptInput(JsonNode records, List<String> predictions, List<JsonNode> perQuestion) {
    List<String> gold = new ArrayList<>();
    List<String> predicted = new ArrayList<>();
    int matched = 0;
    for (int i = 0; i < records.size(); i++) {
      JsonNode label = records.get(i).path("gold_label");
      String sql = label.path("sql").asText();
      if (perQuestion.get(i).path("em_script").isBoolean() && label.path("type").asText().equals("SQL")
          && !predictions.get(i).isBlank() && sql.chars().noneMatch(c -> c == '\t' || c == '\r' || c == '\n')) {
        gold.add(sql + "\t" + records.get(i).path("db_id").asText());
        predicted.add(predictions.get(i));
        matched += perQuestion.get(i).path("em_script").asBoolean() ? 1 : 0;
      }
    }
    return new ScriptInput(gold, predicted, matched);
  }

  /** Runs the benchmark; 0, or 1 when the runs' outputs differ. */
  public int run(PrintWriter out) throws Exception {
    this.out = out;
    for (Path p : List.of(settings.dataset(), settings.tables(), settings.launcher(), settings.floorScript())) {
      if (!Files.exists(p)) {
        throw new InputException(p + ": not found");
      }
    }
    if (settings.spiderScript() != null) {
      for (Path p : List.of(settings.spiderScript().resolve("evaluation.py"), settings.spiderScript().resolve("process_sql.py"),
          settings.scriptLauncher())) {
        if (!Files.isRegularFile(p)) {
          throw new InputException(p + ": not found");
        }
      }
    }
    if (!Files.isDirectory(settings.databases())) {
      throw new InputException(settings.databases() + ": database folder not found");
    }
    boolean temporary = settings.work() == null;
    Path dir = temporary ? RunTemp.systemFolder("rolepolicy-bench-evaluate") : OwnedFolder.claim(settings.work(), "bench-evaluate", "--work");
    try {
      return bench(dir.toAbsolutePath());
    } finally {
      if (temporary) {
        RunTemp.release(dir);
      }
    }
  }

  private int bench(Path dir) throws Exception {
    // the questions of databases with a SQLite file (Spider dev: all but wta_1's)
    JsonNode all = JsonFiles.readArray(settings.dataset(), "dataset records");
    var kept = DatasetWriter.JSON.createArrayNode();
    List<String> given = settings.predictions() == null ? null : Files.readAllLines(settings.predictions());
    if (given != null && given.size() != all.size()) {
      throw new InputException(settings.predictions() + ": " + given.size() + " lines for " + all.size() + " records");
    }
    List<String> predictions = new ArrayList<>();
    for (int i = 0; i < all.size(); i++) {
      String db = all.get(i).path("db_id").asText();
      if (Files.isRegularFile(settings.databases().resolve(db).resolve(db + ".sqlite"))) {
        kept.add(all.get(i));
        if (given != null) {
          predictions.add(given.get(i));
        }
      }
    }
    if (given == null) {
      predictions = predictions(kept);
    }
    Path split = dir.resolve("split.json");
    DatasetWriter.JSON.writeValue(split.toFile(), kept);
    Path pred = dir.resolve("predictions.txt");
    Files.write(pred, predictions);
    out.printf(Locale.ROOT, "machine: %d cores, %s RAM, %s %s; load average %.2f at start%n",
        Runtime.getRuntime().availableProcessors(), GenerateBench.totalMemory(), System.getProperty("java.vm.name"),
        System.getProperty("java.runtime.version"), GenerateBench.loadAverage());
    out.printf(Locale.ROOT, "input: %s, the %,d of %,d questions whose database has a SQLite file; predictions: %s%n%n",
        settings.dataset(), kept.size(), all.size(),
        settings.predictions() != null ? settings.predictions() + " (the same questions)"
            : "original SQL, every 5th REFUSE, every 7th a negative example");

    String launcher = settings.launcher().toAbsolutePath().toString();
    List<String> evaluate = List.of(launcher, "evaluate", "--dataset", split.toString(), "--pred", pred.toString(),
        "--tables", settings.tables().toAbsolutePath().toString(), "--db", settings.databases().toAbsolutePath().toString(),
        "--rules", settings.rules().folder().toAbsolutePath().toString(), "--profile", settings.rules().profile());
    List<String> floor = List.of("python3", settings.floorScript().toAbsolutePath().toString(), split.toString(), pred.toString(),
        settings.databases().toAbsolutePath().toString());
    Path warmCache = dir.resolve("cache-warm");
    // one untimed run fills the warm cache (and the page cache with the files)
    Path reference = dir.resolve("out-reference");
    GenerateBench.child(dir, concat(evaluate, "--cache", warmCache.toString(), "--out", reference.toString()));
    GenerateBench.child(dir, floor);
    List<String> script = settings.spiderScript() == null ? null : spiderScript(dir, kept, predictions, reference);


    List<Double> cold = new ArrayList<>();
    List<Double> warm = new ArrayList<>();
    List<Double> base = new ArrayList<>();
    List<Double> start = new ArrayList<>();
    List<Double> before = new ArrayList<>();
    List<Double> coldRatio = new ArrayList<>();
    List<Double> warmRatio = new ArrayList<>();
    List<Double> beforeRatio = new ArrayList<>();
    List<Double> coldToBefore = new ArrayList<>();
    List<Double> warmToBefore = new ArrayList<>();
    List<Double> spider = new ArrayList<>();
    List<Double> coldToSpider = new ArrayList<>();
    List<Double> warmToSpider = new ArrayList<>();
    boolean same = true;
    for (int i = 0; i < settings.runs(); i++) {
      Path coldCache = dir.resolve("cache-cold-" + i);
      Path coldOut = dir.resolve("out-cold-" + i);
      Path warmOut = dir.resolve("out-warm-" + i);
      double f = GenerateBench.child(dir, floor).seconds();
      double s = script == null ? Double.NaN : GenerateBench.child(dir, script).seconds();
      double c = GenerateBench.child(dir, concat(evaluate, "--cache", coldCache.toString(), "--out", coldOut.toString())).seconds();
      double w = GenerateBench.child(dir, concat(evaluate, "--cache", warmCache.toString(), "--out", warmOut.toString())).seconds();
      start.add(GenerateBench.child(dir, List.of(launcher, "--version")).seconds());
      base.add(f);
      cold.add(c);
      warm.add(w);
      coldRatio.add(c / f);
      warmRatio.add(w / f);
      if (script != null) {
        spider.add(s);
        coldToSpider.add(c / s);
        warmToSpider.add(w / s);
      }
      if (settings.before() != null) {
        Path beforeOut = dir.resolve("out-before-" + i);
        List<String> old = new ArrayList<>(evaluate);
        old.set(0, settings.before().resolve("bin").resolve("rolepolicy").toAbsolutePath().toString());
        double b = GenerateBench.child(dir, concat(old, "--out", beforeOut.toString())).seconds();
        before.add(b);
        beforeRatio.add(b / f);
        coldToBefore.add(c / b);
        warmToBefore.add(w / b);
        same &= sameOutput(reference, beforeOut, "the earlier build, run " + (i + 1));
        GenerateBench.delete(beforeOut);
      }
      same &= sameOutput(reference, coldOut, "cache cold, run " + (i + 1));
      same &= sameOutput(reference, warmOut, "cache warm, run " + (i + 1));
      GenerateBench.delete(coldCache);
      GenerateBench.delete(coldOut);
      GenerateBench.delete(warmOut);
    }
    out.printf(Locale.ROOT, "cold processes, interleaved, %d rounds:%n", settings.runs());
    out.printf(Locale.ROOT, "  baseline: python3 bin/exec-floor.py (gold and predicted SQL run on read-only SQLite, results compared)%n");
    out.printf(Locale.ROOT, "    wall                  %s%n", Spread.of(base).format("s", "%.2f"));
    if (script != null) {
      out.printf(Locale.ROOT, "  Spider's script: python3 bin/spider-script.py %s --etype all (evaluation.py, the %,d questions it can score)%n",
          settings.spiderScript(), scriptQuestions);
      out.printf(Locale.ROOT, "    wall                  %s%n", Spread.of(spider).format("s", "%.2f"));
    }
    out.printf(Locale.ROOT, "  JVM start: bin/rolepolicy --version%n");
    out.printf(Locale.ROOT, "    wall                  %s%n", Spread.of(start).format("s", "%.2f"));
    out.printf(Locale.ROOT, "  bin/rolepolicy evaluate, cache cold (an empty --cache folder: rules compiled, gold and references computed)%n");
    out.printf(Locale.ROOT, "    wall                  %s%n", Spread.of(cold).format("s", "%.2f"));
    out.printf(Locale.ROOT, "    / baseline            %s%n", Spread.of(coldRatio).format("x", "%.2f"));
    out.printf(Locale.ROOT, "  bin/rolepolicy evaluate, cache warm (rules, gold results and reference figures read from the cache)%n");
    out.printf(Locale.ROOT, "    wall                  %s%n", Spread.of(warm).format("s", "%.2f"));
    out.printf(Locale.ROOT, "    / baseline            %s%n", Spread.of(warmRatio).format("x", "%.2f"));
    if (script != null) {
      out.printf(Locale.ROOT, "  cache cold / Spider's script, same round  %s%n", Spread.of(coldToSpider).format("x", "%.2f"));
      out.printf(Locale.ROOT, "  cache warm / Spider's script, same round  %s%n", Spread.of(warmToSpider).format("x", "%.2f"));
    }
    if (settings.before() != null) {
      out.printf(Locale.ROOT, "  earlier build: %s/bin/rolepolicy evaluate%n", settings.before());
      out.printf(Locale.ROOT, "    wall                  %s%n", Spread.of(before).format("s", "%.2f"));
      out.printf(Locale.ROOT, "    / baseline            %s%n", Spread.of(beforeRatio).format("x", "%.2f"));
      out.printf(Locale.ROOT, "  cache cold / earlier build, same round  %s%n", Spread.of(coldToBefore).format("x", "%.2f"));
      out.printf(Locale.ROOT, "  cache warm / earlier build, same round  %s%n", Spread.of(warmToBefore).format("x", "%.2f"));
    }
    out.println(same ? "metrics.json and per_question.jsonl: the same bytes in every run" : "the outputs differ: see above");
    out.printf(Locale.ROOT, "load average %.2f at the end%n", GenerateBench.loadAverage());
    return same ? 0 : 1;
  }

  /**
   * Writes what Spider's script can score ({@link #scriptInput}), runs it once untimed, and checks that
   * its exact-match accuracy is evaluate's em_script on the same questions; the command to time.
   */
  private List<String> spiderScript(Path dir, JsonNode kept, List<String> predictions, Path reference) throws Exception {
    List<JsonNode> perQuestion = new ArrayList<>();
    for (String line : Files.readAllLines(reference.resolve("per_question.jsonl"))) {
      perQuestion.add(DatasetWriter.JSON.readTree(line));
    }
    ScriptInput input = scriptInput(kept, predictions, perQuestion);
    if (input.gold().isEmpty()) {
      throw new InputException("no question Spider's script can score (gold SQL its parser accepts)");
    }
    Path gold = dir.resolve("script-gold.txt");
    Path pred = dir.resolve("script-pred.txt");
    Files.write(gold, input.gold());
    Files.write(pred, input.predictions());
    List<String> command = List.of("python3", settings.scriptLauncher().toAbsolutePath().toString(),
        settings.spiderScript().toAbsolutePath().toString(), "--gold", gold.toString(), "--pred", pred.toString(),
        "--db", settings.databases().toAbsolutePath().toString(), "--table", settings.tables().toAbsolutePath().toString(),
        "--etype", "all");
    String printed = GenerateBench.child(dir, command).stdout();
    String ours = String.format(Locale.ROOT, "%.3f", (double) input.matched() / input.gold().size());
    Matcher m = Pattern.compile("(?m)^exact match\\s+(?:\\S+\\s+){4}(\\S+)").matcher(printed);
    String theirs = m.find() ? m.group(1) : "none";
    if (!theirs.equals(ours)) {
      throw new IllegalStateException("Spider's script: exact match " + theirs + " over " + input.gold().size()
          + " questions, evaluate's em_script " + ours + ": not the same questions");
    }
    scriptQuestions = input.gold().size();
    return command;
  }

  private boolean sameOutput(Path reference, Path run, String what) throws IOException {
    boolean same = true;
    for (String file : List.of("metrics.json", "per_question.jsonl")) {
      byte[] a = Files.readAllBytes(reference.resolve(file));
      byte[] b = Files.readAllBytes(run.resolve(file));
      if (!Arrays.equals(a, b)) {
        out.printf(Locale.ROOT, "DIFFERS  %s: %s%n", file, what);
        same = false;
      }
    }
    return same;
  }

  private static List<String> concat(List<String> command, String... more) {
    List<String> all = new ArrayList<>(command);
    all.addAll(List.of(more));
    return all;
  }
}

package rolepolicy.bench;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import rolepolicy.casebank.CaseBank;
import rolepolicy.casebank.SchemaStyle;
import rolepolicy.engine.RuleBase;
import rolepolicy.engine.RuleSet;
import rolepolicy.evaluate.Evaluation;
import rolepolicy.evaluate.Evaluator;
import rolepolicy.evaluate.GoldRecord;
import rolepolicy.evaluate.PredictionReader;
import rolepolicy.io.AtomicOutput;
import rolepolicy.io.OwnedFolder;
import rolepolicy.io.RunTemp;
import rolepolicy.llm.ChatEndpoint;
import rolepolicy.run.RecordedModel;
import rolepolicy.run.ModelRun;
import rolepolicy.spider.SchemaReader;

/**
 * {@code run}'s own cost per question: a run against a local endpoint that answers at once (each
 * question's original SQL), next to {@code evaluate}'s work on the same predictions, in the same JVM,
 * interleaved; medians over the repeats. Each repeat times four things: a run in a new folder; evaluate;
 * a run in a new folder holding the first run's prompts (reused: no retrieval, every request sent); and
 * a rerun in the first run's folder (every prompt and answer reused). The warm-up run computes the
 * questions' embeddings and the cases' skeletons into a cache folder of its own, which the timed runs
 * read, as every run after a split's first does.
 */
public final class RunOverhead {
  /** What to time. */
  public record Plan(Path dataset, Path tables, Path bank, Path template, CaseBank.Method policy, int k, Path databases,
      RuleSet rules, int parallel, int repeats, Integer limit, SchemaStyle schemaStyle) {}

  /**
   * The medians, in seconds: the run and its phases (asking: the questions' prompts and requests;
   * prompts: their building summed over the workers), evaluate, the run with its prompts reused, the
   * rerun; the overhead per question in milliseconds: run minus evaluate, the same with the prompts
   * reused, and the warm-up's; and the same two overheads in the process's CPU time (all its threads:
   * the endpoint's too), which a loaded machine sways less.
   */
  public record Figures(int questions, double run, double evaluate, double asking, double prompts, double runsEvaluation,
      double writing, double reusedPrompts, double rerun, double overheadMillis, double overheadReusedMillis,
      double firstRunOverheadMillis, double cpuOverheadMillis, double cpuOverheadReusedMillis) {}

  private final Plan settings;

  public RunOverhead(Plan settings) {
    this.settings = settings;
  }

  /** Wall and process CPU seconds of one piece of work. */
  private record Took(double wall, double cpu) {}

  private static final com.sun.management.OperatingSystemMXBean SYSTEM =
      (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean();

  private static Took time(Runnable work) {
    long cpu = SYSTEM.getProcessCpuTime();
    long wall = System.nanoTime();
    work.run();
    return new Took((System.nanoTime() - wall) / 1e9, (SYSTEM.getProcessCpuTime() - cpu) / 1e9);
  }

  /** One warm-up repeat, then {@code repeats} timed ones; {@code progress} gets a line for each. */
  public Figures measure(PrintWriter progress) {
    List<GoldRecord> records = Evaluator.readDataset(settings.dataset());
    List<String> answers = records.stream().map(r -> "```sql\n" + r.originalSql() + "\n```").toList();
    // run, evaluate, questions, prompts, run's evaluation, writing, run with its prompts reused, rerun; CPU: run, evaluate, reused
    List<double[]> repeats = new ArrayList<>();
    int questions = 0;
    double firstRun = 0; // the warm-up: embeddings and skeletons computed, as in a split's first run
    Path work;
    try {
      work = RunTemp.systemFolder("rolepolicy-bench-run");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    try (RecordedModel server = new RecordedModel(records, answers, 0)) {
      ChatEndpoint endpoint = new ChatEndpoint(new ChatEndpoint.Connection(server.baseUrl(), "instant", null, 30, 0), Map.of());
      for (int i = 0; i <= settings.repeats(); i++) {
        Path out = work.resolve("run-" + i);
        Path reused = work.resolve("reused-" + i);
        Path evaluated = work.resolve("evaluate-" + i);
        ModelRun.Summary[] s = new ModelRun.Summary[3];
        Took run = time(() -> s[0] = run(endpoint, out, work));
        questions = s[0].questions();
        int n = questions;
        Took evaluate = time(() -> evaluate(out.resolve(ModelRun.PREDICTIONS), evaluated, n));
        Files.createDirectories(reused);
        for (String file : List.of(ModelRun.PROMPTS, ModelRun.RUN)) {
          Files.copy(out.resolve(file), reused.resolve(file));
          OwnedFolder.recordWritten(List.of(reused.resolve(file))); // as run wrote them
        }
        Took withPrompts = time(() -> s[1] = run(endpoint, reused, work));
        Took rerun = time(() -> s[2] = run(endpoint, out, work));
        if (s[1].promptsBuilt() > 0 || s[2].promptsBuilt() > 0 || s[2].spent().requests() > 0) {
          throw new IllegalStateException("the runs after the first built prompts or sent requests again");
        }
        ModelRun.Timing t = s[0].timing();
        if (i == 0) {
          firstRun = (run.wall() - evaluate.wall()) / n * 1000;
        } else {
          repeats.add(new double[] {run.wall(), evaluate.wall(), t.questions(), t.prompts(), t.evaluation(), t.writing(),
              withPrompts.wall(), rerun.wall(), run.cpu(), evaluate.cpu(), withPrompts.cpu()});
        }
        progress.printf(java.util.Locale.ROOT, "%s: run %.2f s (questions %.2f, prompts %.2f, evaluation %.2f), evaluate %.2f s,"
            + " prompts reused %.2f s, rerun %.2f s; CPU: run %.2f s, evaluate %.2f s, prompts reused %.2f s%n",
            i == 0 ? "warm-up" : "repeat " + i, run.wall(), t.questions(), t.prompts(), t.evaluation(), evaluate.wall(),
            withPrompts.wall(), rerun.wall(), run.cpu(), evaluate.cpu(), withPrompts.cpu());
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      RunTemp.release(work);
    }
    int n = questions;
    return new Figures(n, median(repeats, p -> p[0]), median(repeats, p -> p[1]), median(repeats, p -> p[2]),
        median(repeats, p -> p[3]), median(repeats, p -> p[4]), median(repeats, p -> p[5]), median(repeats, p -> p[6]),
        median(repeats, p -> p[7]), median(repeats, p -> (p[0] - p[1]) / n * 1000), median(repeats, p -> (p[6] - p[1]) / n * 1000),
        firstRun, median(repeats, p -> (p[8] - p[9]) / n * 1000), median(repeats, p -> (p[10] - p[9]) / n * 1000));
  }

  /** {@code run} into a folder, its cache the benchmark's own. */
  private ModelRun.Summary run(ChatEndpoint endpoint, Path out, Path work) {
    return new ModelRun(new ModelRun.Configuration(settings.dataset(), settings.tables(), settings.bank(), settings.template(),
        settings.policy(), settings.k(), settings.databases(), 30, settings.rules(), out, settings.parallel(), settings.limit(), false,
        null, rolepolicy.run.Accounting.Prices.NONE, work.resolve("cache"), settings.schemaStyle()), endpoint, new PrintWriter(new StringWriter())).run();
  }

  /** evaluate's work on a predictions file: read the split and schemas, score, write its two files. */
  private void evaluate(Path predictions, Path out, int questions) {
    List<GoldRecord> records = Evaluator.readDataset(settings.dataset()).subList(0, questions);
    List<String> predicted = PredictionReader.read(predictions, records);
    Evaluation.Outcome outcome = Evaluation.score(new Evaluation.Inputs(settings.dataset().toString(),
        SchemaReader.read(settings.tables()), settings.databases(), 30, RuleBase.load(settings.rules())), records, predicted,
        predictions.toString());
    try (AtomicOutput output = new AtomicOutput()) {
      Evaluation.stage(output, out, outcome);
      output.commit();
    }
  }

  private static double median(List<double[]> pairs, java.util.function.ToDoubleFunction<double[]> value) {
    double[] v = pairs.stream().mapToDouble(value).sorted().toArray();
    return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
  }
}

package rolepolicy.bench;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import rolepolicy.casebank.CaseBank;
import rolepolicy.engine.RuleBase;
import rolepolicy.evaluate.Evaluation;
import rolepolicy.evaluate.Evaluator;
import rolepolicy.evaluate.GoldRecord;
import rolepolicy.evaluate.PredictionReader;
import rolepolicy.generate.AtomicOutput;
import rolepolicy.llm.ChatEndpoint;
import rolepolicy.run.RecordedModel;
import rolepolicy.run.ModelRun;
import rolepolicy.spider.SchemaReader;

/**
 * {@code run}'s own cost per question: a run against a local endpoint that answers at once (each
 * question's original SQL), next to {@code evaluate}'s work on the same predictions, in the same JVM,
 * the two interleaved; medians over the repeats. The warm-up run computes the questions' embeddings
 * into a cache folder of its own, which the timed runs read, as every run after a split's first does.
 */
public final class RunOverhead {
  /** What to time. */
  public record Settings(Path dataset, Path tables, Path bank, Path template, CaseBank.Policy policy, int k, Path databases,
      Path rules, int parallel, int repeats, Integer limit) {}

  /**
   * The medians, in seconds, and the overhead per question in milliseconds: run minus evaluate, with
   * and without the prompts' retrieval.
   */
  public record Figures(int questions, double run, double evaluate, double prompts, double requests, double runsEvaluation,
      double writing, double overheadMillis, double overheadWithoutPromptsMillis, double firstRunOverheadMillis) {}

  private final Settings settings;

  public RunOverhead(Settings settings) {
    this.settings = settings;
  }

  /** One warm-up pair, then {@code repeats} timed pairs; {@code progress} gets a line per pair. */
  public Figures measure(PrintWriter progress) {
    List<GoldRecord> records = Evaluator.readDataset(settings.dataset());
    List<String> answers = records.stream().map(r -> "```sql\n" + r.originalSql() + "\n```").toList();
    List<double[]> pairs = new ArrayList<>(); // run, evaluate, prompts, requests, run's evaluation, writing
    int questions = 0;
    double firstRun = 0; // the warm-up: the questions' embeddings computed, as in a split's first run
    Path work;
    try {
      work = Files.createTempDirectory("rolepolicy-bench-run");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    try (RecordedModel server = new RecordedModel(records, answers, 0)) {
      ChatEndpoint endpoint = new ChatEndpoint(new ChatEndpoint.Settings(server.baseUrl(), "instant", null, 30, 0), Map.of());
      for (int i = 0; i <= settings.repeats(); i++) {
        Path out = work.resolve("run-" + i);
        long start = System.nanoTime();
        ModelRun run = new ModelRun(new ModelRun.Settings(settings.dataset(), settings.tables(), settings.bank(), settings.template(),
            settings.policy(), settings.k(), settings.databases(), 30, settings.rules(), out, settings.parallel(), settings.limit(), false,
            work.resolve("embeddings")),
            endpoint, new PrintWriter(new StringWriter()));
        ModelRun.Summary s = run.run();
        double runSeconds = (System.nanoTime() - start) / 1e9;
        questions = s.questions();
        double evaluateSeconds = evaluate(out.resolve(ModelRun.PREDICTIONS), work.resolve("evaluate-" + i), questions);
        if (i == 0) {
          firstRun = (runSeconds - evaluateSeconds) / s.questions() * 1000;
        } else {
          pairs.add(new double[] {runSeconds, evaluateSeconds, s.timing().prompts(), s.timing().requests(),
              s.timing().evaluation(), s.timing().writing()});
        }
        progress.printf(java.util.Locale.ROOT, "%s: run %.2f s (prompts %.2f, requests %.2f, evaluation %.2f), evaluate %.2f s%n",
            i == 0 ? "warm-up" : "repeat " + i, runSeconds, s.timing().prompts(), s.timing().requests(), s.timing().evaluation(),
            evaluateSeconds);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      delete(work);
    }
    int n = questions;
    return new Figures(n, median(pairs, p -> p[0]), median(pairs, p -> p[1]), median(pairs, p -> p[2]), median(pairs, p -> p[3]),
        median(pairs, p -> p[4]), median(pairs, p -> p[5]), median(pairs, p -> (p[0] - p[1]) / n * 1000),
        median(pairs, p -> (p[0] - p[2] - p[1]) / n * 1000), firstRun);
  }

  /** evaluate's work on a predictions file: read the split and schemas, score, write its two files. */
  private double evaluate(Path predictions, Path out, int questions) {
    long start = System.nanoTime();
    List<GoldRecord> records = Evaluator.readDataset(settings.dataset()).subList(0, questions);
    List<String> predicted = PredictionReader.read(predictions, records);
    Evaluation.Outcome outcome = Evaluation.score(new Evaluation.Settings(settings.dataset().toString(),
        SchemaReader.read(settings.tables()), settings.databases(), 30, RuleBase.load(settings.rules())), records, predicted,
        predictions.toString());
    try (AtomicOutput output = new AtomicOutput()) {
      Evaluation.stage(output, out, outcome);
      output.commit();
    }
    return (System.nanoTime() - start) / 1e9;
  }

  private static double median(List<double[]> pairs, java.util.function.ToDoubleFunction<double[]> value) {
    double[] v = pairs.stream().mapToDouble(value).sorted().toArray();
    return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
  }

  private static void delete(Path dir) {
    try (Stream<Path> all = Files.walk(dir)) {
      for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      // a temporary folder: the system clears it
    }
  }
}

package rolepolicy.cli;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import rolepolicy.llm.ChatEndpoint;
import rolepolicy.io.InputException;
import rolepolicy.llm.PromptTemplate;
import rolepolicy.tablescore.CellJudge;
import rolepolicy.tablescore.KeyColumns;
import rolepolicy.tablescore.LlmJudge;
import rolepolicy.tablescore.NormalisingJudge;
import rolepolicy.tablescore.Readings;
import rolepolicy.tablescore.QueryOutcome;
import rolepolicy.tablescore.Summary;
import rolepolicy.tablescore.UdaBench;

/** Column-level precision, recall and F1 of a system's result tables on UDA-Bench. */
@Command(
    name = "score-tables",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = "Score result tables (result.csv per query) against UDA-Bench's ground truth, column by column.")
public final class ScoreTablesCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(names = "--uda", paramLabel = "DIR", defaultValue = "../shared/uda-bench/Query",
      description = "UDA-Bench Query folder: <Dataset>/<Category>/*.sql, the CSVs, <Dataset>_attributes.json (default: ${DEFAULT-VALUE}).")
  Path root;

  @Option(names = "--datasets", paramLabel = "LIST", split = ",", description = "Datasets to score (default: all).")
  List<String> datasets = new ArrayList<>();

  static final class Source {
    @Option(names = "--results", paramLabel = "DIR", required = true,
        description = "The system's results: DIR/<Dataset>/<Category>/<sql file stem>/<N>/result.csv.")
    Path results;

    @Option(names = "--gold-as-result", required = true,
        description = "Score the ground truth's own result (a self-check: every runnable query scores 1).")
    boolean goldAsResult;
  }

  @ArgGroup(exclusive = true, multiplicity = "1")
  Source source;

  @Option(names = "--out", paramLabel = "DIR", defaultValue = "results/tables", description = "Output folder (default: ${DEFAULT-VALUE}).")
  Path out;

  @Option(names = "--id-column", paramLabel = "TABLE=COLUMN",
      description = "A table's document id, when it is not 'id' (e.g. cspaper=pdf_filename).")
  Map<String, String> idColumns = new LinkedHashMap<>();

  @Option(names = "--entity-key", paramLabel = "TABLE=COLUMN",
      description = "For a table with several entities per document: the column that tells them apart within one id (e.g. drug=generic_name).")
  Map<String, String> entityKeys = new LinkedHashMap<>();

  @Option(names = "--judge", paramLabel = "NAME", defaultValue = "normalising",
      description = "Cell judge: normalising (deterministic) or llm (default: ${DEFAULT-VALUE}).")
  String judge;

  @Option(names = "--tolerance", paramLabel = "X", defaultValue = "1e-6",
      description = "Largest relative difference of numbers judged equal (default: ${DEFAULT-VALUE}).")
  @Range(min = 0)
  double tolerance;

  @Option(names = "--readings", paramLabel = "NAME", defaultValue = "ours",
      description = "Both empty and rows sharing an id: ours (both empty agree; value order) or authors"
          + " (both empty score 0; file order) (default: ${DEFAULT-VALUE}).")
  String readings;

  @Mixin QueryTimeoutOption query;

  @ArgGroup(exclusive = false, heading = "LLM judge (--judge llm):%n")
  LlmOptions llm = new LlmOptions();

  /** The LLM judge: an endpoint, its prompt and its cache. */
  static final class LlmOptions extends EndpointOptions {
    @Option(names = "--judge-prompt", paramLabel = "FILE", defaultValue = "data/prompts/cell-judge.txt",
        description = "Prompt template of the LLM judge (default: ${DEFAULT-VALUE}).")
    Path prompt = Path.of("data/prompts/cell-judge.txt");

    @Option(names = "--judge-cache", paramLabel = "FILE", description = "Cache of the LLM judge's answers (default: OUT/judge-cache.jsonl).")
    Path cache;
  }

  @Mixin ForceOption force;

  @Override
  public Integer call() {
    Readings reading = switch (readings) {
      case "ours" -> Readings.OURS;
      case "authors" -> Readings.AUTHORS;
      default -> throw new ParameterException(spec.commandLine(), "--readings must be ours or authors, not '" + readings + "'");
    };
    if (source.results != null && !Files.isDirectory(source.results)) {
      throw new InputException(source.results + ": results folder not found (--results)");
    }
    CellJudge deterministic = new NormalisingJudge(tolerance);
    String judgeName = String.format(Locale.ROOT, "normalising (relative tolerance %s)", tolerance);
    LlmJudge llmJudge = null;
    switch (judge) {
      case "normalising" -> { }
      case "llm" -> {
        if (llm.url == null || llm.model == null) {
          throw new ParameterException(spec.commandLine(), "--judge llm needs --llm-url and --llm-model");
        }
        ChatEndpoint endpoint = llm.endpoint(System.getenv(), spec.commandLine());
        PromptTemplate template = PromptTemplate.read(llm.prompt, LlmJudge.PLACEHOLDERS);
        llmJudge = new LlmJudge(endpoint, template, deterministic,
            llm.cache != null ? llm.cache : out.resolve("judge-cache.jsonl"));
        judgeName = "llm: " + endpoint.settings().describe() + ", prompt " + llm.prompt + "; " + judgeName + " first";
      }
      default -> throw new ParameterException(spec.commandLine(), "--judge must be normalising or llm, not '" + judge + "'");
    }
    PrintWriter w = spec.commandLine().getOut();
    Summary summary;
    try {
      UdaBench bench = new UdaBench(new UdaBench.Options(root, datasets, source.goldAsResult ? null : source.results, out,
          new KeyColumns(idColumns, entityKeys), llmJudge != null ? llmJudge : deterministic, judgeName, query.timeout, reading));
      long start = System.nanoTime();
      summary = bench.run(line -> { });
      print(w, summary, (System.nanoTime() - start) / 1e9);
    } finally {
      if (llmJudge != null) {
        llmJudge.close();
      }
    }
    if (llmJudge != null) {
      w.println("LLM judge: " + llmJudge.requests() + " requests (the rest cached or decided without a request)");
    }
    w.println("wrote " + out.resolve("summary.json") + " and one folder per query under " + out);
    return 0;
  }

  private static void print(PrintWriter w, Summary summary, double seconds) {
    List<String[]> rows = new ArrayList<>();
    rows.add(new String[] {"dataset", "category", "queries", "ran", "scored", "precision", "recall", "F1"});
    summary.datasets().forEach((dataset, figures) -> {
      figures.categories().forEach((category, f) -> rows.add(row(dataset, category, f)));
      rows.add(row(dataset, "all", figures.all()));
    });
    rows.add(row("all", "", summary.all()));
    int[] widths = new int[rows.get(0).length];
    rows.forEach(r -> { for (int i = 0; i < r.length; i++) widths[i] = Math.max(widths[i], r[i].length()); });
    for (String[] r : rows) {
      StringBuilder line = new StringBuilder();
      for (int i = 0; i < r.length; i++) {
        line.append(i < 2 ? String.format(Locale.ROOT, "%-" + widths[i] + "s  ", r[i])
            : String.format(Locale.ROOT, "%" + widths[i] + "s  ", r[i]));
      }
      w.println(line.toString().stripTrailing());
    }
    Summary.Figures all = summary.all();
    w.printf(Locale.ROOT, "%d of %d queries ran on the ground truth; %d scored in %.1f s (%.1f ms per query)%n",
        all.ran(), all.queries(), all.scored(), seconds, all.queries() == 0 ? 0 : 1000 * seconds / all.queries());
    List<QueryOutcome> notScored = summary.notScored();
    int shown = Math.min(notScored.size(), 5);
    for (int i = 0; i < shown; i++) {
      w.println("  not scored: " + notScored.get(i).reason());
    }
    if (notScored.size() > shown) {
      w.println("  … and " + (notScored.size() - shown) + " more, each with its reason in summary.json");
    }
    if (summary.readings().equals("authors")) {
      w.println("readings: the authors' (both empty score 0; rows sharing an id paired in file order)");
    }
  }

  private static String[] row(String dataset, String category, Summary.Figures f) {
    return new String[] {dataset, category, String.valueOf(f.queries()), String.valueOf(f.ran()), String.valueOf(f.scored()),
        num(f.precision()), num(f.recall()), num(f.f1())};
  }

  private static String num(Double value) {
    return value == null ? "-" : String.format(Locale.ROOT, "%.3f", value);
  }
}

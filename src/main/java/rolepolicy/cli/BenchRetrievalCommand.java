package rolepolicy.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import rolepolicy.casebank.CaseBank;
import rolepolicy.casebank.CaseIndex;
import rolepolicy.casebank.Embedder;
import rolepolicy.casebank.PromptWriter;
import rolepolicy.casebank.RetrievalBench;
import rolepolicy.evaluate.Evaluator;
import rolepolicy.evaluate.GoldRecord;
import rolepolicy.evaluate.PredictionReader;
import rolepolicy.io.JsonFiles;
import rolepolicy.spider.Schema;
import rolepolicy.spider.SchemaReader;

/** Retrieval quality (DAIL-SQL's query similarity) and speed of the CaseBank on a generated split. */
@Command(
    name = "bench-retrieval",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = "Mean query similarity of the selected examples (1/3/5) by method, and time per retrieval.")
public final class BenchRetrievalCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Mixin DatasetOption data;

  @Mixin TablesOption schemaFile;

  @Mixin DatabasesOption databases;

  @Mixin CaseBankOption caseBank;

  @Option(names = "--draft", paramLabel = "FILE", description = "Draft SQL per question, in evaluate's prediction format (DAIL's selection).")
  Path draft;

  @Option(names = "--seed", paramLabel = "N", defaultValue = "7", description = "Seed of the random baseline (default: ${DEFAULT-VALUE}).")
  long seed;

  @Override
  public Integer call() {
    Map<String, Schema> schemas = SchemaReader.read(schemaFile.tables);
    JsonNode records = JsonFiles.readArray(data.dataset, "dataset records");
    List<String> drafts = null;
    if (draft != null) {
      List<GoldRecord> golds = Evaluator.readDataset(data.dataset);
      drafts = PromptWriter.drafts(PredictionReader.read(draft, golds));
    }
    List<RetrievalBench.Target> targets = new ArrayList<>();
    for (int i = 0; i < records.size(); i++) {
      JsonNode r = records.get(i);
      targets.add(new RetrievalBench.Target(r.path("id").asText(), r.path("db_id").asText(), r.path("question").asText(),
          r.path("original_sql").asText(), drafts == null ? null : drafts.get(i)));
    }
    PrintWriter w = spec.commandLine().getOut();
    try (CaseBank cases = CaseIndex.open(caseBank.bank, new Embedder())) {
      long start = System.nanoTime();
      RetrievalBench bench = new RetrievalBench(cases, schemas, databases.dir == null ? null : new rolepolicy.casebank.ValueLinker(databases.dir));
      List<Double> millis = new ArrayList<>();
      List<RetrievalBench.Row> rows = bench.run(targets, new int[] {1, 3, 5}, seed, millis);
      double total = (System.nanoTime() - start) / 1e9;
      w.printf(Locale.ROOT, "%d questions of %s, bank %s (%d cases)%n", targets.size(), data.dataset, caseBank.bank, cases.meta().cases());
      w.println("| method | 1 example | 3 examples | 5 examples | note |");
      w.println("|---|---:|---:|---:|---|");
      for (RetrievalBench.Row row : rows) {
        w.printf(Locale.ROOT, "| %s | %s | %s | %s | %s |%n", row.method(), fmt(row.similarity().get(1)),
            fmt(row.similarity().get(3)), fmt(row.similarity().get(5)), row.note());
      }
      List<Double> sorted = new ArrayList<>(millis);
      sorted.sort(null);
      w.printf(Locale.ROOT, "tiered retrieval (5 examples): median %.1f ms, p99 %.1f ms over %d questions; whole run %.1f s%n",
          sorted.get(sorted.size() / 2), sorted.get((int) Math.ceil(0.99 * sorted.size()) - 1), sorted.size(), total);
      Runtime rt = Runtime.getRuntime();
      w.printf(Locale.ROOT, "heap in use after the run: %d MB%n", (rt.totalMemory() - rt.freeMemory()) >> 20);
    }
    return 0;
  }

  private static String fmt(Double v) {
    return v == null ? "-" : String.format(Locale.ROOT, "%.3f", v);
  }
}

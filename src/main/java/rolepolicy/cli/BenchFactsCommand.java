package rolepolicy.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.kie.api.KieBase;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;
import rolepolicy.bench.Spread;
import rolepolicy.engine.DatabasePolicies;
import rolepolicy.engine.PolicyAssigner;
import rolepolicy.engine.QuestionEngine;
import rolepolicy.engine.RuleBase;
import rolepolicy.generate.DatasetGenerator;
import rolepolicy.generate.QuestionGenerator;
import rolepolicy.generate.QuestionGenerator.Facts;
import rolepolicy.io.RunTemp;
import rolepolicy.spider.Schema;
import rolepolicy.spider.SchemaReader;

/**
 * Times generation with facts from SQL text against facts from Spider's AST, in one JVM: Spider
 * train + dev through the AST path (the baseline), the same through the text path, and BIRD dev
 * (SQL text only). Passes are interleaved, so that each workload sees the same machine.
 */
@Command(
    name = "bench-facts",
    mixinStandardHelpOptions = true,
    description = "Questions per second of the text path (BIRD dev, Spider) next to Spider's AST path, same run.")
public final class BenchFactsCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(names = "--spider", paramLabel = "DIR", defaultValue = "../shared/spider", description = "Spider folder (default: ${DEFAULT-VALUE}).")
  Path spider;

  @Option(names = "--bird", paramLabel = "DIR", defaultValue = "../shared/bird", description = "BIRD folder with dev.json and dev_tables.json (default: ${DEFAULT-VALUE}).")
  Path bird;

  @Option(names = "--runs", paramLabel = "N", defaultValue = "5", description = "Timed passes of each workload (default: ${DEFAULT-VALUE}).")
  @Range(min = 1)
  int runs;

  @Option(names = "--warmup", paramLabel = "N", defaultValue = "4", description = "Untimed passes of each workload first (default: ${DEFAULT-VALUE}).")
  @Range(min = 0)
  int warmup;

  @Option(names = "--threads", paramLabel = "N", description = "Worker threads (default: generate's default, the number of cores).")
  @Range(min = 1)
  Integer threads;

  @Mixin RulesOption ruleFiles;

  /** One workload: its question files, schema file and fact source. */
  private record Workload(String name, List<Path> questions, Path tables, Facts facts) {}

  @Override
  public Integer call() throws IOException {
    PrintWriter out = spec.commandLine().getOut();
    List<Path> spiderFiles = List.of(spider.resolve("train_spider.json"), spider.resolve("dev.json"));
    List<Workload> workloads =
        List.of(
            new Workload("Spider train+dev, AST facts", spiderFiles, spider.resolve("tables.json"), Facts.AUTO),
            new Workload("Spider train+dev, text facts", spiderFiles, spider.resolve("tables.json"), Facts.TEXT),
            new Workload("BIRD dev, text facts", List.of(bird.resolve("dev.json")), bird.resolve("dev_tables.json"), Facts.TEXT));
    KieBase ruleBase = RuleBase.load(ruleFiles.ruleSet());
    QuestionEngine engine = new QuestionEngine(ruleBase);
    int workers = threads != null ? threads : GenerateCommand.defaultThreads();
    Path dir = RunTemp.systemFolder("rolepolicy-bench-facts");
    List<Runnable> passes = new ArrayList<>();
    List<Integer> sizes = new ArrayList<>();
    for (Workload w : workloads) {
      Map<String, Schema> schemas = SchemaReader.read(w.tables());
      Map<String, DatabasePolicies> policies =
          new PolicyAssigner(ruleBase).assign(schemas, List.of(), "no overrides");
      Path output = dir.resolve(passes.size() + ".json");
      int[] count = new int[1];
      passes.add(() -> {
        // a new generator per pass, as a new run has: no analyses carried over
        DatasetGenerator generator =
            new DatasetGenerator(new QuestionGenerator(engine, schemas, policies, w.facts()), workers);
        count[0] = generator.generate("bench", w.questions(), output, null, bytes -> {}).questions();
      });
      passes.get(passes.size() - 1).run();
      sizes.add(count[0]);
    }
    for (int i = 1; i < warmup; i++) {
      passes.forEach(Runnable::run);
    }
    List<List<Double>> rates = new ArrayList<>();
    workloads.forEach(w -> rates.add(new ArrayList<>()));
    for (int r = 0; r < runs; r++) {
      for (int w = 0; w < passes.size(); w++) {
        long start = System.nanoTime();
        passes.get(w).run();
        rates.get(w).add(sizes.get(w) / ((System.nanoTime() - start) / 1e9));
      }
    }
    RunTemp.release(dir);
    out.printf(Locale.ROOT, "%d worker threads, %d untimed and %d timed passes each, interleaved; load average %.1f%n",
        workers, warmup, runs, ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    double baseline = Spread.of(rates.get(0)).median();
    for (int w = 0; w < workloads.size(); w++) {
      Spread spread = Spread.of(rates.get(w));
      out.printf(Locale.ROOT, "  %-30s %6d questions  %s  ratio to the AST path %.2fx%n",
          workloads.get(w).name(), sizes.get(w), spread.format("questions/s", "%,.0f"), spread.median() / baseline);
    }
    return 0;
  }
}

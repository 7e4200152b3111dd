package rolepolicy.cli;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import rolepolicy.bench.RunOverhead;
import rolepolicy.casebank.CaseBank;

/** run's own cost per question against an endpoint on 127.0.0.1 that answers at once, next to evaluate's time. */
@Command(
    name = "bench-run",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = "Time run against a local endpoint that answers at once, and evaluate on the same predictions: run's overhead per question.")
public final class BenchRunCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Mixin DatasetOption data;

  @Mixin TablesOption schemaFile;

  @Mixin CaseBankOption caseBank;

  @Mixin TemplateOption promptTemplate;

  @Mixin FewShotOptions fewShot;

  @Mixin DatabasesOption databases;

  @Mixin RulesOption ruleFiles;

  @Mixin ParallelOption workers;

  @Option(names = "--repeats", paramLabel = "N", defaultValue = "5", description = "Timed pairs after a warm-up (default: ${DEFAULT-VALUE}).")
  @Range(min = 1)
  int repeats;

  @Option(names = "--limit", paramLabel = "N", description = "The first N questions only.")
  @Range(min = 1)
  Integer limit;

  @Override
  public Integer call() {
    CaseBank.Method policy = fewShot.retrievalPolicy();
    PrintWriter w = spec.commandLine().getOut();
    RunOverhead.Figures f = new RunOverhead(new RunOverhead.Plan(data.dataset, schemaFile.tables, caseBank.bank, promptTemplate.template, policy,
        fewShot.examples, databases.dir, ruleFiles.ruleSet(), workers.parallel, repeats, limit, fewShot.schemaStyle()))
        .measure(spec.commandLine().getErr());
    w.printf(Locale.ROOT, "%d questions, --parallel %d, --policy %s%s, an endpoint on 127.0.0.1 that answers at once; medians of %d%n",
        f.questions(), workers.parallel, fewShot.policy, fewShot.policy.equals(FewShotOptions.DEFAULT_POLICY) ? " (run's default)" : "",
        repeats);
    w.printf(Locale.ROOT, "run       %7.2f s  (questions %.2f s, their prompts built in %.2f s of the workers' time;"
        + " evaluation %.2f s, writing %.2f s)%n", f.run(), f.asking(), f.prompts(), f.runsEvaluation(), f.writing());
    w.printf(Locale.ROOT, "evaluate  %7.2f s  (same predictions, same JVM)%n", f.evaluate());
    w.printf(Locale.ROOT, "run       %7.2f s  with its prompts reused from its folder (no retrieval; every request sent)%n",
        f.reusedPrompts());
    w.printf(Locale.ROOT, "rerun     %7.2f s  (every prompt and answer reused from its folder)%n", f.rerun());
    w.printf(Locale.ROOT, "run's overhead per question: %.2f ms (the questions' embeddings and the cases' skeletons cached by the"
        + " warm-up run); with its prompts reused: %.2f ms; the warm-up (a cold JVM, nothing cached): %.2f ms%n",
        f.overheadMillis(), f.overheadReusedMillis(), f.firstRunOverheadMillis());
    w.printf(Locale.ROOT, "in the process's CPU time (every thread, the endpoint's too): %.2f ms; with its prompts reused: %.2f ms%n",
        f.cpuOverheadMillis(), f.cpuOverheadReusedMillis());
    return 0;
  }
}

package rolepolicy.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import rolepolicy.casebank.CaseBank;
import rolepolicy.llm.ChatEndpoint;
import rolepolicy.run.Accounting;
import rolepolicy.run.ModelRun;

/** A model's run on a generated split: prompts, answers, predictions and metrics in one folder (docs/run.md). */
@Command(
    name = "run",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = "Prompt a model behind an OpenAI-compatible endpoint with every question of a split and score its answers.")
public final class RunCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @ArgGroup(exclusive = false, heading = "Model endpoint (key from the environment):%n")
  EndpointOptions llm = new EndpointOptions();

  @Mixin CacheOptions caching;

  @Mixin DatasetOption data;

  @Mixin TablesOption schemaFile;

  @Mixin DatabasesOption databases;

  @Mixin CaseBankOption caseBank;

  @Mixin TemplateOption promptTemplate;

  @Mixin FewShotOptions fewShot;

  @Option(names = "--two-stage", description = "Ask for a draft, choose the examples again by its skeleton (DAIL-SQL), ask again.")
  boolean twoStage;

  @Option(names = "--name", paramLabel = "NAME", description = "The run's name: its folder is runs/NAME (default: the model's name and the split's).")
  String name;

  @Option(names = "--out", paramLabel = "DIR", description = "The run's folder (default: runs/NAME).")
  Path out;

  @Option(names = "--system", paramLabel = "FILE",
      description = "A system message from this template; {{policy_rules}} in it moves the policy rules there from the prompt (default: none).")
  Path system;

  @Option(names = "--price-in", paramLabel = "USD", description = "Price per million prompt tokens, for the cost (default: none).")
  @Range(min = 0)
  Double priceIn;

  @Option(names = "--price-out", paramLabel = "USD", description = "Price per million completion tokens, for the cost (default: none).")
  @Range(min = 0)
  Double priceOut;

  @Option(names = "--allow-failures", paramLabel = "N", defaultValue = "0",
      description = "Exit 0 even when up to N questions failed or were cut off (default: ${DEFAULT-VALUE}).")
  @Range(min = 0)
  int allowFailures;

  @Mixin ParallelOption workers;

  @Option(names = "--limit", paramLabel = "N", description = "The first N questions only, for a quick try.")
  @Range(min = 1)
  Integer limit;

  @Option(names = "--dry-run", description = "Print the requests and the prompt tokens they would send; send nothing, write nothing.")
  boolean dryRun;

  @Mixin QueryTimeoutOption query;

  @Mixin RulesOption ruleFiles;

  @Mixin ForceOption force;

  @Override
  public Integer call() {
    if (llm.url == null || llm.model == null) {
      throw new ParameterException(spec.commandLine(), "run needs --llm-url and --llm-model");
    }
    CaseBank.Method chosen = fewShot.retrievalPolicy();
    if (name != null && !name.matches("[A-Za-z0-9._-]+")) {
      throw new ParameterException(spec.commandLine(), "--name may hold letters, digits, '.', '_' and '-' only, not '" + name + "'");
    }
    Path folder = out != null ? out : Path.of("runs", name != null ? name : defaultName());
    ChatEndpoint endpoint = llm.endpoint(System.getenv(), spec.commandLine());
    ModelRun run = new ModelRun(new ModelRun.Configuration(data.dataset, schemaFile.tables, caseBank.bank, promptTemplate.template, chosen,
        fewShot.examples, databases.dir, query.timeout, ruleFiles.ruleSet(), folder, workers.parallel, limit, twoStage,
        system, new Accounting.Prices(priceIn, priceOut), caching.folder(), fewShot.schemaStyle()), endpoint, spec.commandLine().getErr());
    PrintWriter w = spec.commandLine().getOut();
    if (dryRun) {
      run.dryRun(w);
      return 0;
    }
    ModelRun.Summary s = run.run();
    MetricsTable.print(w, s.outcome().metrics());
    RunSummary.print(w, s, folder, workers.parallel, priceIn != null || priceOut != null);
    if (s.unansweredCount() > allowFailures) {
      PrintWriter err = spec.commandLine().getErr();
      err.printf(Locale.ROOT, "error: %s of %d have no final answer (%s); a failure is not an answer:"
          + " run again to ask only those, or --allow-failures %d to accept them%n",
          rolepolicy.io.Plural.of(s.unansweredCount(), "question"), s.questions(),
          s.answers().get("failed") + " failed, " + s.answers().get("truncated") + " truncated", s.unansweredCount());
      return Main.INCOMPLETE;
    }
    return 0;
  }

  /** The model's and the split's names, e.g. {@code gpt-4o-mini-dev}. */
  private String defaultName() {
    String stem = data.dataset.getFileName().toString().replaceFirst("\\.json$", "");
    return (llm.model + "-" + stem).replaceAll("[^A-Za-z0-9._-]+", "_");
  }
}

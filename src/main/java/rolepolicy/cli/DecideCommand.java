package rolepolicy.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.IDefaultValueProvider;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import rolepolicy.decide.AccessDecider;
import rolepolicy.decide.AccessDecision;
import rolepolicy.spider.AccessRecord;
import rolepolicy.spider.AccessRecords;
import rolepolicy.decide.Decisions;
import rolepolicy.engine.RuleBase;
import rolepolicy.io.AtomicOutput;
import rolepolicy.io.OutputGuard;

/** PERMIT or DENY for each (user, query) record of Spider-AC, and the agreement with PostgreSQL's label. */
@Command(
    name = "decide",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    defaultValueProvider = DecideCommand.GrantsProfile.class,
    description = {
      "Decide PERMIT or DENY for each record of Role-Conditioned Refusals' format (JSON Lines, plain or",
      ".gz): role <db_id>_<user>'s policies from access_policy_sql, the schema from schema_ddl. Writes",
      "OUT/decisions.jsonl and prints the agreement with ground_truth_label (ERROR... is DENY)."
    })
public final class DecideCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Parameters(index = "0", paramLabel = "FILE", description = "The records (e.g. ../shared/rcr/spider-ac-part.jsonl.gz).")
  Path records;

  @Mixin RulesOption rules;

  @Option(names = "--out", paramLabel = "DIR", defaultValue = "results/decide", description = "Output folder (default: ${DEFAULT-VALUE}).")
  Path out;

  @Option(names = "--threads", paramLabel = "N", description = "Threads that decide records (default: the number of cores).")
  @Range(min = 1)
  Integer threads;

  @Mixin ForceOption force;

  /** Disagreeing lines printed at most. */
  private static final int SHOWN = 20;

  /** decide's profile is grants unless one is given. */
  static final class GrantsProfile implements IDefaultValueProvider {
    @Override
    public String defaultValue(ArgSpec argSpec) {
      return argSpec instanceof OptionSpec option && option.longestName().equals("--profile") ? "grants" : null;
    }
  }

  @Override
  public Integer call() throws Exception {
    PrintWriter stdout = spec.commandLine().getOut();
    OutputGuard.current().checkFiles(out, "decisions.jsonl"); // refused before any work
    List<AccessRecord> input = AccessRecords.read(records);
    AccessDecider decider = new AccessDecider(RuleBase.load(rules.ruleSet()));
    int n = threads != null ? threads : Runtime.getRuntime().availableProcessors();
    List<AccessDecision> decisions = Decisions.decideAll(decider, input, records.toString(), n);
    try (AtomicOutput output = new AtomicOutput(out)) {
      Decisions.write(output.stage(out.resolve("decisions.jsonl")), decisions);
      output.commit();
    }
    int agree = 0;
    int deny = 0;
    List<String> disagreeing = new ArrayList<>();
    for (int i = 0; i < input.size(); i++) {
      AccessRecord record = input.get(i);
      AccessDecision decision = decisions.get(i);
      deny += decision.decision().equals(AccessDecision.DENY) ? 1 : 0;
      if (decision.decision().equals(record.labelDecision())) {
        agree++;
      } else {
        disagreeing.add(String.format(Locale.ROOT, "  line %d (%s): ours %s%s, label %s: %s",
            record.line(), record.role(), decision.decision(),
            decision.rule() == null ? "" : " [" + decision.rule() + "]",
            record.labelDecision(), record.query()));
      }
    }
    stdout.printf(Locale.ROOT, "decide: %,d records, profile %s: PERMIT %,d, DENY %,d; written to %s%n",
        input.size(), rules.profile, input.size() - deny, deny, out.resolve("decisions.jsonl"));
    stdout.printf(Locale.ROOT, "agreement with ground_truth_label: %,d of %,d (%.2f %%)%n",
        agree, input.size(), input.isEmpty() ? 100.0 : 100.0 * agree / input.size());
    if (!disagreeing.isEmpty()) {
      stdout.println("disagreeing lines" + (disagreeing.size() > SHOWN ? " (first " + SHOWN + " of " + disagreeing.size() + ")" : "") + ":");
      disagreeing.stream().limit(SHOWN).forEach(stdout::println);
    }
    stdout.flush();
    return 0;
  }
}

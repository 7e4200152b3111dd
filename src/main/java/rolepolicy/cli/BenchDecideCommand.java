package rolepolicy.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import rolepolicy.bench.DecideBench;
import rolepolicy.db.Postgres;
import rolepolicy.spider.AccessRecords;
import rolepolicy.engine.RuleBase;

/** decide's decisions per second against PostgreSQL's own privilege check, on the same records. */
@Command(
    name = "bench-decide",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    defaultValueProvider = DecideCommand.GrantsProfile.class,
    description = {
      "Benchmark decide against PostgreSQL's own check (EXPLAIN under SET ROLE over JDBC, one connection",
      "per thread) on the same records: medians of both and the ratio. PostgreSQL is started here",
      "(embedded PostgreSQL 17) unless --pg-url names one (its user must create schemas and roles)."
    })
public final class BenchDecideCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Parameters(index = "0", paramLabel = "FILE", description = "The records (e.g. ../shared/rcr/spider-ac-part.jsonl.gz).")
  Path records;

  @Mixin RulesOption rules;

  @Option(names = "--pg-url", paramLabel = "JDBC_URL", description = "A PostgreSQL to use instead of starting one; bench-decide works in schemas and roles of its own there (rolepolicy_<random>_*), dropped at the end.")
  String pgUrl;

  @Option(names = "--threads", paramLabel = "N", description = "Threads of decide, and PostgreSQL connections (default: the number of cores).")
  @Range(min = 1)
  Integer threads;

  @Option(names = "--runs", paramLabel = "N", defaultValue = "5", description = "Timed runs (default: ${DEFAULT-VALUE}).")
  @Range(min = 1)
  int runs;

  @Option(names = "--warmup", paramLabel = "N", defaultValue = "4", description = "Untimed runs first (default: ${DEFAULT-VALUE}).")
  @Range(min = 0)
  int warmup;

  @Override
  public Integer call() throws Exception {
    int n = threads != null ? threads : Runtime.getRuntime().availableProcessors();
    DecideBench bench = new DecideBench(AccessRecords.read(records), records.toString(),
        RuleBase.load(rules.ruleSet()), n, runs, warmup);
    try (Postgres pg = pgUrl != null ? Postgres.at(pgUrl) : Postgres.embedded()) {
      return bench.run(pg, spec.commandLine().getOut());
    }
  }
}

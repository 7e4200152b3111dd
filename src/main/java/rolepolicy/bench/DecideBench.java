package rolepolicy.bench;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.kie.api.KieBase;
import rolepolicy.db.Postgres;
import rolepolicy.db.PrivilegeCheck;
import rolepolicy.decide.AccessDecider;
import rolepolicy.decide.AccessDecision;
import rolepolicy.spider.AccessRecord;
import rolepolicy.decide.Decisions;
import rolepolicy.model.Grant;
import rolepolicy.spider.Schema;
import rolepolicy.sql.GrantStatements;
import rolepolicy.sql.TableDefinitions;

/**
 * Times decide against PostgreSQL's own privilege check on the same records (the {@code
 * bench-decide} command): each record's schema and roles are loaded into PostgreSQL first (not
 * timed), then each run decides every record with the rules, and asks PostgreSQL for every record
 * (EXPLAIN under SET ROLE, one connection per thread), interleaved so both see the same load.
 */
public final class DecideBench {
  private final List<AccessRecord> records;
  private final String source;
  private final KieBase rules;
  private final int threads;
  private final int runs;
  private final int warmup;

  public DecideBench(List<AccessRecord> records, String source, KieBase rules, int threads, int runs, int warmup) {
    this.records = records;
    this.source = source;
    this.rules = rules;
    this.threads = threads;
    this.runs = runs;
    this.warmup = warmup;
  }

  public int run(Postgres pg, String server, PrintWriter w) throws Exception {
    long start = System.nanoTime();
    String version = load(pg);
    double loadSeconds = (System.nanoTime() - start) / 1e9;
    AccessDecider decider = new AccessDecider(rules);
    List<Double> ours = new ArrayList<>();
    List<Double> theirs = new ArrayList<>();
    List<AccessDecision> decisions = null;
    List<String> verdicts = null;
    for (int i = 0; i < warmup + runs; i++) {
      long t = System.nanoTime();
      decisions = Decisions.decideAll(decider, records, source, threads);
      double a = (System.nanoTime() - t) / 1e9;
      t = System.nanoTime();
      verdicts = checkAll(pg);
      double b = (System.nanoTime() - t) / 1e9;
      if (i >= warmup) {
        ours.add(a);
        theirs.add(b);
      }
    }
    int agree = 0;
    int labels = 0;
    int rejected = 0;
    for (int i = 0; i < records.size(); i++) {
      agree += decisions.get(i).decision().equals(verdicts.get(i)) ? 1 : 0;
      labels += records.get(i).labelDecision().equals(verdicts.get(i)) ? 1 : 0;
      rejected += verdicts.get(i).equals(PrivilegeCheck.Answer.REJECTED) ? 1 : 0;
    }
    Spread rules = Spread.of(ours);
    Spread postgres = Spread.of(theirs);
    int n = records.size();
    w.printf(Locale.ROOT, "bench-decide: %,d records of %s, %d threads (PostgreSQL %s, %s: %d connections)%n",
        n, source, threads, version, server, threads);
    w.printf(Locale.ROOT, "set-up, not timed: schemas, roles and GRANTs loaded into PostgreSQL in %.1f s%n", loadSeconds);
    w.printf(Locale.ROOT, "decide (rules):              %s = %,.0f decisions/s%n", rules.format("s", "%.3f"), n / rules.median());
    w.printf(Locale.ROOT, "PostgreSQL (EXPLAIN as role): %s = %,.0f decisions/s%n", postgres.format("s", "%.3f"), n / postgres.median());
    w.printf(Locale.ROOT, "decide / PostgreSQL, decisions per second: %.2f×%n", postgres.median() / rules.median());
    w.printf(Locale.ROOT, "agreement: decide with PostgreSQL %,d of %,d; PostgreSQL here with the paper's labels %,d of %,d"
        + (rejected > 0 ? "; PostgreSQL rejected %,d for another reason" : "") + "%n", agree, n, labels, n, rejected);
    w.flush();
    return 0;
  }

  /** Loads each database's schema (from schema_ddl), its users' roles and their GRANT statements; returns the server's version. */
  private String load(Postgres pg) throws SQLException {
    Map<String, AccessRecord> byDb = new LinkedHashMap<>();
    records.forEach(r -> byDb.putIfAbsent(r.dbId() + "\n" + r.schemaDdl() + "\n" + r.accessPolicySql(), r));
    Set<String> seen = new LinkedHashSet<>();
    try (Connection admin = pg.connect()) {
      for (AccessRecord r : byDb.values()) {
        if (!seen.add(r.dbId())) {
          throw new rolepolicy.io.InputException(source + ":" + r.line() + ": database " + r.dbId()
              + " comes with another schema or other GRANTs than before: one PostgreSQL cannot hold both");
        }
        Schema schema = TableDefinitions.schema(r.dbId(), r.schemaDdl(), source + ":" + r.line());
        Postgres.createSchema(admin, schema);
        List<Grant> grants = GrantStatements.parse(r.accessPolicySql(), source + ":" + r.line());
        Postgres.createRoles(admin, grants.stream().map(Grant::grantee).distinct().filter(g -> !g.equals("public")).toList());
        Postgres.execute(admin, r.accessPolicySql());
      }
      return admin.getMetaData().getDatabaseProductVersion();
    }
  }

  /** PostgreSQL's verdict on every record, in record order: contiguous slices, one connection each. */
  private List<String> checkAll(Postgres pg) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      int slice = (records.size() + threads - 1) / threads;
      List<Future<List<String>>> parts = new ArrayList<>();
      for (int from = 0; from < records.size(); from += slice) {
        List<AccessRecord> part = records.subList(from, Math.min(records.size(), from + slice));
        parts.add(pool.submit(() -> {
          List<String> out = new ArrayList<>(part.size());
          try (PrivilegeCheck check = new PrivilegeCheck(pg.connect(), 30)) {
            for (AccessRecord r : part) {
              out.add(check.check(r.dbId(), r.role(), r.query()).verdict());
            }
          }
          return out;
        }));
      }
      List<String> all = new ArrayList<>(records.size());
      for (Future<List<String>> part : parts) {
        all.addAll(part.get());
      }
      return all;
    } finally {
      pool.shutdownNow();
    }
  }
}

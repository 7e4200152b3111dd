package rolepolicy.bench;

import java.io.PrintWriter;
import java.sql.Connection;
import java.security.SecureRandom;
import java.sql.SQLException;
import java.sql.Statement;
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
import rolepolicy.io.InputException;
import rolepolicy.io.RunTemp;
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

  public int run(Postgres pg, PrintWriter w) throws Exception {
    Scratch scratch = new Scratch(pg);
    if (!pg.isEmbedded()) { // the embedded server's cluster goes as a whole
      RunTemp.register(scratch, scratch::dropQuietly, "its schemas and roles " + scratch.prefix + "* in PostgreSQL were dropped");
    }
    try {
      return run(pg, scratch, w);
    } finally {
      RunTemp.forget(scratch);
      scratch.dropQuietly();
    }
  }

  private int run(Postgres pg, Scratch scratch, PrintWriter w) throws Exception {
    long start = System.nanoTime();
    String version = load(pg, scratch);
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
      verdicts = checkAll(pg, scratch.prefix);
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
        n, source, threads, version, pg.shown(), threads);
    w.printf(Locale.ROOT, "set-up, not timed: schemas, roles and GRANTs loaded into PostgreSQL in %.1f s (named %s*, dropped at the end)%n",
        loadSeconds, scratch.prefix);
    w.printf(Locale.ROOT, "decide (rules):              %s = %,.0f decisions/s%n", rules.format("s", "%.3f"), n / rules.median());
    w.printf(Locale.ROOT, "PostgreSQL (EXPLAIN as role): %s = %,.0f decisions/s%n", postgres.format("s", "%.3f"), n / postgres.median());
    w.printf(Locale.ROOT, "decide / PostgreSQL, decisions per second: %.2f×%n", postgres.median() / rules.median());
    w.printf(Locale.ROOT, "agreement: decide with PostgreSQL %,d of %,d; PostgreSQL here with the paper's labels %,d of %,d"
        + (rejected > 0 ? "; PostgreSQL rejected %,d for another reason" : "") + "%n", agree, n, labels, n, rejected);
    w.flush();
    return 0;
  }

  /**
   * Loads each database's schema (as decide read its schema_ddl), its users' roles and their GRANTs
   * (as decide read them), every name quoted and prefixed with the run's own prefix; returns the
   * server's version.
   */
  private String load(Postgres pg, Scratch scratch) throws SQLException {
    Map<String, AccessRecord> byDb = new LinkedHashMap<>();
    records.forEach(r -> byDb.putIfAbsent(r.dbId() + "\n" + r.schemaDdl() + "\n" + r.accessPolicySql(), r));
    Set<String> seen = new LinkedHashSet<>();
    try (Connection admin = pg.connect()) {
      for (AccessRecord r : byDb.values()) {
        String where = source + ":" + r.line();
        if (!seen.add(r.dbId())) {
          throw new InputException(where + ": database " + r.dbId()
              + " comes with another schema or other GRANTs than before: one PostgreSQL cannot hold both");
        }
        Schema schema = TableDefinitions.schema(r.dbId(), r.schemaDdl(), where);
        List<Grant> grants = GrantStatements.parse(r.accessPolicySql(), where);
        Set<String> roles = new LinkedHashSet<>();
        records.stream().filter(o -> o.dbId().equals(r.dbId())).forEach(o -> roles.add(o.role().toLowerCase(Locale.ROOT)));
        grants.stream().map(Grant::grantee).filter(g -> !g.equals("public")).forEach(roles::add);
        try {
          scratch.createSchema(admin, r.dbId(), schema);
          for (String role : roles) {
            scratch.createRole(admin, role);
          }
          StringBuilder statements = new StringBuilder();
          for (Grant g : grants) {
            statements.append(grantStatement(g, r.dbId(), scratch.prefix)).append(";\n");
          }
          Postgres.execute(admin, statements.toString());
        } catch (SQLException e) {
          throw scratch.refused(e, admin, where + ": database " + r.dbId());
        }
      }
      return admin.getMetaData().getDatabaseProductVersion();
    }
  }

  /** One grant as a statement on the run's own schema and role, every name quoted. */
  static String grantStatement(Grant g, String dbId, String prefix) {
    String grantee = g.grantee().equals("public") ? "PUBLIC" : Postgres.quote(prefix + g.grantee());
    String schema = Postgres.quote(prefix + (g.schema() != null ? g.schema() : dbId));
    if (g.table() == null) {
      return g.privilege().equals("USAGE")
          ? "GRANT USAGE ON SCHEMA " + schema + " TO " + grantee
          : "GRANT SELECT ON ALL TABLES IN SCHEMA " + schema + " TO " + grantee;
    }
    String table = schema + "." + Postgres.quote(g.table());
    return g.column() == null
        ? "GRANT SELECT ON " + table + " TO " + grantee
        : "GRANT SELECT (" + Postgres.quote(g.column()) + ") ON " + table + " TO " + grantee;
  }

  /**
   * The schemas and roles this run made in PostgreSQL, all named with a prefix of its own ({@code
   * rolepolicy_<random>_}): none of another's is touched, as a name taken makes CREATE fail; all
   * are dropped at the end, on failure and on Ctrl-C too (waiting for a step under way; none begins after).
   */
  static final class Scratch {
    final String prefix = "rolepolicy_" + Long.toHexString(new SecureRandom().nextLong() & 0xffffffffffL) + "_";
    private final Postgres pg;
    private final List<String> schemas = new ArrayList<>();
    private final List<String> roles = new ArrayList<>();
    /** Set by {@link #drop}: a step that makes something runs under this object's lock, and none after. */
    private boolean dropped;

    Scratch(Postgres pg) {
      this.pg = pg;
    }

    synchronized void createSchema(Connection admin, String dbId, Schema schema) throws SQLException {
      String name = named(dbId);
      try {
        Postgres.createSchema(admin, name, schema);
      } catch (SQLException e) {
        if (!"42P06".equals(e.getSQLState())) { // not duplicate_schema: it may be made, without all its tables
          schemas.add(name);
        }
        throw e;
      }
      schemas.add(name);
    }

    synchronized void createRole(Connection admin, String role) throws SQLException {
      String name = named(role);
      Postgres.execute(admin, "CREATE ROLE " + Postgres.quote(name) + " NOLOGIN");
      roles.add(name);
      // a role with CREATEROLE that is no superuser may SET ROLE only to a role it is a member of
      Postgres.execute(admin, "GRANT " + Postgres.quote(name) + " TO CURRENT_USER");
    }

    private String named(String name) {
      if (dropped) { // the run is stopping: nothing is made after the drop
        throw new IllegalStateException("bench-decide is stopping");
      }
      String named = prefix + name.toLowerCase(Locale.ROOT);
      if (named.getBytes(java.nio.charset.StandardCharsets.UTF_8).length > 63) {
        throw new InputException("bench-decide: the name " + name + " is too long for PostgreSQL (63 bytes) with the prefix " + prefix);
      }
      return named;
    }

    synchronized void drop() throws SQLException {
      dropped = true;
      if (schemas.isEmpty() && roles.isEmpty()) {
        return;
      }
      try (Connection admin = pg.connect(); Statement statement = admin.createStatement()) {
        for (String schema : List.copyOf(schemas)) {
          statement.execute("DROP SCHEMA IF EXISTS " + Postgres.quote(schema) + " CASCADE");
          schemas.remove(schema);
        }
        for (String role : List.copyOf(roles)) {
          statement.execute("DROP ROLE IF EXISTS " + Postgres.quote(role));
          roles.remove(role);
        }
      }
    }

    void dropQuietly() {
      try {
        drop();
      } catch (RuntimeException | SQLException e) {
        System.err.println("bench-decide: could not drop the schemas and roles " + prefix + "* in PostgreSQL: "
            + e.getMessage() + "; drop them by hand");
      }
    }

    /** A failed set-up step as an input error: a missing privilege names the role and what it needs. */
    RuntimeException refused(SQLException e, Connection admin, String what) throws SQLException {
      if (PrivilegeCheck.INSUFFICIENT_PRIVILEGE.equals(e.getSQLState())) {
        return new InputException(pg.shown() + ": role " + admin.getMetaData().getUserName()
            + " may not set up " + what + " (" + e.getMessage().lines().findFirst().orElse("") + "): bench-decide"
            + " creates schemas and roles of its own; give --pg-url a role with CREATEROLE that may create"
            + " schemas in the database (its owner, say), or leave --pg-url out to use the embedded PostgreSQL", e);
      }
      if (e.getSQLState() != null && !e.getSQLState().startsWith("08")) {
        return new InputException(what + ": PostgreSQL refused its set-up: " + e.getMessage().lines().findFirst().orElse(""), e);
      }
      return new IllegalStateException(e.getMessage(), e);
    }
  }

  /** PostgreSQL's verdict on every record, in record order: contiguous slices, one connection each. */
  private List<String> checkAll(Postgres pg, String prefix) throws Exception {
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
              out.add(check.check(prefix + r.dbId(), prefix + r.role(), r.query()).verdict());
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

package rolepolicy.decide;

import rolepolicy.spider.AccessRecord;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import rolepolicy.TestData;
import rolepolicy.db.Postgres;
import rolepolicy.db.PrivilegeCheck;
import rolepolicy.io.DatasetWriter;
import rolepolicy.spider.Schema;

/**
 * PostgreSQL as the referee of the grants profile: every Spider database's schema in a real
 * PostgreSQL 17 (started here), four users per database in the paper's shape ({@link PaperUsers}),
 * and every Spider train and dev query PostgreSQL accepts, under each user: PostgreSQL's privilege
 * check (EXPLAIN under SET ROLE) and decide's decision must agree on every pair. A query PostgreSQL
 * rejects for another reason (SQLite syntax, types) is left out and counted by reason; the counts
 * go to target/postgres-referee.txt.
 */
class PostgresRefereeIT {
  private record Pair(String db, String query) {}

  @Test
  void theGrantsProfileDecidesAsPostgresqlOnEverySpiderQuery() throws Exception {
    long start = System.nanoTime();
    Map<String, Schema> schemas = TestData.schemas();
    Set<Pair> pairs = new LinkedHashSet<>();
    for (String file : List.of("train_spider.json", "dev.json")) {
      for (JsonNode q : DatasetWriter.JSON.readTree(TestData.spiderDir().resolve(file).toFile())) {
        pairs.add(new Pair(q.get("db_id").asText(), q.get("query").asText()));
      }
    }
    Map<String, List<Pair>> byDb = new TreeMap<>();
    pairs.forEach(p -> byDb.computeIfAbsent(p.db(), d -> new ArrayList<>()).add(p));

    List<AccessRecord> records = new ArrayList<>();
    List<String> verdicts = new ArrayList<>();
    Map<String, Integer> leftOut = new TreeMap<>();
    Map<String, String> leftOutExample = new TreeMap<>();
    try (Postgres pg = Postgres.embedded()) {
      Map<String, Map<String, String>> users = new LinkedHashMap<>();
      try (Connection admin = pg.connect()) {
        for (String db : byDb.keySet()) {
          Schema schema = schemas.get(db);
          Postgres.createSchema(admin, schema);
          Map<String, String> grants = PaperUsers.grants(schema);
          Postgres.createRoles(admin, PaperUsers.USERS.stream().map(u -> PaperUsers.role(db, u)).toList());
          Postgres.execute(admin, PaperUsers.all(grants));
          users.put(db, grants);
        }
      }
      long loaded = System.nanoTime();
      // PostgreSQL's answers, one connection per core, databases split between them
      int threads = Runtime.getRuntime().availableProcessors();
      ExecutorService pool = Executors.newFixedThreadPool(threads);
      List<String> dbs = new ArrayList<>(byDb.keySet());
      List<Future<List<String[]>>> parts = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int part = t;
        parts.add(pool.submit(() -> {
          List<String[]> out = new ArrayList<>(); // {db, query, user or reason, verdict, state, message}
          try (PrivilegeCheck check = new PrivilegeCheck(pg.connect(), 30)) {
            for (int i = part; i < dbs.size(); i += threads) {
              String db = dbs.get(i);
              for (Pair p : byDb.get(db)) {
                PrivilegeCheck.Answer owner = check.check(db, null, p.query());
                if (!owner.verdict().equals(PrivilegeCheck.Answer.PERMIT)) {
                  out.add(new String[] {db, p.query(), null, owner.verdict(), owner.sqlState(), owner.message()});
                  continue;
                }
                for (String user : PaperUsers.USERS) {
                  PrivilegeCheck.Answer a = check.check(db, PaperUsers.role(db, user), p.query());
                  out.add(new String[] {db, p.query(), user, a.verdict(), a.sqlState(), a.message()});
                }
              }
            }
          }
          return out;
        }));
      }
      List<String[]> answers = new ArrayList<>();
      for (Future<List<String[]>> part : parts) {
        answers.addAll(part.get());
      }
      pool.shutdown();
      long asked = System.nanoTime();
      Map<String, String> ddl = new LinkedHashMap<>();
      for (String[] a : answers) {
        if (a[2] == null) {
          String reason = a[4] + " " + a[5].replaceAll("\"[^\"]*\"", "\"…\"").replaceAll("\\s+at character \\d+", "");
          reason = reason.length() > 90 ? reason.substring(0, 90) : reason;
          leftOut.merge(reason, 1, Integer::sum);
          leftOutExample.putIfAbsent(reason, a[0] + ": " + a[1]);
          continue;
        }
        assertTrue(!a[3].equals(PrivilegeCheck.Answer.REJECTED),
            "PostgreSQL accepted the query as its owner but rejected it under " + a[2] + " for another reason: "
                + a[4] + " " + a[5] + ": " + a[1]);
        String schemaDdl = ddl.computeIfAbsent(a[0], d -> Postgres.tableDefinitions(schemas.get(d)));
        records.add(new AccessRecord(records.size() + 1, a[0], a[2], "", a[1], PaperUsers.all(users.get(a[0])), schemaDdl,
            a[3].equals(PrivilegeCheck.Answer.DENY) ? "ERROR: " + a[5] : "[]"));
        verdicts.add(a[3]);
      }
      List<AccessDecision> decisions =
          Decisions.decideAll(new AccessDecider(TestData.rules("grants")), records, "referee", threads);
      long decided = System.nanoTime();
      List<String> disagree = new ArrayList<>();
      int deny = 0;
      for (int i = 0; i < records.size(); i++) {
        deny += verdicts.get(i).equals(PrivilegeCheck.Answer.DENY) ? 1 : 0;
        if (!decisions.get(i).decision().equals(verdicts.get(i))) {
          AccessRecord r = records.get(i);
          disagree.add(r.role() + ": PostgreSQL " + verdicts.get(i) + " (" + r.groundTruthLabel() + "), ours "
              + decisions.get(i).decision() + " [" + decisions.get(i).rule() + "]: " + r.query());
        }
      }
      int queriesLeft = leftOut.values().stream().mapToInt(Integer::intValue).sum();
      StringBuilder report = new StringBuilder();
      report.append(String.format(Locale.ROOT,
          "Spider train+dev: %,d distinct (database, query) pairs in %d databases; PostgreSQL 17 accepts %,d;"
              + " %,d (user, query) pairs compared (PERMIT %,d, DENY %,d); agree on %,d%n",
          pairs.size(), byDb.size(), pairs.size() - queriesLeft, records.size(), records.size() - deny, deny,
          records.size() - disagree.size()));
      report.append(String.format(Locale.ROOT,
          "time: schemas and users %.1f s, PostgreSQL's checks %.1f s, decide %.1f s, total %.1f s%n",
          (loaded - start) / 1e9, (asked - loaded) / 1e9, (decided - asked) / 1e9, (System.nanoTime() - start) / 1e9));
      report.append(String.format(Locale.ROOT, "queries left out (PostgreSQL rejects them as their owner): %,d, by reason:%n", queriesLeft));
      leftOut.entrySet().stream()
          .sorted(Map.Entry.<String, Integer>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()))
          .forEach(e -> report.append(String.format(Locale.ROOT, "%7d  %s   e.g. %s%n", e.getValue(), e.getKey(),
              abbreviate(leftOutExample.get(e.getKey())))));
      Files.createDirectories(Path.of("target"));
      Files.writeString(Path.of("target/postgres-referee.txt"), report, StandardCharsets.UTF_8);
      System.out.print(report);
      assertTrue(records.size() > 10_000, "too few pairs compared: " + records.size());
      assertEquals(List.of(), disagree.subList(0, Math.min(30, disagree.size())),
          disagree.size() + " of " + records.size() + " pairs disagree; the first 30");
    }
  }

  /**
   * Where decide once departed from PostgreSQL: a GRANT on a quoted name of another case, one whose
   * column list names a missing column, and a query's table of another schema. PostgreSQL runs each
   * statement here (a failing one grants nothing) and answers each query; decide must agree.
   */
  @Test
  void quotedNamesMissingColumnsAndOtherSchemasAreAsInPostgresql() throws Exception {
    String ddl = "CREATE TABLE station (id bigint, name text, city text);\nCREATE TABLE status (station_id bigint, time text);";
    Schema schema = rolepolicy.sql.TableDefinitions.schema("bike_1", ddl, "referee");
    String role = "bike_1_User_1";
    List<String> statements = List.of(
        "GRANT USAGE ON SCHEMA bike_1 TO " + role,
        "GRANT SELECT (name) ON bike_1.station TO " + role,
        "GRANT SELECT ON \"bike_1\".\"Station\" TO " + role,
        "GRANT SELECT (station_id, nosuch) ON bike_1.status TO " + role);
    List<String> failed = new ArrayList<>();
    try (Postgres pg = Postgres.embedded()) {
      try (Connection admin = pg.connect()) {
        Postgres.createSchema(admin, schema);
        Postgres.createRoles(admin, List.of(role));
        for (String statement : statements) {
          try {
            Postgres.execute(admin, statement);
          } catch (java.sql.SQLException e) {
            failed.add(e.getSQLState() + " " + statement);
          }
        }
      }
      // PostgreSQL: relation "bike_1.Station" does not exist; column "nosuch" of relation "status" does not exist
      assertEquals(List.of("42P01 " + statements.get(2), "42703 " + statements.get(3)), failed);
      AccessDecider decider = new AccessDecider(TestData.rules("grants"));
      String grants = String.join(";\n", statements) + ";";
      List<String> disagree = new ArrayList<>();
      try (PrivilegeCheck check = new PrivilegeCheck(pg.connect(), 30)) {
        for (String query : List.of("SELECT name FROM station", "SELECT city FROM station", "SELECT id FROM station",
            "SELECT station_id FROM status", "SELECT count(*) FROM status")) {
          String verdict = check.check("bike_1", role, query).verdict();
          AccessRecord record = new AccessRecord(1, "bike_1", "User_1", "", query, grants, ddl, "");
          String ours = decider.decide(record, "referee").decision();
          if (!ours.equals(verdict)) {
            disagree.add(query + ": PostgreSQL " + verdict + ", ours " + ours);
          }
        }
        assertEquals(List.of(), disagree);
        assertEquals(PrivilegeCheck.Answer.PERMIT, check.check("bike_1", role, "SELECT name FROM station").verdict());
        // a table of another schema: PostgreSQL has no public.station, even for the owner
        PrivilegeCheck.Answer other = check.check("bike_1", null, "SELECT name FROM public.station");
        assertEquals(PrivilegeCheck.Answer.REJECTED + " 42P01", other.verdict() + " " + other.sqlState());
        rolepolicy.io.InputException refused = org.junit.jupiter.api.Assertions.assertThrows(rolepolicy.io.InputException.class,
            () -> decider.decide(new AccessRecord(1, "bike_1", "User_1", "", "SELECT name FROM public.station", grants, ddl, ""),
                "referee"));
        assertTrue(refused.getMessage().contains("unknown table public.station"), refused.getMessage());
      }
    }
  }

  private static String abbreviate(String text) {
    return text.length() > 110 ? text.substring(0, 107) + "..." : text;
  }
}

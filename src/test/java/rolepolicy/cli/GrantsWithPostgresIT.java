package rolepolicy.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rolepolicy.TestData;
import rolepolicy.db.Postgres;
import rolepolicy.db.PrivilegeCheck;
import rolepolicy.decide.AccessDecider;
import rolepolicy.decide.AccessDecision;
import rolepolicy.spider.AccessRecord;
import rolepolicy.decide.PaperUsersAccess;
import rolepolicy.engine.DatabasePolicies;
import rolepolicy.engine.PolicyAssigner;
import rolepolicy.engine.RuleBase;
import rolepolicy.engine.RuleSet;
import rolepolicy.io.DatasetWriter;
import rolepolicy.spider.Schema;

/**
 * The grants profile's two ways in and its way out, against a real PostgreSQL 17 holding every
 * Spider schema: --grants-from reads the same policies as --grants on the statements that made
 * them, and export-grants' statements, applied, give PostgreSQL decisions equal to the profile's.
 */
class GrantsWithPostgresIT {
  private static Postgres pg;

  @TempDir static Path dir;

  @BeforeAll
  static void start() throws Exception {
    pg = Postgres.embedded();
    try (Connection admin = pg.connect()) {
      for (Schema schema : TestData.schemas().values()) {
        Postgres.createSchema(admin, schema);
      }
    }
  }

  @AfterAll
  static void stop() {
    pg.close();
  }

  @Test
  void grantsFromAPostgresqlGiveThePoliciesOfTheStatementsThatMadeIt() throws Exception {
    // every form of grant: each database takes the statements of one of the paper's four users, in turn
    String statements = PaperUsersAccess.mixed(TestData.schemas(), "analyst");
    Path file = dir.resolve("analyst.sql");
    Files.writeString(file, statements, StandardCharsets.UTF_8);
    try (Connection admin = pg.connect()) {
      Postgres.createRoles(admin, List.of("analyst"));
      Postgres.execute(admin, statements);
    }
    String spider = TestData.spiderDir().toString();
    CommandRun fromFile = CommandRun.of("generate", "--spider", spider, "--splits", "dev", "--profile", "grants",
        "--grants", file.toString(), "--grant-role", "analyst", "--out", dir.resolve("file").toString());
    assertEquals(0, fromFile.code(), fromFile.err());
    CommandRun fromServer = CommandRun.of("generate", "--spider", spider, "--splits", "dev", "--profile", "grants",
        "--grants-from", pg.url(), "--grant-role", "ANALYST", "--out", dir.resolve("server").toString());
    assertEquals(0, fromServer.code(), fromServer.err());
    Map<String, String> a = contents(dir.resolve("file/policies"));
    Map<String, String> b = contents(dir.resolve("server/policies"));
    assertEquals(166, a.keySet().stream().filter(f -> f.endsWith(".json")).count(), a.keySet()::toString);
    assertEquals(a, b);
    assertEquals(Files.readString(dir.resolve("file/dev.json")), Files.readString(dir.resolve("server/dev.json")));
    String all = String.join("", a.values());
    assertTrue(all.contains("\"Public\"") && all.contains("\"Hidden\""), "both policies occur");
  }

  @Test
  void grantsFromAsARoleThatCannotSeeTheGrantsOfAnotherReadsThemAnotherWay() throws Exception {
    String statements = PaperUsersAccess.mixed(TestData.schemas(), "viewer");
    Path file = dir.resolve("viewer.sql");
    Files.writeString(file, statements, StandardCharsets.UTF_8);
    try (Connection admin = pg.connect()) {
      Postgres.createRoles(admin, List.of("viewer"));
      Postgres.execute(admin, statements + ";CREATE ROLE reader LOGIN");
    }
    String spider = TestData.spiderDir().toString();
    CommandRun fromFile = CommandRun.of("generate", "--spider", spider, "--splits", "dev", "--profile", "grants",
        "--grants", file.toString(), "--grant-role", "viewer", "--out", dir.resolve("viewer-file").toString());
    assertEquals(0, fromFile.code(), fromFile.err());
    String asReader = pg.url().replaceFirst("\\?.*", "") + "?user=reader";
    CommandRun fromServer = CommandRun.of("generate", "--spider", spider, "--splits", "dev", "--profile", "grants",
        "--grants-from", asReader, "--grant-role", "viewer", "--out", dir.resolve("viewer-server").toString());
    assertEquals(0, fromServer.code(), fromServer.err());
    assertEquals(contents(dir.resolve("viewer-file/policies")), contents(dir.resolve("viewer-server/policies")));
    assertEquals(Files.readString(dir.resolve("viewer-file/dev.json")), Files.readString(dir.resolve("viewer-server/dev.json")));
    assertTrue(fromServer.err().contains("warning: " + asReader + ": role reader cannot see the privileges granted to viewer"),
        fromServer.err());
  }

  @Test
  void exportGrantsOfAPublicHiddenProfileGivesPostgresqlsDecisions() throws Exception {
    Path rules = dir.resolve("rules");
    copy(TestData.rulesDir(), rules);
    copy(Path.of("src/test/resources/profiles/public-hidden"), rules.resolve("profiles/public-hidden"));
    Path noOverrides = Files.writeString(dir.resolve("no-overrides.json"), "[]");
    CommandRun export = CommandRun.of("export-grants", "--tables", TestData.spiderDir().resolve("tables.json").toString(),
        "--overrides", noOverrides.toString(), "--rules", rules.toString(), "--profile", "public-hidden", "--to", "exported", "--out", dir.resolve("export").toString());
    assertEquals(0, export.code(), export.err());
    assertTrue(export.out().contains("0 JoinOnly or AggOnly"), export.out());
    try (Connection admin = pg.connect()) {
      Postgres.createRoles(admin, List.of("exported"));
      Postgres.execute(admin, Files.readString(dir.resolve("export/grants.sql")));
    }
    var base = RuleBase.load(new RuleSet(rules, "public-hidden"));
    Map<String, DatabasePolicies> policies = new PolicyAssigner(base).assign(TestData.schemas(), List.of(), "no overrides");
    AccessDecider decider = new AccessDecider(base);
    Set<List<String>> queries = new LinkedHashSet<>();
    for (String file : List.of("train_spider.json", "dev.json")) {
      for (JsonNode q : DatasetWriter.JSON.readTree(TestData.spiderDir().resolve(file).toFile())) {
        queries.add(List.of(q.get("db_id").asText(), q.get("query").asText()));
      }
    }
    int compared = 0;
    int denied = 0;
    List<String> disagree = new ArrayList<>();
    try (PrivilegeCheck check = new PrivilegeCheck(pg.connect(), 30)) {
      for (List<String> q : queries) {
        String db = q.get(0);
        if (!check.check(db, null, q.get(1)).verdict().equals(PrivilegeCheck.Answer.PERMIT)) {
          continue; // PostgreSQL rejects it for another reason (counted in PostgresRefereeIT)
        }
        String verdict = check.check(db, "exported", q.get(1)).verdict();
        AccessRecord record = new AccessRecord(++compared, db, "exported", "", q.get(1), "", "", "");
        AccessDecision ours = decider.decide(record, TestData.schemas().get(db), policies.get(db), db);
        denied += verdict.equals(PrivilegeCheck.Answer.DENY) ? 1 : 0;
        if (!ours.decision().equals(verdict)) {
          disagree.add(db + ": PostgreSQL " + verdict + ", ours " + ours.decision() + " [" + ours.rule() + "]: " + q.get(1));
        }
      }
    }
    assertTrue(compared > 3000 && denied > 100, compared + " compared, " + denied + " denied");
    assertEquals(List.of(), disagree.subList(0, Math.min(20, disagree.size())), disagree.size() + " of " + compared + " disagree");
  }

  private static Map<String, String> contents(Path folder) throws Exception {
    Map<String, String> out = new TreeMap<>();
    try (Stream<Path> files = Files.list(folder)) {
      for (Path f : files.toList()) {
        out.put(f.getFileName().toString(), Files.readString(f));
      }
    }
    return out;
  }

  private static void copy(Path from, Path to) throws Exception {
    try (Stream<Path> files = Files.walk(from)) {
      for (Path f : files.toList()) {
        Path target = to.resolve(from.relativize(f).toString());
        if (Files.isDirectory(f)) {
          Files.createDirectories(target);
        } else {
          Files.copy(f, target);
        }
      }
    }
  }
}

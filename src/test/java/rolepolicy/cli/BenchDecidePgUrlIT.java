package rolepolicy.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rolepolicy.TestData;
import rolepolicy.db.Postgres;
import rolepolicy.io.DatasetWriter;

/**
 * bench-decide --pg-url against a database of someone's: a public schema with tables, a schema and
 * a role named like the records' databases and users, and records of a database named public. The
 * database is left as it was — every schema, table, column, privilege, owner, role and row, read
 * from pg_catalog (the embedded binaries have no pg_dump, and the system's pg_dump is older than the
 * server) — whether bench-decide ends well or is refused, and no password is shown.
 */
class BenchDecidePgUrlIT {
  private static final String PASSWORD = "canary-pw-7f3a";
  private static Postgres pg;
  @TempDir static Path dir;
  private static Path records;

  @BeforeAll
  static void setUp() throws Exception {
    pg = Postgres.embedded();
    try (Connection c = pg.connect(); Statement s = c.createStatement()) {
      s.execute("CREATE TABLE public.store_1 (id int PRIMARY KEY, name text);"
          + "INSERT INTO public.store_1 VALUES (1, 'kept'), (2, 'also kept');"
          + "CREATE TABLE public.bike_1 (id int, note text); INSERT INTO public.bike_1 VALUES (7, 'mine');"
          + "CREATE TABLE public.station (id int); INSERT INTO public.station VALUES (3);"
          + "CREATE SCHEMA store_1; CREATE TABLE store_1.invoices (id int); INSERT INTO store_1.invoices VALUES (42);"
          + "CREATE ROLE \"store_1_user_1\" NOLOGIN; GRANT SELECT ON public.store_1 TO store_1_user_1;"
          + "CREATE ROLE nobody LOGIN PASSWORD '" + PASSWORD + "';"
          + "CREATE ROLE maker LOGIN CREATEROLE; GRANT CREATE ON DATABASE postgres TO maker");
    }
    // records of two databases, and those of one copied as a database named public
    List<String> lines = new ArrayList<>();
    try (InputStream in = new GZIPInputStream(Files.newInputStream(TestData.rcrFile()))) {
      Map<String, Integer> taken = new TreeMap<>();
      for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
        ObjectNode r = (ObjectNode) DatasetWriter.JSON.readTree(line);
        String db = r.get("db_id").asText();
        if ((db.equals("store_1") || db.equals("bike_1")) && taken.merge(db, 1, Integer::sum) <= 40) {
          lines.add(line);
          if (db.equals("bike_1")) {
            r.put("db_id", "public");
            r.put("access_policy_sql", r.get("access_policy_sql").asText().replace("bike_1", "public"));
            lines.add(DatasetWriter.JSON.writeValueAsString(r));
          }
        }
      }
    }
    records = Files.write(dir.resolve("records.jsonl"), lines);
  }

  @AfterAll
  static void stop() {
    pg.close();
  }

  private static String url(String user) {
    return pg.url().replaceFirst("\\?.*", "") + "?user=" + user + "&password=" + PASSWORD;
  }

  @Test
  void aDatabaseWithSchemasAndRolesNamedLikeTheRecordsLosesNothing() throws Exception {
    String before = dump();
    CommandRun run = CommandRun.of("bench-decide", records.toString(), "--pg-url", url("postgres"),
        "--runs", "1", "--warmup", "0", "--threads", "1");
    assertEquals(0, run.code(), run.err());
    assertEquals(before, dump());
    assertTrue(run.out().contains("agreement: decide with PostgreSQL 120 of 120"), run.out());
    assertFalse((run.out() + run.err()).contains(PASSWORD), run.out() + run.err());
    assertTrue(run.out().contains("password=[redacted]"), run.out());
  }

  @Test
  void aRoleWithCreateroleThatIsNoSuperuserWorksToo() throws Exception {
    String before = dump();
    CommandRun run = CommandRun.of("bench-decide", records.toString(), "--pg-url", url("maker"),
        "--runs", "1", "--warmup", "0", "--threads", "1");
    assertEquals(0, run.code(), run.err());
    assertTrue(run.out().contains("agreement: decide with PostgreSQL 120 of 120"), run.out());
    assertEquals(before, dump());
  }

  @Test
  void aRoleThatMayCreateNothingIsAnInputErrorNamingIt() throws Exception {
    String before = dump();
    CommandRun run = CommandRun.of("bench-decide", records.toString(), "--pg-url", url("nobody"),
        "--runs", "1", "--warmup", "0", "--threads", "1");
    assertEquals(1, run.code(), run.err());
    assertTrue(run.err().contains("role nobody may not set up") && run.err().contains("CREATEROLE"), run.err());
    assertFalse(run.err().contains("\tat "), run.err());
    assertFalse((run.out() + run.err()).contains(PASSWORD), run.out() + run.err());
    assertEquals(before, dump());
  }

  @Test
  void aFailureHalfwayThroughTheSetUpLeavesTheDatabaseAsItWas() throws Exception {
    List<String> lines = new ArrayList<>(Files.readAllLines(records));
    ObjectNode other = (ObjectNode) DatasetWriter.JSON.readTree(lines.get(lines.size() - 1));
    other.put("access_policy_sql", "GRANT USAGE ON SCHEMA store_1 TO store_1_User_9");
    lines.add(DatasetWriter.JSON.writeValueAsString(other));
    Path failing = Files.write(dir.resolve("failing.jsonl"), lines);
    String before = dump();
    CommandRun run = CommandRun.of("bench-decide", failing.toString(), "--pg-url", url("postgres"),
        "--runs", "1", "--warmup", "0", "--threads", "1");
    assertEquals(1, run.code(), run.err());
    assertTrue(run.err().contains("database store_1 comes with another schema or other GRANTs"), run.err());
    assertEquals(before, dump());
  }

  @Test
  void aRunStoppedHalfwayLeavesTheDatabaseAsItWas() throws Exception {
    String before = dump();
    Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"), Main.class.getName(), "bench-decide", records.toString(),
        "--pg-url", url("postgres"), "--runs", "100000", "--warmup", "0", "--threads", "1")
        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .redirectError(dir.resolve("stopped.err").toFile())
        .start();
    try {
      try (Connection c = pg.connect(); Statement s = c.createStatement()) {
        // polls until its schemas are there, while the child runs (one that ends fails below), for at most 5 minutes
        long giveUp = System.nanoTime() + 300_000_000_000L;
        while (child.isAlive()) {
          assertTrue(System.nanoTime() < giveUp, "bench-decide made no schemas of its own");
          try (ResultSet r = s.executeQuery("SELECT count(*) FROM pg_namespace WHERE nspname LIKE 'rolepolicy\\_%'")) {
            r.next();
            if (r.getInt(1) == 3) {
              break;
            }
          }
          Thread.sleep(50);
        }
      }
    } catch (Throwable t) {
      child.destroyForcibly();
      throw t;
    }
    assertTrue(child.isAlive(), "bench-decide ended before it was stopped: " + Files.readString(dir.resolve("stopped.err")));
    child.destroy(); // SIGTERM: the shutdown hooks run
    child.waitFor();
    assertTrue(Files.readString(dir.resolve("stopped.err")).contains("were dropped"), Files.readString(dir.resolve("stopped.err")));
    assertEquals(before, dump());
  }

  /** The database's catalog (schemas, relations, columns, owners, privileges, roles) and every row of its tables. */
  private static String dump() throws SQLException {
    StringBuilder out = new StringBuilder();
    try (Connection c = pg.connect(); Statement s = c.createStatement()) {
      rows(s, out, "SELECT rolname, rolsuper, rolinherit, rolcreaterole, rolcreatedb, rolcanlogin, rolpassword"
          + " FROM pg_authid ORDER BY 1");
      rows(s, out, "SELECT m.roleid::regrole, m.member::regrole, m.admin_option FROM pg_auth_members m ORDER BY 1, 2");
      rows(s, out, "SELECT datname, datdba::regrole, datacl FROM pg_database ORDER BY 1");
      rows(s, out, "SELECT nspname, nspowner::regrole, nspacl FROM pg_namespace ORDER BY 1");
      rows(s, out, "SELECT n.nspname, c.relname, c.relkind, c.relowner::regrole, c.relacl FROM pg_class c"
          + " JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname NOT IN ('pg_catalog', 'information_schema')"
          + " AND n.nspname NOT LIKE 'pg_toast%' ORDER BY 1, 2");
      rows(s, out, "SELECT n.nspname, c.relname, a.attnum, a.attname, format_type(a.atttypid, a.atttypmod), a.attacl"
          + " FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace"
          + " WHERE a.attnum > 0 AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg_toast%'"
          + " ORDER BY 1, 2, 3");
      rows(s, out, "SELECT defaclrole::regrole, defaclnamespace, defaclobjtype, defaclacl FROM pg_default_acl ORDER BY 1, 2, 3");
      List<String> tables = new ArrayList<>();
      try (ResultSet r = s.executeQuery("SELECT format('%I.%I', schemaname, tablename) FROM pg_tables"
          + " WHERE schemaname NOT IN ('pg_catalog', 'information_schema') ORDER BY 1")) {
        while (r.next()) {
          tables.add(r.getString(1));
        }
      }
      for (String table : tables) {
        rows(s, out, "SELECT * FROM " + table + " ORDER BY 1");
      }
    }
    return out.toString();
  }

  private static void rows(Statement s, StringBuilder out, String query) throws SQLException {
    out.append(query).append('\n');
    try (ResultSet r = s.executeQuery(query)) {
      ResultSetMetaData meta = r.getMetaData();
      while (r.next()) {
        for (int i = 1; i <= meta.getColumnCount(); i++) {
          out.append(i > 1 ? " | " : "").append(r.getString(i));
        }
        out.append('\n');
      }
    }
  }
}

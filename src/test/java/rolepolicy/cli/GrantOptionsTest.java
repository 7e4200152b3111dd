package rolepolicy.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rolepolicy.TestData;
import rolepolicy.io.DatasetWriter;

/** The grants profile's options: read only by that profile, and role names read as PostgreSQL reads them. */
class GrantOptionsTest {
  @TempDir Path dir;

  /** Spider's concert_singer alone, as a tables file. */
  private Path tables() throws Exception {
    JsonNode all = DatasetWriter.JSON.readTree(TestData.spiderDir().resolve("tables.json").toFile());
    var one = DatasetWriter.JSON.createArrayNode();
    all.forEach(db -> {
      if (db.get("db_id").asText().equals("concert_singer")) {
        one.add(db);
      }
    });
    Path file = dir.resolve("tables.json");
    Files.writeString(file, DatasetWriter.JSON.writeValueAsString(one));
    return file;
  }

  @Test
  void grantOptionsWithoutTheGrantsProfileAreRefused() throws Exception {
    Path grants = Files.writeString(dir.resolve("g.sql"), "GRANT USAGE ON SCHEMA concert_singer TO r;");
    String tables = tables().toString();
    CommandRun both = CommandRun.of("export-grants", "--tables", tables, "--grants", grants.toString(), "--grant-role", "r",
        "--to", "x", "--out", dir.resolve("out").toString());
    assertEquals(Main.USAGE, both.code(), both.out() + both.err());
    assertTrue(both.err().contains("--grants is read only by profile grants, not spec-v1: add --profile grants"), both.err());
    CommandRun role = CommandRun.of("export-grants", "--tables", tables, "--grant-role", "r", "--profile", "strict",
        "--to", "x", "--out", dir.resolve("out").toString());
    assertEquals(Main.USAGE, role.code(), role.out() + role.err());
    assertTrue(role.err().contains("--grant-role is read only by profile grants, not strict: add --profile grants"), role.err());
    CommandRun records = CommandRun.of("generate", "--access-records", TestData.rcrFile().toString(),
        "--out", dir.resolve("out").toString());
    assertEquals(Main.USAGE, records.code(), records.out() + records.err());
    assertTrue(records.err().contains("--access-records is read only by profile grants, not spec-v1: add --profile grants"),
        records.err());
    assertFalse(Files.exists(dir.resolve("out")));
  }

  @Test
  void aQuotedGrantRoleKeepsItsCaseAnUnquotedOneIsFolded() throws Exception {
    Path grants = Files.writeString(dir.resolve("g.sql"), """
        GRANT USAGE ON SCHEMA concert_singer TO "Analyst1", analyst1;
        GRANT SELECT (name) ON concert_singer.singer TO "Analyst1";
        GRANT SELECT (country) ON concert_singer.singer TO Analyst1;
        """);
    String tables = tables().toString();
    for (String[] c : new String[][] {{"\"Analyst1\"", "\"name\"", "\"country\""}, {"Analyst1", "\"country\"", "\"name\""}}) {
      Path out = dir.resolve("out-" + c[0].length());
      CommandRun run = CommandRun.of("export-grants", "--tables", tables, "--profile", "grants", "--grants", grants.toString(),
          "--grant-role", c[0], "--to", "x", "--out", out.toString());
      assertEquals(0, run.code(), run.err());
      String sql = Files.readString(out.resolve("grants.sql"));
      assertTrue(sql.contains("GRANT SELECT (" + c[1] + ") ON \"concert_singer\".\"singer\""), c[0] + ": " + sql);
      assertFalse(sql.contains(c[2]), c[0] + ": " + sql);
    }
  }

  @Test
  void exportGrantsReplacesAFileItDidNotWriteOnlyWithForce() throws Exception {
    Path out = Files.createDirectories(dir.resolve("out"));
    Files.writeString(out.resolve("grants.sql"), "-- someone else's\n");
    String tables = tables().toString();
    String none = Files.writeString(dir.resolve("none.json"), "[]").toString();
    CommandRun refused = CommandRun.of("export-grants", "--tables", tables, "--overrides", none, "--to", "x", "--out", out.toString());
    assertEquals(Main.USAGE, refused.code(), refused.err());
    assertTrue(refused.err().contains("give --force to replace it"), refused.err());
    assertEquals("-- someone else's\n", Files.readString(out.resolve("grants.sql")));
    CommandRun forced = CommandRun.of("export-grants", "--tables", tables, "--overrides", none, "--to", "x", "--out", out.toString(),
        "--force");
    assertEquals(0, forced.code(), forced.err());
    assertTrue(Files.readString(out.resolve("grants.sql")).startsWith("GRANT USAGE ON SCHEMA \"concert_singer\""));
  }

  @Test
  void anEmptyGrantsFileIsAnErrorAndGrantsToAnotherRoleAWarning() throws Exception {
    String tables = tables().toString();
    Path empty = Files.writeString(dir.resolve("empty.sql"), "-- nothing yet\n");
    CommandRun none = CommandRun.of("export-grants", "--tables", tables, "--profile", "grants", "--grants", empty.toString(),
        "--grant-role", "r", "--to", "x", "--out", dir.resolve("out").toString());
    assertEquals(Main.BAD_INPUT, none.code(), none.out() + none.err());
    assertTrue(none.err().contains("empty.sql: no GRANT of SELECT or USAGE"), none.err());
    Path other = Files.writeString(dir.resolve("other.sql"),
        "GRANT USAGE ON SCHEMA concert_singer TO s; GRANT SELECT ON concert_singer.singer TO s;");
    CommandRun warned = CommandRun.of("export-grants", "--tables", tables, "--profile", "grants", "--grants", other.toString(),
        "--grant-role", "r", "--to", "x", "--out", dir.resolve("out").toString());
    assertEquals(0, warned.code(), warned.err());
    assertTrue(warned.err().contains("warning: " + other + " grants r nothing (no SELECT or USAGE to it or to PUBLIC)"),
        warned.err());
    assertTrue(warned.out().contains(": 0 columns granted"), warned.out());
  }
}

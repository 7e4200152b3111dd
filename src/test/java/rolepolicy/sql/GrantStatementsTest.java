package rolepolicy.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;
import rolepolicy.model.Grant;
import rolepolicy.spider.Schema;

/** The GRANT statements read, the forms refused with their line, and Spider-AC's lenient schema text. */
class GrantStatementsTest {
  private static List<String> read(String text) {
    return GrantStatements.parse(text, "f").stream()
        .map(g -> g.grantee() + " " + g.privilege() + " " + g.schema() + "." + g.table() + "." + g.column() + " @" + g.source())
        .toList();
  }

  @Test
  void eachFormGivesOneFactPerRolePrivilegeObjectAndColumn() {
    assertEquals(List.of(
            "r USAGE s.null.null @f:1",
            "r SELECT s.t.a @f:2", "r SELECT s.t.B c @f:2", "q SELECT s.t.a @f:2", "q SELECT s.t.B c @f:2",
            "r SELECT null.t.null @f:4", "r SELECT null.u.null @f:4",
            "public SELECT s.null.null @f:5",
            "r SELECT x.y.null @f:6", "r USAGE s.null.null @f:7"),
        read("GRANT USAGE ON SCHEMA S TO R;\n"
            + "GRANT SELECT (A, \"B c\"), INSERT (d) ON s.T TO r, GROUP Q WITH GRANT OPTION;\n"
            + "-- a comment; and /* another */\n"
            + "GRANT SELECT ON TABLE t, u TO r GRANTED BY admin;\n"
            + "GRANT SELECT ON ALL TABLES IN SCHEMA s TO PUBLIC;\n"
            + "GRANT ALL PRIVILEGES ON x.y TO r;\n"
            + "GRANT ALL ON SCHEMA s TO r;"));
  }

  @Test
  void anythingElseIsAnErrorNamingItsLine() {
    assertEquals("f:2: only GRANT statements are read, not one beginning 'REVOKE'",
        assertThrows(SqlAnalysisException.class, () -> read("GRANT USAGE ON SCHEMA s TO r;\nREVOKE SELECT ON t FROM r")).getMessage());
    assertEquals("f:1: expected TO, found ';'",
        assertThrows(SqlAnalysisException.class, () -> read("GRANT SELECT ON t;")).getMessage());
    assertEquals("f:1: the statement ends too early",
        assertThrows(SqlAnalysisException.class, () -> read("GRANT SELECT (a")).getMessage());
    assertEquals("f:3: a quoted name is not closed",
        assertThrows(SqlAnalysisException.class, () -> read("\n\nGRANT SELECT (\"a) ON t TO r")).getMessage());
  }

  @Test
  void aGrantOfRoleMembershipIsRefusedByNameNotAsAMissingOn() {
    assertEquals("f:2: GRANT role TO role (membership in a role) is not supported: grant the privileges themselves,"
            + " GRANT SELECT ... ON table TO role",
        assertThrows(SqlAnalysisException.class, () -> read("GRANT USAGE ON SCHEMA s TO r;\nGRANT analyst TO bob;")).getMessage());
    assertEquals("f:1: GRANT role TO role (membership in a role) is not supported: grant the privileges themselves,"
            + " GRANT SELECT ... ON table TO role",
        assertThrows(SqlAnalysisException.class, () -> read("GRANT analyst, auditor TO bob WITH ADMIN OPTION")).getMessage());
  }

  @Test
  void spiderAcsSchemaTextIsReadLeniently() {
    Schema schema = TableDefinitions.schema("orchestra",
        "CREATE TABLE performance (performance_id bigint, official_ratings_(millions) double precision, "
            + "\"Weekly Rank\" text NOT NULL, PRIMARY KEY (performance_id));", "f");
    assertEquals(List.of("performance_id bigint true", "official_ratings_(millions) double precision false",
            "Weekly Rank text false"),
        schema.realColumns().stream().map(c -> c.name() + " " + c.type() + " " + c.primaryKey()).toList());
    assertEquals("f: statement 1 is not CREATE TABLE name (...): CREATE VIEW v AS SELECT 1",
        assertThrows(SqlAnalysisException.class, () -> TableDefinitions.schema("d", "CREATE VIEW v AS SELECT 1", "f")).getMessage());
    assertEquals("f: column t.a is defined twice",
        assertThrows(SqlAnalysisException.class, () -> TableDefinitions.schema("d", "CREATE TABLE t (a int, A text)", "f")).getMessage());
  }

  @Test
  void unquotedColumnNamesThatAreNotIdentifiersAreReadWhole() {
    Schema schema = TableDefinitions.schema("perpetrator",
        "CREATE TABLE people (people_id bigint, home town text, %_change_2007 text, 18_49_rating_share double precision,"
            + " eg agree objectives text NOT NULL, start date timestamp without time zone, weight numeric(5, 2));", "f");
    assertEquals(List.of("people_id: bigint", "home town: text", "%_change_2007: text", "18_49_rating_share: double precision",
            "eg agree objectives: text", "start date: timestamp without time zone", "weight: numeric(5, 2)"),
        schema.realColumns().stream().map(c -> c.name() + ": " + c.type()).toList());
  }
}

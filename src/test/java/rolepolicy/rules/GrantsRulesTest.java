package rolepolicy.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import rolepolicy.TestData;
import rolepolicy.decide.AccessDecider;
import rolepolicy.decide.AccessDecision;
import rolepolicy.spider.AccessRecord;
import rolepolicy.engine.ColumnPolicy;
import rolepolicy.engine.DatabasePolicies;
import rolepolicy.engine.PolicyAssigner;
import rolepolicy.engine.PolicyLoop;
import rolepolicy.engine.TextAnalyser;
import rolepolicy.engine.TextQuery;
import rolepolicy.model.GrantRole;
import rolepolicy.model.Policy;
import rolepolicy.model.Refusal;
import rolepolicy.spider.Schema;
import rolepolicy.sql.GrantStatements;
import rolepolicy.sql.TableDefinitions;

/**
 * One test per rule of the grants profile ({@code rules/profiles/grants/}), on Spider-AC's bike_1
 * schema (two of its tables, as its schema_ddl gives them) and GRANT statements in its form.
 */
class GrantsRulesTest {
  static final String GRANTED_IN_SCHEMA = "A column granted SELECT in its database's schema, with USAGE on it, is Public";
  static final String GRANTED_IN_PUBLIC = "A column granted SELECT in the public schema is Public";
  static final String NOT_GRANTED = "Every column not granted is Hidden";
  static final String REFERENCED = "A column not granted may not be referenced anywhere";
  static final String STAR = "SELECT * reads every column of its tables";
  static final String TABLE_READ = "A table read needs at least one column the role may read";
  static final String REFUSE_READ = "Refuse a read of a column or table the role may not read";
  static final String NO_TABLE = "A GRANT statement naming a table its database lacks grants nothing";
  static final String NO_COLUMN = "A GRANT statement naming a column its table lacks grants nothing";
  static final String NO_CLAUSE_REWRITE = "No rule rewrites a column not granted in GROUP BY, HAVING or ORDER BY";

  private static final String DDL =
      "CREATE TABLE station (id bigint, name text, lat double precision, long double precision, dock_count bigint,"
          + " city text, installation_date text);\n"
          + "CREATE TABLE status (station_id bigint, bikes_available integer, docks_available integer, time text);";

  /** bike_1_User_3's own grants (Spider-AC): some columns of each table. */
  private static final String USER_3 =
      "GRANT USAGE ON SCHEMA bike_1 TO bike_1_User_3;\n"
          + "GRANT SELECT (id, name, lat) ON bike_1.station TO bike_1_User_3;\n"
          + "GRANT SELECT (station_id, bikes_available) ON bike_1.status TO bike_1_User_3;";

  private static final Schema SCHEMA = TableDefinitions.schema("bike_1", DDL, "test");

  private static DatabasePolicies policies(String grants, String role) {
    List<Object> facts = new ArrayList<>(GrantStatements.parse(grants, "test"));
    facts.add(new GrantRole(role.toLowerCase(java.util.Locale.ROOT)));
    return new PolicyAssigner(TestData.rules("grants"))
        .assign(Map.of("bike_1", SCHEMA), List.of(), "no overrides", facts).get("bike_1");
  }

  /** Each column's policy and the rule that set it: {@code table.column -> Policy (rule)}. */
  private static Map<String, String> assigned(String grants, String role) {
    Map<String, String> out = new LinkedHashMap<>();
    for (ColumnPolicy c : policies(grants, role).columns()) {
      out.put(c.column().key(), c.finalPolicy() + " (" + c.autoRule() + ")");
    }
    return out;
  }

  private static AccessDecision decide(String grants, String sql) {
    return new AccessDecider(TestData.rules("grants"))
        .decide(new AccessRecord(1, "bike_1", "User_3", "", sql, grants, DDL, "[]"), "test");
  }

  private static PolicyLoop.Outcome outcome(String grants, String sql) {
    return new PolicyLoop(TestData.engine("grants"))
        .run(TextQuery.of(new TextAnalyser(SCHEMA), sql), policies(grants, "bike_1_User_3"), null);
  }

  @Test
  @DisplayName(GRANTED_IN_SCHEMA)
  void aColumnGrantedInItsSchemaWithUsageIsPublic() {
    Map<String, String> policies = assigned(USER_3, "bike_1_User_3");
    assertEquals("Public (" + GRANTED_IN_SCHEMA + ")", policies.get("station.name"));
    assertEquals("Public (" + GRANTED_IN_SCHEMA + ")", policies.get("status.bikes_available"));
    assertEquals("Hidden (" + NOT_GRANTED + ")", policies.get("station.city"));
    // a table-level grant and ON ALL TABLES IN SCHEMA cover every column; so does a grant to PUBLIC
    Map<String, String> table = assigned("GRANT USAGE ON SCHEMA bike_1 TO r; GRANT SELECT ON bike_1.station TO r", "r");
    assertEquals("Public (" + GRANTED_IN_SCHEMA + ")", table.get("station.city"));
    assertEquals("Hidden (" + NOT_GRANTED + ")", table.get("status.time")); // another table's grant
    assertEquals("Public (" + GRANTED_IN_SCHEMA + ")",
        assigned("GRANT USAGE ON SCHEMA bike_1 TO r; GRANT SELECT ON ALL TABLES IN SCHEMA bike_1 TO r", "r")
            .get("status.time"));
    assertEquals("Public (" + GRANTED_IN_SCHEMA + ")",
        assigned("GRANT USAGE ON SCHEMA bike_1 TO PUBLIC; GRANT SELECT (city) ON bike_1.station TO PUBLIC", "r")
            .get("station.city"));
    // without USAGE on the schema, a SELECT grant reads nothing; another role's grant is not this one's;
    // a grant in another database's schema is not this database's
    assertEquals("Hidden (" + NOT_GRANTED + ")",
        assigned("GRANT SELECT (name) ON bike_1.station TO r", "r").get("station.name"));
    assertEquals("Hidden (" + NOT_GRANTED + ")", assigned(USER_3, "bike_1_User_4").get("station.name"));
    assertEquals("Hidden (" + NOT_GRANTED + ")",
        assigned("GRANT USAGE ON SCHEMA other TO r; GRANT SELECT (name) ON other.station TO r", "r").get("station.name"));
    // USAGE and SELECT must both be the role's (or PUBLIC's), USAGE on the grant's own schema
    assertEquals("Hidden (" + NOT_GRANTED + ")",
        assigned("GRANT USAGE ON SCHEMA bike_1 TO r; GRANT SELECT (name) ON bike_1.station TO s", "r").get("station.name"));
    assertEquals("Hidden (" + NOT_GRANTED + ")",
        assigned("GRANT USAGE ON SCHEMA bike_1 TO s; GRANT SELECT (name) ON bike_1.station TO r", "r").get("station.name"));
    assertEquals("Hidden (" + NOT_GRANTED + ")",
        assigned("GRANT USAGE ON SCHEMA other TO r; GRANT SELECT (name) ON bike_1.station TO r", "r").get("station.name"));
    // beside an unqualified grant, which is the public schema's rule's
    Map<String, String> both = assigned(
        "GRANT USAGE ON SCHEMA bike_1 TO r; GRANT SELECT (city) ON bike_1.station TO r; GRANT SELECT (name) ON station TO r", "r");
    assertEquals("Public (" + GRANTED_IN_SCHEMA + ")", both.get("station.city"));
    assertEquals("Public (" + GRANTED_IN_PUBLIC + ")", both.get("station.name"));
  }

  @Test
  @DisplayName(GRANTED_IN_PUBLIC)
  void aColumnGrantedInThePublicSchemaIsPublic() {
    Map<String, String> policies = assigned("GRANT SELECT (name, city) ON station TO r", "r");
    assertEquals("Public (" + GRANTED_IN_PUBLIC + ")", policies.get("station.name"));
    assertEquals("Public (" + GRANTED_IN_PUBLIC + ")", policies.get("station.city"));
    assertEquals("Hidden (" + NOT_GRANTED + ")", policies.get("station.lat"));
    assertEquals("Public (" + GRANTED_IN_PUBLIC + ")",
        assigned("GRANT SELECT ON TABLE public.status TO r", "r").get("status.time"));
    assertEquals("Hidden (" + NOT_GRANTED + ")", assigned("GRANT SELECT ON station TO s", "r").get("station.name"));
    // a grant in a schema of its own is not the public schema's: it needs USAGE there
    assertEquals("Hidden (" + NOT_GRANTED + ")", assigned("GRANT SELECT (name) ON bike_1.station TO r", "r").get("station.name"));
    // a table's grant is not another table's
    assertEquals("Hidden (" + NOT_GRANTED + ")", assigned("GRANT SELECT ON station TO r", "r").get("status.time"));
    // a column granted both ways is the database schema's rule's, once
    assertEquals("Public (" + GRANTED_IN_SCHEMA + ")", assigned(
        "GRANT USAGE ON SCHEMA bike_1 TO r; GRANT SELECT (name) ON bike_1.station TO r; GRANT SELECT (name) ON station TO r", "r")
        .get("station.name"));
  }

  @Test
  @DisplayName(NOT_GRANTED)
  void everyColumnNotGrantedIsHidden() {
    Map<String, String> policies = assigned("", "r");
    assertEquals(11, policies.size());
    policies.values().forEach(p -> assertEquals("Hidden (" + NOT_GRANTED + ")", p));
    // nothing but Public and Hidden, whatever a column's name (spec-v1 makes station.id JoinOnly)
    assertEquals(List.of(Policy.Public, Policy.Hidden),
        policies(USER_3, "bike_1_User_3").columns().stream().map(ColumnPolicy::finalPolicy).distinct().toList());
  }

  @Test
  @DisplayName(REFERENCED)
  void aColumnNotGrantedMayNotBeReferencedAnywhere() {
    // station.city is not granted to bike_1_User_3: each clause that names it is denied
    for (String sql : List.of(
        "SELECT city FROM station",
        "SELECT count(DISTINCT city) FROM station",
        "SELECT T1.name FROM station AS T1 JOIN status AS T2 ON T1.city = T2.time",
        "SELECT name FROM station WHERE city = 'San Jose'",
        "SELECT count(*) FROM station GROUP BY city",
        "SELECT name FROM station GROUP BY name HAVING max(city) > 'a'",
        "SELECT name FROM station ORDER BY city")) {
      AccessDecision d = decide(USER_3, sql);
      assertEquals(AccessDecision.DENY, d.decision(), sql);
      assertEquals(REFERENCED, d.rule(), sql);
      assertEquals("station", d.table(), sql);
      assertEquals("city", d.column(), sql);
    }
    AccessDecision granted = decide(USER_3, "SELECT name, lat FROM station WHERE id > 3 ORDER BY lat");
    assertEquals(AccessDecision.PERMIT, granted.decision());
    assertNull(granted.rule());
  }

  @Test
  @DisplayName(STAR)
  void selectStarReadsEveryColumnOfItsTables() {
    AccessDecision star = decide(USER_3, "SELECT * FROM station");
    assertEquals(AccessDecision.DENY, star.decision());
    assertEquals(STAR, star.rule());
    assertEquals("station", star.table());
    assertEquals("city", star.column()); // the first column not granted, by name
    String all = "GRANT USAGE ON SCHEMA bike_1 TO bike_1_User_3; GRANT SELECT ON bike_1.station TO bike_1_User_3;"
        + " GRANT SELECT (station_id) ON bike_1.status TO bike_1_User_3";
    assertEquals(AccessDecision.PERMIT, decide(all, "SELECT * FROM station").decision());
    // T.* reads its own table only; a * inside EXISTS reads its tables too
    assertEquals(AccessDecision.PERMIT,
        decide(all, "SELECT T1.* FROM station AS T1 JOIN status AS T2 ON T1.id = T2.station_id").decision());
    AccessDecision both = decide(all, "SELECT * FROM station AS T1 JOIN status AS T2 ON T1.id = T2.station_id");
    assertEquals(STAR, both.rule());
    assertEquals("status", both.table());
    assertEquals(STAR, decide(all, "SELECT name FROM station WHERE EXISTS (SELECT * FROM status)").rule());
  }

  @Test
  @DisplayName(TABLE_READ)
  void aTableReadNeedsAtLeastOneColumnTheRoleMayRead() {
    String stationOnly = "GRANT USAGE ON SCHEMA bike_1 TO bike_1_User_3; GRANT SELECT (city) ON bike_1.station TO bike_1_User_3";
    AccessDecision count = decide(stationOnly, "SELECT count(*) FROM status");
    assertEquals(AccessDecision.DENY, count.decision());
    assertEquals(TABLE_READ, count.rule());
    assertEquals("status", count.table());
    assertNull(count.column());
    // one column granted is enough for a read that names none
    assertEquals(AccessDecision.PERMIT, decide(stationOnly, "SELECT count(*) FROM station").decision());
    // a table joined without naming a column is read too
    assertEquals(TABLE_READ, decide(stationOnly, "SELECT T1.city FROM station AS T1 JOIN status AS T2").rule());
  }

  @Test
  @DisplayName(REFUSE_READ)
  void refuseAReadOfAColumnOrTableTheRoleMayNotRead() {
    Refusal star = assertInstanceOf(Refusal.class, outcome(USER_3, "SELECT * FROM status").last().decision());
    assertEquals("STAR_READS_HIDDEN", star.reason());
    assertEquals(REFUSE_READ, star.rule());
    String stationOnly = "GRANT USAGE ON SCHEMA bike_1 TO bike_1_User_3; GRANT SELECT (city) ON bike_1.station TO bike_1_User_3";
    Refusal table = assertInstanceOf(Refusal.class, outcome(stationOnly, "SELECT count(*) FROM status").last().decision());
    assertEquals("NO_COLUMN_OF_TABLE", table.reason());
    assertInstanceOf(rolepolicy.model.Answer.class, outcome(USER_3, "SELECT count(*) FROM status").last().decision());
    // several reads denied: the first by table, then by reason (station's * before status's bare read)
    Refusal first = assertInstanceOf(Refusal.class,
        outcome(stationOnly, "SELECT * FROM station AS T1 JOIN status AS T2").last().decision());
    assertEquals("STAR_READS_HIDDEN", first.reason());
    Refusal byReason = assertInstanceOf(Refusal.class,
        outcome(stationOnly, "SELECT T1.* FROM status AS T1 JOIN station AS T2 ON T2.city = 'x'").last().decision());
    assertEquals("NO_COLUMN_OF_TABLE", byReason.reason());
  }

  @Test
  @DisplayName(NO_CLAUSE_REWRITE)
  void noRuleRewritesAColumnNotGrantedInGroupByHavingOrOrderBy() {
    Refusal refusal = assertInstanceOf(Refusal.class,
        outcome(USER_3, "SELECT name FROM station ORDER BY city").last().decision());
    assertEquals("NO_RULE", refusal.reason());
    assertEquals(NO_CLAUSE_REWRITE, refusal.rule());
    assertEquals("station.city", refusal.ref().column());
    // a SELECT-list column not granted is R1's, as in every profile: replaced by a granted _id column
    PolicyLoop.Outcome replaced = outcome(USER_3, "SELECT docks_available FROM status");
    assertInstanceOf(rolepolicy.model.Answer.class, replaced.last().decision());
    assertEquals("R1", replaced.steps().get(0).step().rule().substring(0, 2));
  }

  @Test
  @DisplayName(NO_TABLE)
  void aGrantStatementNamingATableItsDatabaseLacksGrantsNothing() {
    String usage = "GRANT USAGE ON SCHEMA bike_1 TO r; ";
    // quoted, "Station" is not station: PostgreSQL says relation "bike_1.Station" does not exist
    assertEquals("Hidden (" + NOT_GRANTED + ")", assigned(usage + "GRANT SELECT ON \"bike_1\".\"Station\" TO r", "r").get("station.name"));
    // the whole statement fails: status, named beside a missing table, is not granted either
    Map<String, String> both = assigned(usage + "GRANT SELECT ON bike_1.status, bike_1.nosuch TO r", "r");
    assertEquals("Hidden (" + NOT_GRANTED + ")", both.get("status.time"));
    // unquoted names fold, in any case; quoted lower-case names are the same names
    assertEquals("Public (" + GRANTED_IN_SCHEMA + ")", assigned(usage + "GRANT SELECT ON BIKE_1.Station TO r", "r").get("station.name"));
    assertEquals("Public (" + GRANTED_IN_SCHEMA + ")",
        assigned("GRANT USAGE ON SCHEMA \"bike_1\" TO r; GRANT SELECT ON \"bike_1\".\"station\" TO r", "r").get("station.name"));
    // decide: the quoted grant reads nothing
    assertEquals(AccessDecision.DENY, decide("GRANT USAGE ON SCHEMA bike_1 TO bike_1_User_3;"
        + " GRANT SELECT ON \"bike_1\".\"Station\" TO bike_1_User_3", "SELECT name FROM station").decision());
  }

  @Test
  @DisplayName(NO_COLUMN)
  void aGrantStatementNamingAColumnItsTableLacksGrantsNothing() {
    // PostgreSQL: column "nosuch" of relation "station" does not exist, and id is not granted either
    Map<String, String> policies = assigned("GRANT USAGE ON SCHEMA bike_1 TO r; GRANT SELECT (id, nosuch) ON bike_1.station TO r;"
        + " GRANT SELECT (time) ON bike_1.status TO r", "r");
    assertEquals("Hidden (" + NOT_GRANTED + ")", policies.get("station.id"));
    assertEquals("Public (" + GRANTED_IN_SCHEMA + ")", policies.get("status.time")); // another statement, on the same line
    // a quoted column name keeps its case: "Name" is not name
    Map<String, String> quoted = assigned("GRANT USAGE ON SCHEMA bike_1 TO r; GRANT SELECT (\"Name\", city) ON bike_1.station TO r", "r");
    assertEquals("Hidden (" + NOT_GRANTED + ")", quoted.get("station.city"));
    assertEquals("Public (" + GRANTED_IN_SCHEMA + ")",
        assigned("GRANT USAGE ON SCHEMA bike_1 TO r; GRANT SELECT (\"name\", CITY) ON bike_1.station TO r", "r").get("station.city"));
    AccessDecision d = decide("GRANT USAGE ON SCHEMA bike_1 TO bike_1_User_3;"
        + " GRANT SELECT (name, nosuch) ON bike_1.station TO bike_1_User_3", "SELECT name FROM station");
    assertEquals(AccessDecision.DENY, d.decision());
    assertEquals("name", d.column());
  }
}

package rolepolicy.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import rolepolicy.spider.Schema;

/**
 * Every gold SQL of BIRD dev analyses, or is listed in {@code bird-unanalysable.tsv} with the
 * analyser's reason; the list is held exactly. On all of them the fast parser, where it accepts,
 * agrees with JSqlParser, spans name their references, SQLite compiles the text against the schema,
 * and every edit of every reference gives text that analyses to the intended references and
 * compiles. Roles on real queries with backquoted names, CAST, CASE, IIF, SUBSTR, STRFTIME, window
 * functions, WITH and LIMIT m, n are checked one by one.
 */
class BirdSqlTest {
  /** A query with its analysis, or the analyser's error. */
  private record Analysed(BenchmarkQueries.Query query, SqlAnalysis analysis, String error) {}

  private static List<Analysed> analysed;
  private static SchemaDatabases databases;

  @BeforeAll
  static void analyseAll() {
    databases = new SchemaDatabases();
    List<Analysed> list = new ArrayList<>();
    for (BenchmarkQueries.Query q : BenchmarkQueries.bird()) {
      try {
        list.add(new Analysed(q, new SqlAnalyzer(q.schema()).analyse(q.sql()), null));
      } catch (SqlAnalysisException e) {
        list.add(new Analysed(q, null, e.getMessage()));
      }
    }
    analysed = List.copyOf(list);
  }

  @AfterAll
  static void closeDatabases() throws SQLException {
    databases.close();
  }

  @Test
  void schemasAreReadWithTheirNamesAsWritten() {
    Map<String, Schema> schemas = BenchmarkQueries.birdSchemas();
    assertEquals(11, schemas.size());
    assertEquals(798, schemas.values().stream().mapToInt(s -> s.realColumns().size()).sum());
    Schema schools = schemas.get("california_schools");
    assertEquals(
        "Free Meal Count (K-12)",
        schools.columnByKey("frpm.free meal count (k-12)").orElseThrow().name());
    assertEquals(
        "Percent (%) Eligible FRPM (K-12)",
        schools.columnByKey("FRPM.Percent (%) Eligible FRPM (K-12)").orElseThrow().name());
    assertEquals("T-CHO", schemas.get("thrombosis_prediction").columnByKey("laboratory.t-cho").orElseThrow().name());
  }

  @Test
  void everyGoldSqlAnalysesOrIsListedWithItsReason() {
    List<String> failed = new ArrayList<>();
    for (Analysed a : analysed) {
      if (a.error() != null) {
        failed.add(a.query().id() + "\t" + a.query().schema().dbId() + "\t" + a.error());
      }
    }
    System.out.printf(
        "BIRD dev: %d gold queries, %d analysed, %d unanalysable%n",
        analysed.size(), analysed.size() - failed.size(), failed.size());
    failed.forEach(f -> System.out.println("  " + f));
    assertEquals(1534, analysed.size());
    assertEquals(listed(), new TreeSet<>(failed), "bird-unanalysable.tsv against the analyser");
  }

  /** The listed queries: {@code question_id}, {@code db_id} and reason, tab-separated. */
  private static TreeSet<String> listed() {
    try (InputStream in = BirdSqlTest.class.getResourceAsStream("/bird-unanalysable.tsv")) {
      TreeSet<String> lines = new TreeSet<>();
      for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
        if (!line.isBlank() && !line.startsWith("#") && !line.startsWith("question_id\t")) {
          lines.add(line);
        }
      }
      return lines;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Test
  void fastParserAgreesWithJSqlParserWhereItAccepts() {
    int accepted = 0;
    List<String> wrong = new ArrayList<>();
    for (Analysed a : analysed) {
      String sql = a.query().sql();
      String fast = ParseTrees.fast(sql);
      if (fast == null) {
        continue;
      }
      accepted++;
      SqlAnalyzer analyzer = new SqlAnalyzer(a.query().schema());
      if (!fast.equals(ParseTrees.jsqlparser(sql))) {
        wrong.add("tree differs: " + a.query().id());
      } else if (!analyzer.analyse(sql, true).equals(analyzer.analyse(sql, false))) {
        wrong.add("analysis differs: " + a.query().id());
      }
    }
    System.out.printf("BIRD dev: the fast parser accepts %d of %d%n", accepted, analysed.size());
    assertEquals(List.of(), wrong);
    assertTrue(accepted > 0);
  }

  @Test
  void spansCoverTheReferencesTheyName() {
    List<String> wrong = new ArrayList<>();
    for (Analysed a : analysed) {
      if (a.analysis() == null) {
        continue;
      }
      String sql = a.query().sql();
      for (TextRef ref : a.analysis().refs()) {
        String name = ref.column().substring(ref.column().indexOf('.') + 1);
        boolean ok =
            Identifiers.unquote(ref.nameSpan().text(sql)).equalsIgnoreCase(name)
                && ref.columnSpan().end() == ref.nameSpan().end()
                && (ref.itemSpan() == null || contains(ref.itemSpan(), ref.columnSpan()))
                && (ref.aggregateSpan() == null || contains(ref.aggregateSpan(), ref.columnSpan()));
        if (!ok) {
          wrong.add(a.query().id() + " " + ref);
        }
      }
    }
    assertEquals(List.of(), wrong);
  }

  private static boolean contains(Span outer, Span inner) {
    return outer.start() <= inner.start() && inner.end() <= outer.end();
  }

  @Test
  void everyGoldSqlCompilesInSqliteOnItsSchema() {
    List<String> failed = new ArrayList<>();
    for (Analysed a : analysed) {
      String error = databases.compileError(a.query().schema(), a.query().sql());
      if (error != null) {
        failed.add(a.query().id() + " " + error);
      }
    }
    assertEquals(List.of(), failed);
  }

  @Test
  void everyEditOfEveryReferenceAnalysesAsIntendedAndCompiles() {
    EditChecks checks = new EditChecks(databases);
    for (Analysed a : analysed) {
      if (a.analysis() != null) {
        checks.check(a.query().id(), a.query().schema(), a.analysis());
      }
    }
    System.out.println("BIRD dev edits checked: " + checks.counts());
    assertEquals(List.of(), checks.failures);
    assertTrue(checks.counts().values().stream().allMatch(n -> n > 500), checks.counts()::toString);
  }

  // Roles on real queries (docs/decisions.md, "BIRD and KaggleDBQA SQL")

  private static List<String> refs(String questionId) {
    Analysed a =
        analysed.stream().filter(x -> x.query().id().equals(questionId)).findFirst().orElseThrow();
    return a.analysis().refs().stream().map(TextRef::toString).toList();
  }

  private static final Map<String, List<String>> SPOT_CHECKS = spotChecks();

  private static Map<String, List<String>> spotChecks() {
    Map<String, List<String>> checks = new LinkedHashMap<>();
    // SELECT CAST(`Free Meal Count (K-12)` AS REAL) / `Enrollment (K-12)` FROM frpm
    // ORDER BY `Enrollment (K-12)` DESC LIMIT 9, 2
    checks.put(
        "31",
        List.of(
            "frpm.free meal count (k-12) SelectExpr item=0",
            "frpm.enrollment (k-12) SelectExpr item=0",
            "frpm.enrollment (k-12) OrderKey"));
    // SELECT CAST((SUM(IIF(T3.date = '1998-12-27', T3.balance, 0)) - SUM(IIF(T3.date =
    // '1993-03-22', T3.balance, 0))) AS REAL) * 100 / SUM(IIF(T3.date = '1993-03-22', T3.balance,
    // 0)) FROM loan AS T1 INNER JOIN account AS T2 ON T1.account_id = T2.account_id INNER JOIN
    // trans AS T3 ON T3.account_id = T2.account_id WHERE T1.date = '1993-07-05'
    checks.put(
        "116",
        List.of(
            "trans.date AggArg agg=4 item=0",
            "trans.balance AggArg agg=4 item=0",
            "trans.date AggArg agg=4 item=0",
            "trans.balance AggArg agg=4 item=0",
            "trans.date AggArg agg=4 item=0",
            "trans.balance AggArg agg=4 item=0",
            "loan.account_id JoinCond",
            "account.account_id JoinCond",
            "trans.account_id JoinCond",
            "account.account_id JoinCond",
            "loan.date WherePred"));
    // SELECT IIF(SUM(CASE WHEN T2.language = 'Korean' AND T2.translation IS NOT NULL THEN 1 ELSE 0
    // END) > 0, 'YES', 'NO') FROM cards AS T1 INNER JOIN set_translations AS T2 ON T2.setCode =
    // T1.setCode WHERE T1.name = 'Ancestor''s Chosen'
    checks.put(
        "465",
        List.of(
            "set_translations.language AggArg agg=4 item=0",
            "set_translations.translation AggArg agg=4 item=0",
            "set_translations.setcode JoinCond",
            "cards.setcode JoinCond",
            "cards.name WherePred"));
    // SELECT CASE WHEN `T-CHO` < 250 THEN 'Normal' ELSE 'Abnormal' END FROM Laboratory
    // WHERE ID = 2927464 AND Date = '1995-09-04'
    checks.put(
        "1177",
        List.of(
            "laboratory.t-cho SelectExpr item=0",
            "laboratory.id WherePred",
            "laboratory.date WherePred"));
    // SELECT SUBSTR(T.bond_id, 1, 7) AS atom_id1 , T.molecule_id || SUBSTR(T.bond_id, 8, 2) AS
    // atom_id2 FROM bond AS T WHERE T.molecule_id = 'TR001' AND T.bond_id = 'TR001_2_6'
    checks.put(
        "221",
        List.of(
            "bond.bond_id SelectExpr item=0",
            "bond.molecule_id SelectExpr item=1",
            "bond.bond_id SelectExpr item=1",
            "bond.molecule_id WherePred",
            "bond.bond_id WherePred"));
    // SELECT DISTINCT t4.team_long_name FROM Team_Attributes AS t3 INNER JOIN Team AS t4 ON
    // t3.team_api_id = t4.team_api_id WHERE SUBSTR(t3.`date`, 1, 4) = '2012' AND
    // t3.buildUpPlayPassing > ( SELECT CAST(SUM(t2.buildUpPlayPassing) AS REAL) / COUNT(t1.id)
    // FROM Team AS t1 INNER JOIN Team_Attributes AS t2 ON t1.team_api_id = t2.team_api_id WHERE
    // STRFTIME('%Y',t2.`date`) = '2012')
    checks.put(
        "1036",
        List.of(
            "team.team_long_name SelectExpr item=0",
            "team_attributes.team_api_id JoinCond",
            "team.team_api_id JoinCond",
            "team_attributes.date WherePred",
            "team_attributes.buildupplaypassing WherePred",
            "team_attributes.buildupplaypassing AggArg agg=4",
            "team.id AggArg agg=3",
            "team.team_api_id JoinCond",
            "team_attributes.team_api_id JoinCond",
            "team_attributes.date WherePred"));
    // SELECT COUNT(T1.client_id) FROM client AS T1 INNER JOIN district AS T2 ON T1.district_id =
    // T2.district_id WHERE T1.gender = 'M' AND T2.A15 = (SELECT T3.A15 FROM district AS T3
    // ORDER BY T3.A15 DESC LIMIT 1, 1)
    checks.put(
        "138",
        List.of(
            "client.client_id AggArg agg=3 item=0",
            "client.district_id JoinCond",
            "district.district_id JoinCond",
            "client.gender WherePred",
            "district.a15 WherePred",
            "district.a15 WherePred",
            "district.a15 OrderKey"));
    // SELECT CharterNum, AvgScrWrite, RANK() OVER (ORDER BY AvgScrWrite DESC) AS
    // WritingScoreRank FROM schools AS T1  INNER JOIN satscores AS T2 ON T1.CDSCode = T2.cds
    // WHERE T2.AvgScrWrite > 499 AND CharterNum is not null
    checks.put(
        "17",
        List.of(
            "schools.charternum SelectExpr item=0",
            "satscores.avgscrwrite SelectExpr item=1",
            "schools.cdscode JoinCond",
            "satscores.cds JoinCond",
            "satscores.avgscrwrite WherePred",
            "schools.charternum WherePred"));
    // SELECT School FROM (SELECT T2.School,T1.AvgScrRead, RANK() OVER (PARTITION BY T2.County
    // ORDER BY T1.AvgScrRead DESC) AS rnk FROM satscores AS T1 INNER JOIN schools AS T2 ON
    // T1.cds = T2.CDSCode WHERE T2.Virtual = 'F' ) ranked_schools WHERE rnk <= 5
    checks.put(
        "41",
        List.of(
            "schools.school SelectExpr",
            "satscores.avgscrread SelectExpr",
            "satscores.cds JoinCond",
            "schools.cdscode JoinCond",
            "schools.virtual WherePred"));
    // WITH SubQuery AS (SELECT DISTINCT T1.atom_id, T1.element, T1.molecule_id, T2.label FROM
    // atom AS T1 INNER JOIN molecule AS T2 ON T1.molecule_id = T2.molecule_id WHERE
    // T2.molecule_id = 'TR006') SELECT CAST(COUNT(CASE WHEN element = 'h' THEN atom_id ELSE NULL
    // END) AS REAL) / (CASE WHEN COUNT(atom_id) = 0 THEN NULL ELSE COUNT(atom_id) END) AS ratio,
    // label FROM SubQuery GROUP BY label
    checks.put(
        "282",
        List.of(
            "atom.atom_id SelectExpr",
            "atom.element SelectExpr",
            "atom.molecule_id SelectExpr",
            "molecule.label SelectExpr",
            "atom.molecule_id JoinCond",
            "molecule.molecule_id JoinCond",
            "molecule.molecule_id WherePred"));
    // SELECT CASE WHEN SUM(CASE WHEN T1.SEX = 'M' THEN 1 ELSE 0 END) > SUM(CASE WHEN T1.SEX = 'F'
    // THEN 1 ELSE 0 END) THEN 'True' ELSE 'False' END FROM Patient AS T1 INNER JOIN Laboratory
    // AS T2 ON T1.ID = T2.ID WHERE T2.CRE >= 1.5
    checks.put(
        "1223",
        List.of(
            "patient.sex AggArg agg=4 item=0",
            "patient.sex AggArg agg=4 item=0",
            "patient.id JoinCond",
            "laboratory.id JoinCond",
            "laboratory.cre WherePred"));
    // SELECT CAST(SUM(T1.away_team_goal) AS REAL) / COUNT(T1.id) FROM "Match" AS T1 INNER JOIN
    // TEAM AS T2 ON T1.away_team_api_id = T2.team_api_id INNER JOIN Country AS T3 ON
    // T1.country_id = T3.id WHERE T2.team_long_name = 'Parma' AND T3.name = 'Italy'
    checks.put(
        "1101",
        List.of(
            "match.away_team_goal AggArg agg=4 item=0",
            "match.id AggArg agg=3 item=0",
            "match.away_team_api_id JoinCond",
            "team.team_api_id JoinCond",
            "match.country_id JoinCond",
            "country.id JoinCond",
            "team.team_long_name WherePred",
            "country.name WherePred"));
    return checks;
  }

  @Test
  void rolesOnRealQueriesAreExact() {
    Map<String, List<String>> actual = new LinkedHashMap<>();
    SPOT_CHECKS.keySet().forEach(id -> actual.put(id, refs(id)));
    assertEquals(SPOT_CHECKS, actual);
  }
}

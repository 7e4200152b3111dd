package rolepolicy.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BiPredicate;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import rolepolicy.model.FromTable;
import rolepolicy.model.QueryFacts;
import rolepolicy.spider.AstWalker;

/**
 * Every KaggleDBQA query (185 test, 87 few-shot) analyses, and its references equal those the AST
 * walker finds in its Spider-format AST (column, role, aggregate, SELECT item, in order; SELECT *,
 * set operation and top-level FROM tables too), except the named questions, where the AST
 * misplaces a condition. The fast parser agrees with JSqlParser where it accepts, SQLite compiles
 * every query against its schema, and every edit of every reference analyses as intended.
 */
class KaggleDbqaSqlTest {
  /** How KaggleDBQA's ASTs disagree with their text; each says how the two lists then differ. */
  enum AstFault {
    /**
     * A WHERE condition that compares two columns of the one table in FROM ({@code WHERE concen >
     * lod}) stands in the AST's {@code from.conds}, and {@code where} is empty: the AST has those
     * columns as JoinCond where the text, and SPEC §4, have WherePred. Same references otherwise.
     */
    WHERE_COLUMN_COMPARISON_IN_FROM_CONDS(
        (ast, text) ->
            ast.size() == text.size()
                && !ast.equals(text)
                && IntStream.range(0, ast.size())
                    .allMatch(
                        i ->
                            ast.get(i).equals(text.get(i))
                                || ast.get(i)
                                    .replace(" JoinCond ", " WherePred ")
                                    .equals(text.get(i))));

    private final BiPredicate<List<String>, List<String>> explains;

    AstFault(BiPredicate<List<String>, List<String>> explains) {
      this.explains = explains;
    }
  }

  /** The questions whose AST disagrees with their text, with the cause. */
  static final Map<String, AstFault> KNOWN_FAULTS =
      Map.of(
          "Pesticide_test#7", AstFault.WHERE_COLUMN_COMPARISON_IN_FROM_CONDS,
          "StudentMathScore_test#19", AstFault.WHERE_COLUMN_COMPARISON_IN_FROM_CONDS,
          "WorldSoccerDataBase_test#6", AstFault.WHERE_COLUMN_COMPARISON_IN_FROM_CONDS);

  private record Analysed(BenchmarkQueries.Query query, SqlAnalysis analysis, String error) {}

  private static List<Analysed> analysed;
  private static SchemaDatabases databases;

  @BeforeAll
  static void analyseAll() {
    databases = new SchemaDatabases();
    List<Analysed> list = new ArrayList<>();
    for (BenchmarkQueries.Query q : BenchmarkQueries.kaggle()) {
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
  void everyQueryAnalyses() {
    List<String> failed =
        analysed.stream()
            .filter(a -> a.error() != null)
            .map(a -> a.query().id() + " " + a.error())
            .toList();
    assertEquals(272, analysed.size());
    assertEquals(List.of(), failed);
  }

  @Test
  void referencesAgreeWithTheAstWalkerExceptWhereTheAstMisplacesACondition() {
    Map<String, String> disagreed = new TreeMap<>();
    List<String> unexplained = new ArrayList<>();
    int agreed = 0;
    for (Analysed a : analysed) {
      BenchmarkQueries.Query q = a.query();
      QueryFacts walk = new AstWalker(q.schema()).walk(q.ast());
      assertEquals(List.of(), walk.problems(), q.id());
      List<String> ast =
          walk.refs().stream()
              .map(r -> r.column() + " " + r.role() + " " + r.aggregate().id() + " " + r.selectItem())
              .toList();
      List<String> text =
          a.analysis().refs().stream()
              .map(r -> r.column() + " " + r.role() + " " + r.aggregate().id() + " " + r.selectItem())
              .toList();
      boolean sameShape =
          walk.shape().selectStar() == a.analysis().selectStar()
              && walk.shape().setOperation() == a.analysis().setOperation()
              && walk.fromTables().stream()
                  .map(FromTable::table)
                  .toList()
                  .equals(a.analysis().fromTables().stream().map(TextTable::schemaTable).toList());
      if (ast.equals(text) && sameShape) {
        agreed++;
        continue;
      }
      disagreed.put(q.id(), q.sql() + "\n    ast:  " + ast + "\n    text: " + text);
      AstFault fault = KNOWN_FAULTS.get(q.id());
      if (fault == null || !sameShape || !fault.explains.test(ast, text)) {
        unexplained.add(q.id() + " " + disagreed.get(q.id()));
      }
    }
    System.out.printf(
        "KaggleDBQA agreement: %d queries, %d agreed, %d disagreed%n",
        analysed.size(), agreed, disagreed.size());
    disagreed.forEach((id, d) -> System.out.println("  " + KNOWN_FAULTS.get(id) + " " + id + " " + d));
    assertEquals(List.of(), unexplained, "disagreements without a known AST fault");
    assertEquals(KNOWN_FAULTS.keySet(), disagreed.keySet(), "known faults that no longer show");
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
    System.out.printf("KaggleDBQA: the fast parser accepts %d of %d%n", accepted, analysed.size());
    assertEquals(List.of(), wrong);
    assertTrue(accepted > 0);
  }

  @Test
  void everyQueryCompilesInSqliteOnItsSchema() {
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
      checks.check(a.query().id(), a.query().schema(), a.analysis());
    }
    System.out.println("KaggleDBQA edits checked: " + checks.counts());
    assertEquals(List.of(), checks.failures);
  }
}

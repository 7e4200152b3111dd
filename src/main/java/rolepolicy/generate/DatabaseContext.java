package rolepolicy.generate;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import rolepolicy.engine.ColumnPolicy;
import rolepolicy.engine.DatabasePolicies;
import rolepolicy.model.ColumnRef;
import rolepolicy.spider.AstWalker;
import rolepolicy.spider.Schema;
import rolepolicy.sql.SqlAnalysis;
import rolepolicy.sql.SqlAnalysisException;
import rolepolicy.sql.SqlAnalyzer;

/** Everything built once per database: walker, SQL analyser and the policy map of the output. */
final class DatabaseContext {
  final Schema schema;
  final DatabasePolicies policies;
  final AstWalker walker;
  final SqlAnalyzer analyzer;
  final Map<String, String> columnPolicies;

  /** How many analyses {@link #analyse} keeps, per database. */
  private static final int RECENT = 32;

  private final RecentValues<String, SqlAnalysis> recent = new RecentValues<>(RECENT);

  /** How many question outcomes {@link #recentOutcome} keeps, per database. */
  private static final int RECENT_OUTCOMES = 4;

  /** A recent question's AST (compared as a JSON tree; may be null) and outcome. */
  private record Recent(JsonNode ast, QuestionGenerator.Outcome outcome) {}

  /** Recent outcomes by SQL text: the AST is compared only when the text is known. */
  private final RecentValues<String, Recent> recentOutcomes = new RecentValues<>(RECENT_OUTCOMES);

  DatabaseContext(Schema schema, DatabasePolicies policies) {
    this.schema = schema;
    this.policies = policies;
    this.walker = new AstWalker(schema);
    this.analyzer = new SqlAnalyzer(schema);
    Map<String, String> map = new LinkedHashMap<>();
    for (ColumnPolicy c : policies.columns()) {
      map.putIfAbsent(c.column().key(), c.finalPolicy().name());
    }
    this.columnPolicies = Collections.unmodifiableMap(map);
  }

  /**
   * Analyses SQL text and checks that it has exactly the expected references (column, role,
   * aggregate, SELECT item), in order.
   */
  SqlAnalysis analyseExpecting(String sql, List<ColumnRef> expected) throws SqlTextException {
    return analyseExpecting(sql, expected, "the AST gives");
  }

  /** As {@link #analyseExpecting(String, List)}; {@code source} says where the expectation comes from. */
  SqlAnalysis analyseExpecting(String sql, List<ColumnRef> expected, String source)
      throws SqlTextException {
    SqlAnalysis analysis;
    try {
      analysis = analyse(sql);
    } catch (SqlAnalysisException e) {
      throw new SqlTextException("cannot analyse SQL text: " + e.getMessage());
    }
    List<ColumnRef> found = analysis.columnRefs();
    if (!sameReferences(found, expected)) {
      throw new SqlTextException(
          "SQL text gives references " + signatures(found) + " but " + source + " "
              + signatures(expected) + ": " + sql);
    }
    return analysis;
  }

  /**
   * Analyses SQL text that should have the expected references plus one: {@code added}, anywhere
   * (an appended SELECT item comes after the SELECT list's references, wherever they end).
   */
  SqlAnalysis analyseExpectingOneMore(String sql, List<ColumnRef> expected, ColumnRef added)
      throws SqlTextException {
    SqlAnalysis analysis;
    try {
      analysis = analyse(sql);
    } catch (SqlAnalysisException e) {
      throw new SqlTextException("cannot analyse SQL text: " + e.getMessage());
    }
    List<ColumnRef> found = analysis.columnRefs();
    for (int k = 0; k < found.size(); k++) {
      if (sameReferences(List.of(found.get(k)), List.of(added))) {
        List<ColumnRef> rest = new java.util.ArrayList<>(found);
        rest.remove(k);
        if (sameReferences(rest, expected)) {
          return analysis;
        }
      }
    }
    throw new SqlTextException(
        "SQL text gives references " + signatures(found) + " but the edit should add "
            + signatures(List.of(added)) + " to " + signatures(expected) + ": " + sql);
  }

  /**
   * The analysis of SQL text; the analyses of the last texts are kept, since a split repeats a
   * query for each of its questions, one after the other, and so do their rewrites and negatives.
   * An analysis is a value: the same text always gives the same one.
   */
  SqlAnalysis analyse(String sql) {
    SqlAnalysis analysis = recent.get(sql);
    if (analysis == null) {
      analysis = analyzer.analyse(sql);
      recent.put(sql, analysis);
    }
    return analysis;
  }

  /**
   * The outcome of a recent question with the same SQL text and AST, or null; with {@code
   * withFirings}, only one that recorded its rule firings. Spider asks several questions of one
   * query, one after the other.
   */
  QuestionGenerator.Outcome recentOutcome(String sql, JsonNode ast, boolean withFirings) {
    Recent recent = recentOutcomes.get(sql);
    if (recent == null || !Objects.equals(recent.ast(), ast)) {
      return null;
    }
    return withFirings && recent.outcome().firings() == null ? null : recent.outcome();
  }

  void rememberOutcome(String sql, JsonNode ast, QuestionGenerator.Outcome outcome) {
    recentOutcomes.put(sql, new Recent(ast, outcome));
  }

  /** Whether two lists name the same columns with the same roles, aggregates and SELECT items. */
  private static boolean sameReferences(List<ColumnRef> a, List<ColumnRef> b) {
    if (a.size() != b.size()) {
      return false;
    }
    for (int i = 0; i < a.size(); i++) {
      ColumnRef x = a.get(i);
      ColumnRef y = b.get(i);
      if (!x.column().equals(y.column())
          || x.role() != y.role()
          || x.aggId() != y.aggId()
          || x.selectItem() != y.selectItem()) {
        return false;
      }
    }
    return true;
  }

  private static List<String> signatures(List<ColumnRef> refs) {
    return refs.stream()
        .map(r -> r.column() + " " + r.role() + " " + r.aggId() + " " + r.selectItem())
        .toList();
  }
}

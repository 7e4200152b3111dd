package rolepolicy.engine;

import java.util.ArrayList;
import java.util.List;
import rolepolicy.model.ColumnRef;
import rolepolicy.spider.Schema;
import rolepolicy.sql.SqlAnalysis;
import rolepolicy.sql.SqlAnalysisException;
import rolepolicy.sql.SqlAnalyzer;

/**
 * The SQL text analyser of one database, with the checks an edit's text must pass: it must analyse
 * to exactly the references the edit should give (column, role, aggregate, SELECT item), in order.
 */
public final class TextAnalyser {
  /** How many analyses {@link #analyse} keeps. */
  private static final int RECENT = 32;

  private final SqlAnalyzer analyzer;
  private final RecentValues<String, SqlAnalysis> recent = new RecentValues<>(RECENT);

  public TextAnalyser(Schema schema) {
    this.analyzer = new SqlAnalyzer(schema);
  }

  /**
   * The analysis of SQL text; the analyses of the last texts are kept, since a split repeats a
   * query for each of its questions, one after the other, and so do their rewrites and negatives.
   * An analysis is a value: the same text always gives the same one.
   */
  public SqlAnalysis analyse(String sql) {
    SqlAnalysis analysis = recent.get(sql);
    if (analysis == null) {
      analysis = analyzer.analyse(sql);
      recent.put(sql, analysis);
    }
    return analysis;
  }

  /** The analysis of a text that must give the expected references; {@code source} names where they come from. */
  public SqlAnalysis analyseExpecting(String sql, List<ColumnRef> expected, String source)
      throws EditFailed {
    SqlAnalysis analysis = analyseOrFail(sql);
    List<ColumnRef> found = analysis.columnRefs();
    List<ColumnRef> foundJudged = judgedInSpec(found);
    List<ColumnRef> expectedJudged = judgedInSpec(expected);
    if (!sameReferences(foundJudged, expectedJudged)) {
      throw new EditFailed(
          "SQL text gives references " + signatures(foundJudged) + " but " + source + " "
              + signatures(expectedJudged) + ": " + sql);
    }
    if (!sameReferences(found, expected)) {
      throw new EditFailed(
          "SQL text gives GROUP BY, HAVING and ORDER BY references "
              + signatures(unjudgedInSpec(found)) + " but " + source + " "
              + signatures(unjudgedInSpec(expected)) + ": " + sql);
    }
    return analysis;
  }

  /**
   * The analysis of a text that must give the expected references plus one, {@code added},
   * anywhere (an appended SELECT item comes after the SELECT list's references, wherever they end).
   */
  public SqlAnalysis analyseExpectingOneMore(String sql, List<ColumnRef> expected, ColumnRef added)
      throws EditFailed {
    SqlAnalysis analysis = analyseOrFail(sql);
    List<ColumnRef> found = analysis.columnRefs();
    for (int k = 0; k < found.size(); k++) {
      if (sameReferences(List.of(found.get(k)), List.of(added))) {
        List<ColumnRef> rest = new ArrayList<>(found);
        rest.remove(k);
        if (sameReferences(rest, expected)) {
          return analysis;
        }
      }
    }
    if (!sameReferences(unjudgedInSpec(found), unjudgedInSpec(expected))) {
      throw new EditFailed(
          "SQL text gives GROUP BY, HAVING and ORDER BY references "
              + signatures(unjudgedInSpec(found)) + " but the edit should keep "
              + signatures(unjudgedInSpec(expected)) + ": " + sql);
    }
    throw new EditFailed(
        "SQL text gives references " + signatures(judgedInSpec(found)) + " but the edit should add "
            + signatures(List.of(added)) + " to " + signatures(judgedInSpec(expected)) + ": " + sql);
  }

  private SqlAnalysis analyseOrFail(String sql) throws EditFailed {
    try {
      return analyse(sql);
    } catch (SqlAnalysisException e) {
      throw new EditFailed("cannot analyse SQL text: " + e.getMessage());
    }
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
          || x.aggregate() != y.aggregate()
          || x.selectItem() != y.selectItem()) {
        return false;
      }
    }
    return true;
  }

  /** The references of the roles SPEC §4 judges. */
  private static List<ColumnRef> judgedInSpec(List<ColumnRef> refs) {
    return refs.stream().filter(r -> !r.role().unjudgedInSpec()).toList();
  }

  /** The references in GROUP BY, HAVING and ORDER BY. */
  private static List<ColumnRef> unjudgedInSpec(List<ColumnRef> refs) {
    return refs.stream().filter(r -> r.role().unjudgedInSpec()).toList();
  }

  private static List<String> signatures(List<ColumnRef> refs) {
    return refs.stream()
        .map(r -> r.column() + " " + r.role() + " " + r.aggregate().id() + " " + r.selectItem())
        .toList();
  }
}

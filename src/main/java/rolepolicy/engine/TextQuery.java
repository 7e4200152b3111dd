package rolepolicy.engine;

import java.util.ArrayList;
import java.util.List;
import rolepolicy.model.Aggregate;
import rolepolicy.model.ColumnRef;
import rolepolicy.model.Counting;
import rolepolicy.model.NegativeEdit;
import rolepolicy.model.QueryFacts;
import rolepolicy.model.RewriteStep;
import rolepolicy.model.Role;
import rolepolicy.sql.SqlAnalysis;
import rolepolicy.sql.SqlAnalysisException;
import rolepolicy.sql.TextRef;

/**
 * A query known by its SQL text alone: the facts come from the text analyser, and every edit is
 * checked by analysing the edited text again.
 */
public final class TextQuery implements QuerySource {
  /** How the problem of a query whose SQL text cannot be analysed begins. */
  public static final String UNANALYSABLE = "cannot analyse the SQL text: ";

  private final TextAnalyser texts;
  private final String sql;
  private final SqlAnalysis analysis;
  private final QueryFacts facts;

  private TextQuery(TextAnalyser texts, String sql, SqlAnalysis analysis, QueryFacts facts) {
    this.texts = texts;
    this.sql = sql;
    this.analysis = analysis;
    this.facts = facts;
  }

  /** The query of a text; one that cannot be analysed has facts that say so (unresolved). */
  public static TextQuery of(TextAnalyser texts, String sql) {
    try {
      SqlAnalysis analysis = texts.analyse(sql);
      return new TextQuery(texts, sql, analysis, analysis.facts());
    } catch (SqlAnalysisException e) {
      return new TextQuery(texts, sql, null, SqlAnalysis.unanalysable(UNANALYSABLE + e.getMessage()));
    }
  }

  /** The text's analysis; null when it cannot be analysed. */
  public SqlAnalysis analysis() {
    return analysis;
  }

  /** Why the text cannot be analysed (the analyser's message), or null when it can. */
  public String analysisProblem() {
    return analysis == null ? facts.problems().get(0).substring(UNANALYSABLE.length()) : null;
  }

  @Override
  public QueryFacts facts() {
    return facts;
  }

  @Override
  public String sql() {
    return sql;
  }

  @Override
  public TextQuery rewrite(RewriteStep step) throws EditFailed {
    if (analysis == null) {
      throw new EditFailed(facts.problems().get(0));
    }
    ColumnRef ref = step.ref();
    try {
      TextRef target = analysis.refs().get(ref.position());
      List<ColumnRef> expected = new ArrayList<>(analysis.columnRefs());
      String edited = TextEdits.rewrite(sql, target, step);
      if (step.counting() == Counting.ROWS) {
        expected.remove(ref.position()); // COUNT(*) is no reference
      } else if (step.counting() == Counting.GROUPS) {
        // the count's column becomes the inner query's GROUP BY key, after the other references
        ColumnRef key = expected.remove(ref.position());
        expected.add(new ColumnRef(-1, key.column(), Role.GroupKey, Aggregate.NONE, -1, null, null));
      } else if (step.replacement() != null) {
        expected.set(ref.position(), with(ref, step.replacement().key(), ref.role(), ref.aggregate()));
      } else {
        for (int i = 0; i < expected.size(); i++) {
          if (target.itemSpan().equals(analysis.refs().get(i).itemSpan())) {
            ColumnRef r = expected.get(i);
            expected.set(i, with(r, r.column(), Role.AggArg, step.wrap()));
          }
        }
      }
      SqlAnalysis after = texts.analyseExpecting(edited, expected, "the edit should give");
      return new TextQuery(texts, edited, after, after.facts());
    } catch (IllegalArgumentException | SqlAnalysisException e) {
      throw new EditFailed(e.getMessage());
    }
  }

  @Override
  public Edited negative(NegativeEdit edit) throws EditFailed {
    if (analysis == null) {
      return null;
    }
    List<ColumnRef> before = analysis.columnRefs();
    TextEdits.Negative edited;
    try {
      edited = TextEdits.negative(sql, analysis, edit);
    } catch (IllegalArgumentException | SqlAnalysisException e) {
      throw new EditFailed(e.getMessage());
    }
    SqlAnalysis after;
    if (edited.unwrapped() >= 0) {
      ColumnRef r = before.get(edited.unwrapped());
      before.set(edited.unwrapped(), with(r, r.column(), Role.SelectExpr, Aggregate.NONE));
      after = texts.analyseExpecting(edited.sql(), before, "the edit should give");
    } else {
      ColumnRef introduced = new ColumnRef(-1, edit.appendColumn().key(), Role.SelectExpr, Aggregate.NONE,
          analysis.selectItems().size(), null, null);
      after = texts.analyseExpectingOneMore(edited.sql(), before, introduced);
    }
    return new Edited(new TextQuery(texts, edited.sql(), after, after.facts()), edited.described());
  }

  private static ColumnRef with(ColumnRef ref, String column, Role role, Aggregate aggregate) {
    return new ColumnRef(ref.position(), column, role, aggregate, ref.selectItem(), null, null);
  }
}

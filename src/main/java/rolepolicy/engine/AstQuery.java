package rolepolicy.engine;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import rolepolicy.model.ColumnRef;
import rolepolicy.model.NegativeEdit;
import rolepolicy.model.QueryFacts;
import rolepolicy.model.RewriteStep;
import rolepolicy.spider.AstEdits;
import rolepolicy.spider.AstWalker;
import rolepolicy.sql.SqlAnalysis;
import rolepolicy.sql.SqlAnalysisException;
import rolepolicy.sql.TextRef;
import rolepolicy.sql.TextTable;

/**
 * A query known by its Spider AST and its SQL text: the facts come from the AST; every edit is made
 * on both, and the edited text must analyse to exactly the edited AST's references.
 */
public final class AstQuery implements QuerySource {
  private final AstWalker walker;
  private final TextAnalyser texts;
  private final JsonNode ast;
  private final String sql;
  private final QueryFacts facts;
  private final SqlAnalysis analysis;
  private final String textProblem;

  private AstQuery(
      AstWalker walker, TextAnalyser texts, JsonNode ast, String sql, QueryFacts facts,
      SqlAnalysis analysis, String textProblem) {
    this.walker = walker;
    this.texts = texts;
    this.ast = ast;
    this.sql = sql;
    this.facts = facts;
    this.analysis = analysis;
    this.textProblem = textProblem;
  }

  /** The query of an AST and its text; the text is checked against the AST's references. */
  public static AstQuery of(AstWalker walker, TextAnalyser texts, JsonNode ast, String sql) {
    QueryFacts facts = walker.walk(ast);
    if (!facts.problems().isEmpty()) {
      return new AstQuery(walker, texts, ast, sql, facts, null, "the AST could not be resolved");
    }
    try {
      return new AstQuery(walker, texts, ast, sql, facts,
          texts.analyseExpecting(sql, facts.refs(), "the AST gives"), null);
    } catch (EditFailed e) {
      return new AstQuery(walker, texts, ast, sql, facts, null, e.getMessage());
    }
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
  public String textProblem() {
    return textProblem;
  }

  @Override
  public List<ColumnRef> textRefs() {
    try {
      return texts.analyse(sql).columnRefs();
    } catch (SqlAnalysisException e) {
      return null;
    }
  }

  @Override
  public AstQuery rewrite(RewriteStep step) throws EditFailed {
    if (analysis == null) {
      throw new EditFailed(textProblem);
    }
    ColumnRef ref = step.ref();
    try {
      TextRef target = analysis.refs().get(ref.position());
      JsonNode editedAst = step.counting() == rolepolicy.model.Counting.ROWS
          ? AstEdits.replaceColumn(ast, ref.path(), 0) // column 0 is Spider's *
          : step.counting() == rolepolicy.model.Counting.GROUPS
          ? AstEdits.countGroups(ast, ref.path())
          : step.replacement() != null
          ? AstEdits.replaceColumn(ast, ref.path(), step.replacement().index())
          : AstEdits.wrapItem(ast, ref.itemPath(), step.wrap());
      return checked(editedAst, TextEdits.rewrite(sql, target, step));
    } catch (IllegalArgumentException | SqlAnalysisException e) {
      throw new EditFailed(e.getMessage());
    }
  }

  @Override
  public Edited negative(NegativeEdit edit) throws EditFailed {
    if (analysis == null) {
      return null;
    }
    try {
      JsonNode editedAst;
      if (edit.appendColumn() != null) {
        TextTable table = analysis.fromTables().get(edit.fromTable().position());
        if (!table.table().equalsIgnoreCase(edit.fromTable().table())) {
          throw new EditFailed(
              "FROM table " + edit.fromTable().position() + " is " + table.table() + " in the text");
        }
        editedAst = AstEdits.appendColumn(ast, edit.appendColumn().index());
      } else {
        editedAst = AstEdits.dropAggregate(ast, edit.dropAggregateOf().path());
      }
      TextEdits.Negative edited = TextEdits.negative(sql, analysis, edit);
      return new Edited(checked(editedAst, edited.sql()), edited.described());
    } catch (IllegalArgumentException | SqlAnalysisException e) {
      throw new EditFailed(e.getMessage());
    }
  }

  private AstQuery checked(JsonNode editedAst, String edited) throws EditFailed {
    QueryFacts editedFacts = walker.walk(editedAst);
    SqlAnalysis after = texts.analyseExpecting(edited, editedFacts.refs(), "the AST gives");
    return new AstQuery(walker, texts, editedAst, edited, editedFacts, after, null);
  }
}

package rolepolicy.engine;

import java.util.List;
import rolepolicy.model.ColumnRef;
import rolepolicy.model.NegativeEdit;
import rolepolicy.model.QueryFacts;
import rolepolicy.model.RewriteStep;

/**
 * A query the rules decide about, with the edits they ask for made on it: known by its Spider AST
 * and SQL text ({@link AstQuery}), or by its SQL text alone ({@link TextQuery}).
 */
public interface QuerySource {
  /** The rules' facts of the query. */
  QueryFacts facts();

  /** The query's SQL text. */
  String sql();

  /**
   * The query after a rewrite step, checked: its text analyses to the facts the step should give.
   *
   * @throws EditFailed when the edit cannot be made or its text does not check
   */
  QuerySource rewrite(RewriteStep step) throws EditFailed;

  /**
   * The negative example: the query after the negative edit, checked as a rewrite is, and the edit
   * in words; null when the query's text cannot be edited at all (it could not be verified).
   *
   * @throws EditFailed when the edit cannot be made or its text does not check
   */
  Edited negative(NegativeEdit edit) throws EditFailed;

  /** Why the SQL text does not agree with the facts, or null when it does. */
  default String textProblem() {
    return null;
  }

  /**
   * The references of the SQL text analysed on its own, null when it cannot be analysed; asked only
   * when {@link #textProblem} is not null. The facts' own where they come from the text.
   */
  default List<ColumnRef> textRefs() {
    return facts().refs();
  }

  /** An edited query and the edit in words. */
  record Edited(QuerySource query, String described) {}
}

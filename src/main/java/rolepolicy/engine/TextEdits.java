package rolepolicy.engine;

import rolepolicy.model.NegativeEdit;
import rolepolicy.model.Counting;
import rolepolicy.model.RewriteStep;
import rolepolicy.sql.SqlAnalysis;
import rolepolicy.sql.SqlEdits;
import rolepolicy.sql.TextRef;
import rolepolicy.sql.TextTable;

/** The edits the rules ask for, made on SQL text: the part {@link AstQuery} and {@link TextQuery} share. */
final class TextEdits {
  private TextEdits() {}

  /** The text after a rewrite step on the reference {@code target}: R1 renames it, R2 wraps its SELECT item. */
  static String rewrite(String sql, TextRef target, RewriteStep step) {
    if (step.counting() == Counting.ROWS) {
      return SqlEdits.countStar(sql, target, false);
    } else if (step.counting() == Counting.GROUPS) {
      return SqlEdits.countGroups(sql, target);
    }
    return step.replacement() != null
        ? SqlEdits.replaceColumn(sql, target, step.replacement().name())
        : SqlEdits.wrapItem(sql, target, step.wrap().name());
  }

  /**
   * A negative edit made on the text.
   *
   * @param sql the edited text
   * @param described the edit in words
   * @param unwrapped N2: the position of the reference whose aggregate was dropped; else -1
   */
  record Negative(String sql, String described, int unwrapped) {}

  /**
   * The negative edit on the text: N1/N3 append a column of the FROM table the rule named (the text's
   * table at the same place), N2 drops the aggregate of the SELECT item's first reference.
   *
   * @throws IllegalArgumentException when the edit cannot be made on this text
   */
  static Negative negative(String sql, SqlAnalysis analysis, NegativeEdit edit) {
    if (edit.appendColumn() != null) {
      TextTable table = analysis.fromTables().get(edit.fromTable().position());
      return new Negative(SqlEdits.appendSelectItem(sql, analysis, table, edit.appendColumn().name()),
          "append " + edit.appendColumn().key() + " to the SELECT list", -1);
    }
    int item = edit.dropAggregateOf().index();
    int position = firstOfItem(analysis, item);
    TextRef target = analysis.refs().get(position);
    return new Negative(SqlEdits.unwrapAggregate(sql, target),
        "drop the aggregate of SELECT item " + item + " (" + target.column() + ")", position);
  }

  private static int firstOfItem(SqlAnalysis analysis, int item) {
    for (int i = 0; i < analysis.refs().size(); i++) {
      if (analysis.refs().get(i).selectItem() == item) {
        return i;
      }
    }
    throw new IllegalArgumentException("SELECT item " + item + " has no column reference");
  }
}

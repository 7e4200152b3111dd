package rolepolicy.sql;

import rolepolicy.model.Role;

/**
 * One column reference found in SQL text, with the same meaning as the AST walker's references.
 *
 * @param column {@code table.column} from the schema's original names, lower-cased
 * @param qualifier the alias, else the table name as written, of the FROM table it belongs to
 * @param role the role the reference plays
 * @param aggregate the effective aggregate
 * @param selectItem index of the top-level SELECT item that holds it, or -1
 * @param columnSpan the column reference as written, qualifier included; for a column of {@code
 *     JOIN ... USING (c)}, the {@code c} in USING; for a column of a NATURAL JOIN, the joined table
 * @param nameSpan the column name alone (the last part of {@code columnSpan}); as {@code
 *     columnSpan} for USING and NATURAL JOIN columns
 * @param itemSpan the SELECT item expression holding it, without any alias (any depth), or null
 * @param aggregateSpan the outermost aggregate call around it, such as {@code avg(T1.price)}, or
 *     null
 */
public record TextRef(
    String column,
    String qualifier,
    Role role,
    rolepolicy.model.Aggregate aggregate,
    int selectItem,
    Span columnSpan,
    Span nameSpan,
    Span itemSpan,
    Span aggregateSpan) {

  /** Whether the text writes the column without a table qualifier. */
  public boolean unqualified() {
    return columnSpan.equals(nameSpan);
  }

  @Override
  public String toString() {
    return column
        + " "
        + role
        + (aggregate.none() ? "" : " agg=" + aggregate.id())
        + (selectItem < 0 ? "" : " item=" + selectItem);
  }
}

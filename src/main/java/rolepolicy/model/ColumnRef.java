package rolepolicy.model;

/**
 * One column reference of a query, with its role and effective aggregate (SPEC §4).
 *
 * @param position the reference's place in walk order, from 0
 * @param column the column key, {@code table.column} lower-cased
 * @param role the role the reference plays
 * @param aggregate the effective aggregate ({@link Aggregate#NONE} for none)
 * @param selectItem index of the top-level SELECT item that holds it, or -1
 * @param path JSON Pointer of the reference's {@code col_unit} in the Spider AST
 * @param itemPath JSON Pointer of the SELECT item that holds it (any depth), or null
 */
public record ColumnRef(
    int position,
    String column,
    Role role,
    Aggregate aggregate,
    int selectItem,
    String path,
    String itemPath) {

  /** The table part of the column key. */
  public String table() {
    return column.substring(0, column.indexOf('.'));
  }

  @Override
  public String toString() {
    return column + " " + role + (aggregate.none() ? "" : " agg=" + aggregate.id()) + " #" + position;
  }
}

package rolepolicy.sql;

import java.util.List;

/**
 * What analysing one SQL text found.
 *
 * @param sql the text analysed
 * @param refs the column references in walk order (SPEC §4)
 * @param selectStar a bare {@code *} or {@code T.*} stands in a SELECT list, at any depth
 * @param setOperation the top-level query has INTERSECT, UNION or EXCEPT
 * @param fromTables the tables of the top-level FROM, in FROM order
 * @param selectListEnd offset just after the last top-level SELECT item
 */
public record SqlAnalysis(
    String sql,
    List<TextRef> refs,
    boolean selectStar,
    boolean setOperation,
    List<TextTable> fromTables,
    int selectListEnd) {

  public SqlAnalysis {
    refs = List.copyOf(refs);
    fromTables = List.copyOf(fromTables);
  }
}

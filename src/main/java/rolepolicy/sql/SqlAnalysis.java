package rolepolicy.sql;

import java.util.ArrayList;
import java.util.List;
import rolepolicy.model.ColumnRef;

/**
 * What analysing one SQL text found.
 *
 * @param sql the text analysed
 * @param refs the column references in walk order (SPEC §4)
 * @param selectStar a bare {@code *} or {@code T.*} stands in a SELECT list, at any depth
 * @param setOperation the top-level query has INTERSECT, UNION or EXCEPT
 * @param fromTables the tables of the top-level FROM, in FROM order
 * @param selectListEnd offset just after the last top-level SELECT item
 * @param orderBy the top-level query, or its set operation, has ORDER BY: its result is ordered
 */
public record SqlAnalysis(
    String sql,
    List<TextRef> refs,
    boolean selectStar,
    boolean setOperation,
    List<TextTable> fromTables,
    int selectListEnd,
    boolean orderBy) {

  public SqlAnalysis {
    refs = List.copyOf(refs);
    fromTables = List.copyOf(fromTables);
  }

  /** The references as the rules' facts; there is no AST, so paths are null. */
  public List<ColumnRef> columnRefs() {
    List<ColumnRef> facts = new ArrayList<>(refs.size());
    for (TextRef r : refs) {
      facts.add(
          new ColumnRef(facts.size(), r.column(), r.role(), r.aggId(), r.selectItem(), null, null));
    }
    return facts;
  }
}

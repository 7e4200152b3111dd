package rolepolicy.sql;

import java.util.ArrayList;
import java.util.List;
import rolepolicy.model.ColumnRef;
import rolepolicy.model.FromTable;
import rolepolicy.model.QueryShape;
import rolepolicy.model.SelectItem;
import rolepolicy.model.QueryFacts;

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
 * @param selectItems the top-level SELECT items, as the AST walker gives them (paths null)
 * @param tables every schema table the query reads, at any depth, in first-seen order
 * @param starTables the schema tables whose every column a {@code *} reads, at any depth
 */
public record SqlAnalysis(
    String sql,
    List<TextRef> refs,
    boolean selectStar,
    boolean setOperation,
    List<TextTable> fromTables,
    int selectListEnd,
    boolean orderBy,
    List<SelectItem> selectItems,
    List<String> tables,
    List<String> starTables) {

  public SqlAnalysis {
    refs = List.copyOf(refs);
    fromTables = List.copyOf(fromTables);
    selectItems = List.copyOf(selectItems);
    tables = List.copyOf(tables);
    starTables = List.copyOf(starTables);
  }

  /**
   * The rules' facts of the query, as {@link rolepolicy.spider.AstWalker} gives them for a Spider
   * AST of the same query, except that there are no AST paths.
   */
  public QueryFacts facts() {
    List<FromTable> from = new ArrayList<>(fromTables.size());
    for (TextTable t : fromTables) {
      from.add(new FromTable(t.schemaTable(), from.size()));
    }
    return new QueryFacts(
        columnRefs(),
        new QueryShape(selectStar, false, setOperation),
        List.of(),
        List.copyOf(from),
        selectItems,
        tables,
        starTables);
  }

  /** The facts of a query whose text could not be analysed: unresolved, with the reason. */
  public static QueryFacts unanalysable(String problem) {
    return new QueryFacts(
        List.of(), new QueryShape(false, true, false), List.of(problem), List.of(), List.of(), List.of(), List.of());
  }

  /** The references as the rules' facts; there is no AST, so paths are null. */
  public List<ColumnRef> columnRefs() {
    List<ColumnRef> facts = new ArrayList<>(refs.size());
    for (TextRef r : refs) {
      facts.add(
          new ColumnRef(facts.size(), r.column(), r.role(), r.aggregate(), r.selectItem(), null, null));
    }
    return facts;
  }
}

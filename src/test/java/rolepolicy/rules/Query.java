package rolepolicy.rules;

import java.util.ArrayList;
import java.util.List;
import rolepolicy.model.Aggregate;
import rolepolicy.model.ColumnRef;
import rolepolicy.model.FromTable;
import rolepolicy.model.QueryShape;
import rolepolicy.model.Role;
import rolepolicy.model.SelectItem;
import rolepolicy.model.QueryFacts;

/**
 * Builds by hand the facts that walking a Spider AST would give: call it in walk order (SELECT
 * items, then join conditions, then WHERE). Column keys are {@code table.column}, lower-cased.
 */
final class Query {
  private final List<ColumnRef> refs = new ArrayList<>();
  private final List<SelectItem> items = new ArrayList<>();
  private final List<FromTable> fromTables = new ArrayList<>();
  private final List<String> tables = new ArrayList<>();
  private int conditions;
  private boolean selectStar;
  private boolean unresolved;
  private boolean setOperation;

  private Query() {}

  /** A query over these top-level FROM tables, in FROM order. */
  static Query from(String... tables) {
    Query query = new Query();
    for (String table : tables) {
      query.fromTables.add(new FromTable(table, query.fromTables.size()));
      query.tables.add(table);
    }
    return query;
  }

  /** A SELECT item that is one bare column. */
  Query select(String column) {
    return select(0, column);
  }

  /** A SELECT item that is one column under aggregate {@code aggId} (0 for none). */
  Query select(int aggId, String column) {
    int item = items.size();
    String itemPath = "/select/1/" + item;
    Role role = aggId == 0 ? Role.SelectExpr : Role.AggArg;
    refs.add(new ColumnRef(refs.size(), column, role, Aggregate.of(aggId), item, itemPath + "/1/1", itemPath));
    items.add(new SelectItem(item, Aggregate.of(aggId), column, itemPath));
    return this;
  }

  /** A bare {@code *} SELECT item: no reference, but the shape says SELECT *. */
  Query selectStar() {
    items.add(new SelectItem(items.size(), Aggregate.NONE, null, "/select/1/" + items.size()));
    selectStar = true;
    return this;
  }

  /** A column of a join condition ({@code from.conds}). */
  Query join(String column) {
    return condition("/from/conds", Role.JoinCond, column);
  }

  /** A column of the WHERE clause. */
  Query where(String column) {
    return condition("/where", Role.WherePred, column);
  }

  /** The top-level query has INTERSECT, UNION or EXCEPT. */
  Query withSetOperation() {
    setOperation = true;
    return this;
  }

  /** Some reference could not be resolved. */
  Query withUnresolvedReference() {
    unresolved = true;
    return this;
  }

  QueryFacts walk() {
    return new QueryFacts(
        List.copyOf(refs),
        new QueryShape(selectStar, unresolved, setOperation),
        unresolved ? List.of("AST /where/0/2/1/1: column id 99 is out of range") : List.of(),
        List.copyOf(fromTables),
        List.copyOf(items),
        List.copyOf(tables),
        selectStar ? List.copyOf(tables) : List.of());
  }

  private Query condition(String clause, Role role, String column) {
    String path = clause + "/" + (2 * conditions++) + "/2/1";
    refs.add(new ColumnRef(refs.size(), column, role, Aggregate.NONE, -1, path, null));
    return this;
  }
}

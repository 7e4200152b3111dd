package rolepolicy.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.WindowDefinition;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.select.Join;
import net.sf.jsqlparser.statement.select.ParenthesedSelect;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.select.SelectItem;
import net.sf.jsqlparser.statement.select.SetOperation;
import net.sf.jsqlparser.statement.select.WithItem;
import org.junit.jupiter.api.Test;

/** The one walk's order of clauses, and what it leaves to its visitors. */
class ClauseWalkerTest {
  /** Writes down every call; a level is named by its first SELECT item. */
  private static final class Recorder extends ClauseWalker<String, String> {
    final List<String> calls = new ArrayList<>();

    @Override
    protected String commonTable(WithItem<?> item, String context) {
      calls.add("with " + item.getAliasName());
      return context + "+" + item.getAliasName();
    }

    @Override
    protected void endQuery(Select select, String context) {
      calls.add("end query in " + context);
    }

    @Override
    protected void setOperation(SetOperation operation, String context) {
      calls.add("operator " + operation);
    }

    @Override
    protected String part(String context, int k) {
      return context + "/part" + k;
    }

    @Override
    protected String level(PlainSelect select, String context) {
      String level = select.getSelectItems().get(0).toString();
      calls.add("level " + level + " in " + context);
      return level;
    }

    @Override
    protected void selectItem(SelectItem<?> item, int index, String level) {
      calls.add("item " + index + " " + item);
    }

    @Override
    protected void table(Table table, String level) {
      calls.add("table " + table);
    }

    @Override
    protected void derivedTable(ParenthesedSelect query, String level) {
      calls.add("derived " + query.getAlias().getName());
    }

    @Override
    protected void join(Join join, String level) {
      calls.add("join");
      super.join(join, level);
    }

    @Override
    protected void endFrom(PlainSelect select, String level) {
      calls.add("end from");
    }

    @Override
    protected void windows(List<WindowDefinition> windows, String level) {
      calls.add("windows " + windows.size());
    }

    @Override
    protected void expression(Clause clause, Expression expression, String level) {
      calls.add(clause + " " + expression + " in " + level);
    }

    @Override
    protected void endLevel(PlainSelect select, String level) {
      calls.add("end level " + level);
    }
  }

  private static List<String> walk(String sql) {
    Recorder recorder = new Recorder();
    recorder.query(SqlAnalyzer.parseSelect(sql), "top");
    return recorder.calls;
  }

  @Test
  void aPlainQueryIsWalkedClauseByClauseInTheOrderOfItsText() {
    assertEquals(
        List.of(
            "level a in top",
            "item 0 a",
            "item 1 count(*)",
            "table t",
            "join",
            "table u",
            "ON t.x = u.x in a",
            "join",
            "derived d",
            "USING y in a",
            "end from",
            "WHERE c = 1 in a",
            "GROUP_BY a in a",
            "HAVING count(*) > 1 in a",
            "ORDER_BY b in a",
            "LIMIT 5 in a",
            "OFFSET 2 in a",
            "end level a",
            "end query in top"),
        walk(
            "SELECT a, count(*) FROM t JOIN u ON t.x = u.x JOIN (SELECT y FROM v) AS d USING (y)"
                + " WHERE c = 1 GROUP BY a HAVING count(*) > 1 ORDER BY b LIMIT 5 OFFSET 2"));
  }

  @Test
  void aSetOperationWalksItsPartsThenItsTailInItsLastPartsLevel() {
    assertEquals(
        List.of(
            "operator UNION",
            "level a in top/part0",
            "item 0 a",
            "table t",
            "end from",
            "end level a",
            "end query in top/part0",
            "level b in top/part1",
            "item 0 b",
            "table u",
            "end from",
            "end level b",
            "end query in top/part1",
            "ORDER_BY 1 in b",
            "end query in top"),
        walk("SELECT a FROM t UNION SELECT b FROM u ORDER BY 1"));
  }

  @Test
  void withDefinitionsComeFirstAndNestedQueriesAreTheVisitors() {
    assertEquals(
        List.of(
            "with w",
            "with z",
            "level a in top+w+z",
            "item 0 a",
            "table w",
            "end from",
            "WHERE a IN (SELECT b FROM z) in a",
            "end level a",
            "end query in top"),
        walk("WITH w AS (SELECT 1 AS a), z AS (SELECT 2 AS b) SELECT a FROM w WHERE a IN (SELECT b FROM z)"));
  }

  @Test
  void groupingSetsAndWindowsAreReadOnlyByVisitorsThatSaySo() {
    List<String> calls = walk("SELECT a FROM t GROUP BY GROUPING SETS ((a), (b))");
    assertEquals(List.of("level a in top", "item 0 a", "table t", "end from", "end level a", "end query in top"), calls);
    assertEquals(
        "windows 1",
        walk("SELECT rank() OVER w FROM t WINDOW w AS (ORDER BY a)").stream()
            .filter(c -> c.startsWith("windows"))
            .findFirst()
            .orElseThrow());
  }
}

package rolepolicy.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import rolepolicy.model.Role;
import rolepolicy.model.SchemaColumn;
import rolepolicy.spider.Schema;

/**
 * Each edit, applied to every Spider question it fits, gives text whose analysis has exactly the
 * intended references, and which SQLite compiles where the database is present.
 */
class SqlEditsSpiderTest {
  private static SpiderDatabases databases;
  private static final Map<String, Boolean> ORIGINAL_COMPILES = new HashMap<>();

  @BeforeAll
  static void openDatabases() {
    databases = new SpiderDatabases(SpiderQuestions.dir());
  }

  @AfterAll
  static void closeDatabases() throws SQLException {
    databases.close();
  }

  /** The outcome of one edit: the edited text and the references it should analyse to. */
  private record Edit(String sql, List<String> expected) {}

  @Test
  void wrapItemMakesTheItemsColumnsAvgArguments() {
    checkEveryQuestion(
        "wrapItem",
        q -> {
          SqlAnalysis a = q.analysis();
          TextRef target = first(a, r -> r.role() == Role.SelectExpr && r.selectItem() >= 0);
          if (target == null) {
            return null;
          }
          List<String> expected = new ArrayList<>();
          for (TextRef r : a.refs()) {
            expected.add(
                r.selectItem() == target.selectItem()
                    ? key(r.column(), Role.AggArg, 5, r.selectItem())
                    : key(r));
          }
          return new Edit(SqlEdits.wrapItem(a.sql(), target, "AVG"), expected);
        });
  }

  @Test
  void unwrapAggregateLeavesABareSelectedColumn() {
    checkEveryQuestion(
        "unwrapAggregate",
        q -> {
          SqlAnalysis a = q.analysis();
          TextRef target =
              first(
                  a,
                  r ->
                      r.role() == Role.AggArg
                          && r.selectItem() >= 0
                          && a.refs().stream()
                                  .filter(o -> r.aggregateSpan().equals(o.aggregateSpan()))
                                  .count()
                              == 1);
          if (target == null) {
            return null;
          }
          List<String> expected = new ArrayList<>();
          for (TextRef r : a.refs()) {
            expected.add(
                r == target ? key(r.column(), Role.SelectExpr, 0, r.selectItem()) : key(r));
          }
          return new Edit(SqlEdits.unwrapAggregate(a.sql(), target), expected);
        });
  }

  @Test
  void replaceColumnPointsTheReferenceAtAnotherColumnOfItsTable() {
    checkEveryQuestion(
        "replaceColumn",
        q -> {
          SqlAnalysis a = q.analysis();
          TextRef target = first(a, r -> r.selectItem() >= 0);
          if (target == null) {
            return null;
          }
          Schema schema = q.question().schema();
          String table = target.column().substring(0, target.column().indexOf('.'));
          SchemaColumn other =
              schema.columnsOf(table).stream()
                  .filter(c -> !c.key().equals(target.column()))
                  .findFirst()
                  .orElse(null);
          if (other == null) {
            return null;
          }
          List<String> expected = new ArrayList<>();
          for (TextRef r : a.refs()) {
            expected.add(
                r == target ? key(other.key(), r.role(), r.aggregate().id(), r.selectItem()) : key(r));
          }
          return new Edit(SqlEdits.replaceColumn(a.sql(), target, other.name()), expected);
        });
  }

  @Test
  void appendSelectItemAddsOneSelectedColumnAfterTheLastItem() {
    checkEveryQuestion(
        "appendSelectItem",
        q -> {
          SqlAnalysis a = q.analysis();
          if (a.setOperation() || a.fromTables().isEmpty()) {
            return null;
          }
          TextTable table = a.fromTables().get(0);
          SchemaColumn column = q.question().schema().columnsOf(table.schemaTable()).get(0);
          return new Edit(
              SqlEdits.appendSelectItem(a.sql(), a, table, column.name()),
              appended(a, column.key()));
        });
  }

  @Test
  void appendSelectItemWorksForEveryColumnOfEveryTableInATopLevelFrom() {
    Map<String, SpiderQuestions.Analysed> firstUse = new LinkedHashMap<>();
    for (SpiderQuestions.Analysed q : SpiderQuestions.analysed()) {
      if (q.analysis() != null && !q.analysis().setOperation()) {
        for (TextTable t : q.analysis().fromTables()) {
          firstUse.putIfAbsent(q.question().schema().dbId() + "." + t.schemaTable(), q);
        }
      }
    }
    List<String> failures = new ArrayList<>();
    int edits = 0;
    for (SpiderQuestions.Analysed q : firstUse.values()) {
      SqlAnalysis a = q.analysis();
      for (TextTable table : a.fromTables()) {
        if (firstUse.get(q.question().schema().dbId() + "." + table.schemaTable()) != q) {
          continue;
        }
        for (SchemaColumn column : q.question().schema().columnsOf(table.schemaTable())) {
          edits++;
          String sql = SqlEdits.appendSelectItem(a.sql(), a, table, column.name());
          check(q, new Edit(sql, appended(a, column.key())), failures);
        }
      }
    }
    System.out.printf(
        "appendSelectItem over all columns: %d tables, %d edits%n", firstUse.size(), edits);
    assertEquals(List.of(), failures);
  }

  private void checkEveryQuestion(String name, Function<SpiderQuestions.Analysed, Edit> edit) {
    List<String> failures = new ArrayList<>();
    int edits = 0;
    for (SpiderQuestions.Analysed q : SpiderQuestions.analysed()) {
      if (q.analysis() == null) {
        continue;
      }
      Edit e = edit.apply(q);
      if (e != null) {
        edits++;
        check(q, e, failures);
      }
    }
    System.out.printf("%s: %d edits checked%n", name, edits);
    assertEquals(List.of(), failures);
  }

  private static void check(SpiderQuestions.Analysed q, Edit edit, List<String> failures) {
    String where = q.question().id() + " " + edit.sql();
    List<String> actual;
    try {
      actual =
          new SqlAnalyzer(q.question().schema())
              .analyse(edit.sql()).refs().stream().map(SqlEditsSpiderTest::key).toList();
    } catch (SqlAnalysisException e) {
      failures.add(where + "\n    " + e.getMessage());
      return;
    }
    if (!matches(edit.expected(), actual)) {
      failures.add(where + "\n    expected " + edit.expected() + "\n    actual   " + actual);
      return;
    }
    String dbId = q.question().schema().dbId();
    boolean originalCompiles =
        ORIGINAL_COMPILES.computeIfAbsent(
            q.question().id(),
            id ->
                databases.has(dbId) && databases.compileError(dbId, q.question().query()) == null);
    if (originalCompiles) {
      String error = databases.compileError(dbId, edit.sql());
      if (error != null) {
        failures.add(where + "\n    SQLite: " + error);
      }
    }
  }

  /** The references after appending {@code column}: a new last top-level item. */
  private static List<String> appended(SqlAnalysis a, String column) {
    List<String> expected =
        new ArrayList<>(a.refs().stream().map(SqlEditsSpiderTest::key).toList());
    int at = (int) a.refs().stream().filter(r -> r.selectItem() >= 0).count();
    expected.add(at, key(column, Role.SelectExpr, 0, -2)); // -2: any index past the others
    return expected;
  }

  private static boolean matches(List<String> expected, List<String> actual) {
    if (expected.size() != actual.size()) {
      return false;
    }
    int lastItem = -1;
    for (int i = 0; i < expected.size(); i++) {
      String e = expected.get(i);
      String x = actual.get(i);
      if (e.endsWith(" -2")) {
        int item = Integer.parseInt(x.substring(x.lastIndexOf(' ') + 1));
        if (!x.startsWith(e.substring(0, e.length() - 2)) || item <= lastItem) {
          return false;
        }
      } else if (!e.equals(x)) {
        return false;
      }
      lastItem = Math.max(lastItem, Integer.parseInt(x.substring(x.lastIndexOf(' ') + 1)));
    }
    return true;
  }

  private static TextRef first(SqlAnalysis a, Predicate<TextRef> test) {
    return a.refs().stream().filter(test).findFirst().orElse(null);
  }

  private static String key(TextRef r) {
    return key(r.column(), r.role(), r.aggregate().id(), r.selectItem());
  }

  private static String key(String column, Role role, int aggId, int selectItem) {
    return column + " " + role + " " + aggId + " " + selectItem;
  }
}

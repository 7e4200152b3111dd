package rolepolicy.sql;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Pattern;
import rolepolicy.model.Role;
import rolepolicy.model.SchemaColumn;
import rolepolicy.spider.Schema;

/**
 * Applies each edit of {@link SqlEdits} to every reference of a query it fits, and checks that the
 * edited text analyses to the intended references and that SQLite compiles it against the schema:
 * <ul>
 *   <li>replaceColumn: every reference, to another column of its table, one whose name needs
 *       quoting where the table has one; only the references at that text change (a result alias
 *       in GROUP BY, HAVING or ORDER BY names its item's columns again);
 *   <li>wrapItem in AVG: every SELECT item (any depth) whose references have no aggregate; its
 *       references become AggArg 5;
 *   <li>unwrapAggregate: every aggregate around exactly one reference; that reference loses its
 *       aggregate and, in a top-level item, becomes SelectExpr (a nested query's item takes the role
 *       of its query: SelectExpr, or the predicate's role);
 *   <li>appendSelectItem: to a query without set operation, the first column and the first column
 *       whose name needs quoting of each top-level FROM table; one SelectExpr reference more, in
 *       a new last top-level item.
 * </ul>
 */
final class EditChecks {
  private static final Pattern PLAIN = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

  private final SchemaDatabases databases;
  private final Map<String, Integer> counts = new TreeMap<>();
  final List<String> failures = new ArrayList<>();

  EditChecks(SchemaDatabases databases) {
    this.databases = databases;
  }

  /** The edits checked, by kind. */
  Map<String, Integer> counts() {
    return counts;
  }

  /** Checks every edit that fits the query. */
  void check(String id, Schema schema, SqlAnalysis analysis) {
    List<TextRef> refs = analysis.refs();
    String sql = analysis.sql();
    for (TextRef target : refs) {
      replacement(schema, target)
          .ifPresent(
              other -> {
                List<String> expected = new ArrayList<>();
                for (TextRef r : refs) {
                  expected.add(r.columnSpan().equals(target.columnSpan())
                      ? key(other.key(), r.role(), r.aggregate().id(), r.selectItem()) : key(r));
                }
                check("replaceColumn", id, schema, SqlEdits.replaceColumn(sql, target, other.name()), expected, null);
              });
      if (target.itemSpan() != null && firstOfItem(refs, target)) {
        List<TextRef> item = refs.stream().filter(r -> target.itemSpan().equals(r.itemSpan())).toList();
        if (item.stream().allMatch(r -> r.aggregate().id() == 0)) {
          List<String> expected = new ArrayList<>();
          for (TextRef r : refs) {
            boolean inItem = item.stream().anyMatch(i -> i.columnSpan().equals(r.columnSpan()));
            expected.add(inItem && r.role().unjudgedInSpec() ? key(r.column(), r.role(), 5, r.selectItem())
                : inItem ? key(r.column(), Role.AggArg, 5, r.selectItem()) : key(r));
          }
          check("wrapItem", id, schema, SqlEdits.wrapItem(sql, target, "AVG"), expected, null);
        }
      }
      if (target.aggregateSpan() != null
          && refs.stream().filter(r -> target.aggregateSpan().equals(r.aggregateSpan())).count() == 1) {
        List<String> expected = new ArrayList<>();
        for (TextRef r : refs) {
          expected.add(r != target ? key(r) : unwrapped(r));
        }
        check("unwrapAggregate", id, schema, SqlEdits.unwrapAggregate(sql, target), expected, null);
      }
    }
    if (!analysis.setOperation()) {
      for (TextTable table : analysis.fromTables()) {
        List<SchemaColumn> columns = schema.columnsOf(table.schemaTable());
        List<SchemaColumn> appended = new ArrayList<>(columns.subList(0, 1));
        columns.stream().filter(c -> !PLAIN.matcher(c.name()).matches()).findFirst().ifPresent(appended::add);
        for (SchemaColumn column : appended) {
          String edited = SqlEdits.appendSelectItem(sql, analysis, table, column.name());
          check("appendSelectItem", id, schema, edited, refs.stream().map(EditChecks::key).toList(), column.key());
        }
      }
    }
  }

  /** Another column of the reference's table, one whose name needs quoting if there is one. */
  private static Optional<SchemaColumn> replacement(Schema schema, TextRef target) {
    String table = target.column().substring(0, target.column().indexOf('.'));
    List<SchemaColumn> others =
        schema.columnsOf(table).stream().filter(c -> !c.key().equals(target.column())).toList();
    return others.stream()
        .filter(c -> !PLAIN.matcher(c.name()).matches())
        .findFirst()
        .or(() -> others.stream().findFirst());
  }

  private static boolean firstOfItem(List<TextRef> refs, TextRef target) {
    return refs.stream().filter(r -> target.itemSpan().equals(r.itemSpan())).findFirst().orElseThrow() == target;
  }

  /**
   * What an unwrapped reference should be; {@code ?} for a role the references do not tell (a
   * nested query's item: SelectExpr, or the role of the predicate the query is an operand of).
   */
  private static String unwrapped(TextRef r) {
    if (r.role() != Role.AggArg) {
      return key(r.column(), r.role(), 0, r.selectItem());
    }
    return r.selectItem() >= 0
        ? key(r.column(), Role.SelectExpr, 0, r.selectItem())
        : r.column() + " | ? | 0 | -1";
  }

  /**
   * Analyses the edited text and compares: with {@code appended} null, its references must be
   * {@code expected}; else they must be {@code expected} with one reference to {@code appended}
   * (SelectExpr, no aggregate) more, in a top-level item after all others.
   */
  private void check(
      String kind, String id, Schema schema, String edited, List<String> expected, String appended) {
    counts.merge(kind, 1, Integer::sum);
    String where = kind + " " + id + ": " + edited;
    List<String> actual;
    try {
      actual = new SqlAnalyzer(schema).analyse(edited).refs().stream().map(EditChecks::key).toList();
    } catch (SqlAnalysisException e) {
      failures.add(where + "\n    " + e.getMessage());
      return;
    }
    boolean same = appended == null ? matches(expected, actual) : appends(expected, actual, appended);
    if (!same) {
      failures.add(where + "\n    expected " + expected + "\n    actual   " + actual);
      return;
    }
    String error = databases.compileError(schema, edited);
    if (error != null) {
      failures.add(where + "\n    SQLite: " + error);
    }
  }

  private static boolean matches(List<String> expected, List<String> actual) {
    if (expected.size() != actual.size()) {
      return false;
    }
    for (int i = 0; i < expected.size(); i++) {
      String e = expected.get(i);
      String a = actual.get(i);
      boolean ok =
          e.contains(" | ? | ")
              ? a.startsWith(e.substring(0, e.indexOf(" | ? | ") + 3))
                  && !a.contains(" | AggArg | ")
                  && a.endsWith(" | 0 | -1")
              : e.equals(a);
      if (!ok) {
        return false;
      }
    }
    return true;
  }

  private static boolean appends(List<String> before, List<String> after, String column) {
    int lastItem = after.stream().mapToInt(EditChecks::item).max().orElse(-1);
    for (int i = 0; i < after.size(); i++) {
      String a = after.get(i);
      if (a.equals(key(column, Role.SelectExpr, 0, lastItem))
          && after.stream().filter(x -> item(x) == lastItem).count() == 1) {
        List<String> rest = new ArrayList<>(after);
        rest.remove(i);
        if (rest.equals(before)) {
          return true;
        }
      }
    }
    return false;
  }

  private static int item(String key) {
    return Integer.parseInt(key.substring(key.lastIndexOf(" | ") + 3));
  }

  static String key(TextRef r) {
    return key(r.column(), r.role(), r.aggregate().id(), r.selectItem());
  }

  static String key(String column, Role role, int aggId, int selectItem) {
    return column + " | " + role + " | " + aggId + " | " + selectItem;
  }
}

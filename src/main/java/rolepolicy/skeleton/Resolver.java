package rolepolicy.skeleton;

import java.util.Collections;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.statement.select.AllColumns;
import net.sf.jsqlparser.statement.select.AllTableColumns;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.select.SelectItem;
import rolepolicy.sql.ClauseWalker;

/**
 * Decides what each column reference of a walked query stands for, without a schema
 * (docs/skeleton.md, "Columns"):
 *
 * <ul>
 *   <li>{@code q.c}: the column {@code c} of the FROM entry that {@code q} names (an alias or a
 *       table name, at the column's level or an enclosing one); an unknown {@code q} is taken for a
 *       table name;
 *   <li>{@code c}, outside the SELECT items, where an item is aliased {@code c}: that alias;
 *   <li>{@code "c"} (double quotes, no qualifier): a string, as SQLite reads it when no column has
 *       that name — unless {@code c} is written as a column elsewhere in the query;
 *   <li>{@code c} at a level with one FROM entry: that entry's column; with several: the column of
 *       the only entry that {@code c} is known for (written qualified anywhere in the query, or an
 *       output of a derived or common table), else the column keyed by its name alone; with none:
 *       the same at the enclosing level.
 * </ul>
 *
 * A column of a derived or common table is the output it names: an item's alias, an item that is
 * that column, or a column of the only table behind {@code *}.
 */
final class Resolver {
  /** What a column reference stands for. */
  sealed interface Resolution {}

  /**
   * A column, or an output of a derived or common table (which may be an alias).
   *
   * @param qualifier the table placeholder's name when the reference is qualified, else null
   */
  record AsColumn(Name qualifier, Name name) implements Resolution {}

  /** A reference to a SELECT item's alias. */
  record AsAlias(Name alias) implements Resolution {}

  /** A double-quoted string. */
  record AsText(Name text) implements Resolution {}

  private final QueryWalk walk;
  private final Map<Column, Use.ColumnName> uses = new IdentityHashMap<>();
  private final Map<Column, Resolution> resolved = new IdentityHashMap<>();

  /** The references being resolved: a recursive common table can lead back to one. */
  private final Set<Column> resolving = Collections.newSetFromMap(new IdentityHashMap<>());

  /** Keys of the columns written with a qualifier, or at a level with one schema table. */
  private final Set<String> known = new HashSet<>();

  /** The names written as columns: unquoted or qualified. */
  private final Set<String> columnNames = new HashSet<>();

  Resolver(QueryWalk walk) {
    this.walk = walk;
    for (Use use : walk.uses) {
      if (use instanceof Use.ColumnName column) {
        uses.put(column.column(), column);
        knownColumn(column);
      }
    }
  }

  private void knownColumn(Use.ColumnName use) {
    Column column = use.column();
    String name = QueryWalk.lower(column.getColumnName());
    if (column.getTable() != null || !column.getColumnName().startsWith("\"")) {
      columnNames.add(name);
    }
    FromEntry entry = null;
    if (column.getTable() != null && column.getTable().getName() != null) {
      entry = use.scope().qualified(QueryWalk.lower(column.getTable().getName()));
    } else if (use.scope().entries.size() == 1) {
      entry = use.scope().entries.get(0);
    }
    if (entry != null && entry.body() == null) {
      known.add(Name.columnOf(entry.table(), name).key());
    }
  }

  Resolution resolve(Use.ColumnName use) {
    Resolution resolution = resolved.get(use.column());
    if (resolution == null) {
      resolving.add(use.column());
      resolution = resolveOnce(use);
      resolving.remove(use.column());
      resolved.put(use.column(), resolution);
    }
    return resolution;
  }

  private Resolution resolveOnce(Use.ColumnName use) {
    Column column = use.column();
    String written = column.getColumnName();
    String name = QueryWalk.lower(written);
    if (column.getTable() != null && column.getTable().getName() != null) {
      String qualifier = QueryWalk.lower(column.getTable().getName());
      FromEntry entry = use.scope().qualified(qualifier);
      Name table = entry != null ? entry.table() : Name.table("t:" + qualifier, qualifier);
      Name target = entry != null ? columnOf(entry, name) : Name.columnOf(table, name);
      return new AsColumn(table, target);
    }
    if (!use.inItems() && use.scope().itemAliases.contains(name)) {
      return new AsAlias(Name.alias(name));
    }
    if (written.startsWith("\"") && !columnNames.contains(name)) {
      String value = written.substring(1, written.length() - 1).replace("\"\"", "\"");
      return new AsText(new Name(Name.Kind.STRING, value, written));
    }
    return new AsColumn(null, unqualified(name, use.scope()));
  }

  /** An unqualified column at a level and the levels around it. */
  private Name unqualified(String name, Scope scope) {
    for (Scope level = scope; level != null; level = level.outer) {
      List<FromEntry> entries = level.entries;
      if (entries.size() == 1) {
        return columnOf(entries.get(0), name);
      }
      if (entries.size() > 1) {
        List<FromEntry> candidates = entries.stream().filter(e -> knows(e, name)).toList();
        return candidates.size() == 1 ? columnOf(candidates.get(0), name) : Name.column(name);
      }
    }
    return Name.column(name);
  }

  private boolean knows(FromEntry entry, String name) {
    if (entry.body() == null) {
      return known.contains(Name.columnOf(entry.table(), name).key());
    }
    return entry.declaredColumns().contains(name) || output(entry.body(), name) != null;
  }

  /** A column of a FROM entry: a schema table's column, or an output of its query. */
  private Name columnOf(FromEntry entry, String name) {
    if (entry.body() == null || entry.declaredColumns().contains(name)) {
      return Name.columnOf(entry.table(), name);
    }
    Name output = output(entry.body(), name);
    return output != null ? output : Name.columnOf(entry.table(), name);
  }

  /** The output column {@code name} of a query, from its first plain part; null if unknown. */
  private Name output(Select query, String name) {
    PlainSelect plain = ClauseWalker.plainPart(query, false);
    if (plain == null) {
      return null;
    }
    for (SelectItem<?> item : plain.getSelectItems()) {
      if (item.getAlias() != null) {
        if (QueryWalk.lower(item.getAlias().getName()).equals(name)) {
          return Name.alias(name);
        }
      } else if (item.getExpression() instanceof Column column
          && QueryWalk.lower(column.getColumnName()).equals(name)
          && uses.containsKey(column)
          && !resolving.contains(column)) {
        Resolution inner = resolve(uses.get(column));
        return inner instanceof AsColumn asColumn ? asColumn.name() : null;
      }
    }
    boolean star =
        plain.getSelectItems().stream()
            .anyMatch(
                i ->
                    i.getExpression() instanceof AllColumns
                        && !(i.getExpression() instanceof AllTableColumns));
    Scope scope = walk.levelOf(plain);
    if (star && scope != null && scope.entries.size() == 1 && scope.entries.get(0).body() == null) {
      return Name.columnOf(scope.entries.get(0).table(), name);
    }
    return null;
  }
}

package rolepolicy.sql;

import java.util.List;
import java.util.Optional;

/**
 * The common table expressions ({@code WITH x AS (...)}) a query can read, each with its output
 * columns. A later or inner definition hides an earlier or outer one of the same name, and any of
 * them hides a schema table of that name, as in SQLite.
 */
final class CommonTables {
  static final CommonTables NONE = new CommonTables(null, List.of(), null);

  private final String name;
  private final List<String> columns;
  private final CommonTables outer;

  private CommonTables(String name, List<String> columns, CommonTables outer) {
    this.name = name;
    this.columns = columns;
    this.outer = outer;
  }

  /** These and one more, named {@code name} (unquoted). */
  CommonTables with(String name, List<String> columns) {
    return new CommonTables(name, List.copyOf(columns), this);
  }

  /** The output columns of the table expression so named (any case), if one is in scope. */
  Optional<List<String>> columns(String tableName) {
    for (CommonTables t = this; t.name != null; t = t.outer) {
      if (t.name.equalsIgnoreCase(tableName)) {
        return Optional.of(t.columns);
      }
    }
    return Optional.empty();
  }
}

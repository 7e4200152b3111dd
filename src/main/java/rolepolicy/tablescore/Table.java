package rolepolicy.tablescore;

import java.util.List;

/** A result table: column names and rows of values (text, numbers or null). */
public record Table(List<String> columns, List<List<Object>> rows) {
  public Table {
    columns = List.copyOf(columns);
    rows = List.copyOf(rows);
  }
}

package rolepolicy.tablescore;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import rolepolicy.db.DuckDb;
import rolepolicy.db.Execution;
import rolepolicy.io.InputException;

/**
 * A dataset's ground-truth tables in DuckDB. Each CSV is read as text and every column cast by
 * its attribute's {@code value_type}, not by DuckDB's type guessing: {@code int} and {@code float}
 * after trimming and dropping thousands separators, {@code str} and {@code multi_str} trimmed; a
 * blank cell is NULL. An {@code int} column holding a number with a fraction is read as {@code
 * float}, so the value is kept (counted as widened); a cell of a number column that is no number
 * at all is NULL to the queries (counted as a cast failure): the column stays numeric, as queries
 * compare it. Its text is kept, and a gold result ({@link #gold}) shows it where a query selects it.
 *
 * <p>Table names: in a dataset of several CSV files, a file's stem is its table's name; a dataset
 * of one file is queried under several names, so there every name its queries use reads that file.
 */
public final class GroundTruth implements AutoCloseable {
  private final DuckDb db;
  /** Column names by table (lower-cased table name). */
  private final Map<String, List<String>> columns = new LinkedHashMap<>();
  /** Per table (as loaded), per column: cells that were not a number of the column's type. */
  private final Map<String, Map<String, Integer>> castFailures = new TreeMap<>();
  /** Per table (as loaded), per int column read as float: its cells with a fraction. */
  private final Map<String, Map<String, Integer>> widened = new TreeMap<>();
  /** Per table (lower-cased, aliases too), per column (lower-cased): its cells that were no number. */
  private final Map<String, Map<String, List<Prose>>> prose = new TreeMap<>();

  /** A cell of a number column that was no number: its text, and its row's values by lower-cased column. */
  record Prose(String text, Map<String, Object> row) {}

  private GroundTruth(DuckDb db) {
    this.db = db;
  }

  /** The CSV files of a dataset folder, by name. */
  public static List<Path> csvFiles(Path dataset) {
    try (Stream<Path> files = Files.list(dataset)) {
      return files.filter(f -> f.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".csv"))
          .sorted().toList();
    } catch (java.io.IOException e) {
      throw new InputException(dataset + ": cannot list (" + InputException.reason(e) + ")", e);
    }
  }

  /**
   * Loads the dataset's CSV files.
   *
   * @param aliases for a one-file dataset, the other table names its queries use
   */
  public static GroundTruth load(Path dataset, Attributes attributes, List<String> aliases, double timeoutSeconds) {
    List<Path> files = csvFiles(dataset);
    if (files.isEmpty()) {
      throw new InputException(dataset + ": no ground-truth CSV file");
    }
    GroundTruth truth = new GroundTruth(new DuckDb(timeoutSeconds));
    try {
      for (Path file : files) {
        String stem = file.getFileName().toString().replaceFirst("(?i)\\.csv$", "");
        truth.loadTable(file, stem, attributes);
      }
      if (files.size() == 1) {
        String stem = truth.columns.keySet().iterator().next();
        for (String alias : aliases) {
          String lower = alias.toLowerCase(Locale.ROOT);
          if (!truth.columns.containsKey(lower)) {
            truth.db.execute(List.of("CREATE VIEW " + DuckDb.identifier(alias) + " AS SELECT * FROM "
                + DuckDb.identifier(stem)));
            truth.columns.put(lower, truth.columns.get(stem));
            if (truth.prose.containsKey(stem)) {
              truth.prose.put(lower, truth.prose.get(stem));
            }
          }
        }
      }
      return truth;
    } catch (SQLException e) {
      truth.close();
      throw new InputException(dataset + ": " + e.getMessage(), e);
    } catch (RuntimeException e) {
      truth.close();
      throw e;
    }
  }

  private void loadTable(Path file, String name, Attributes attributes) throws SQLException {
    String raw = DuckDb.identifier("raw " + name);
    try {
      db.execute(List.of("CREATE TABLE " + raw + " AS SELECT * FROM " + DuckDb.readCsv(file)));
    } catch (SQLException e) {
      throw new InputException(file + ": not a readable CSV file: " + firstLine(e.getMessage()), e);
    }
    Execution header = db.query("SELECT * FROM " + raw + " LIMIT 0");
    Map<String, Attributes.Attribute> typed = attributes.table(name);
    Map<String, Integer> fractions = fractions(raw, header.columns(), typed);
    if (!fractions.isEmpty()) {
      widened.put(name, fractions);
    }
    List<String> casts = new ArrayList<>();
    Map<String, String> noNumber = new LinkedHashMap<>();
    for (String column : header.columns()) {
      Attributes.Attribute attribute = typed == null ? null : typed.get(column.toLowerCase(Locale.ROOT));
      String type = attribute == null ? "str" : fractions.containsKey(column) ? "float" : attribute.valueType();
      String cell = DuckDb.identifier(column);
      String cast = cast(cell, type);
      casts.add(cast + " AS " + cell);
      if (type.equals("int") || type.equals("float")) {
        noNumber.put(column, "NULLIF(TRIM(" + cell + "), '') IS NOT NULL AND " + cast + " IS NULL");
      }
    }
    List<String> numeric = List.copyOf(noNumber.keySet());
    List<String> failures = numeric.stream().map(c -> "count(*) FILTER (WHERE " + noNumber.get(c) + ")").toList();
    db.execute(List.of(
        "CREATE TABLE " + DuckDb.identifier(name) + " AS SELECT " + String.join(", ", casts) + " FROM " + raw));
    if (!numeric.isEmpty()) {
      Execution counts = db.query("SELECT " + String.join(", ", failures) + " FROM " + raw);
      Map<String, Integer> failed = new TreeMap<>();
      for (int i = 0; i < numeric.size(); i++) {
        int n = ((Number) counts.rows().get(0).get(i)).intValue();
        if (n > 0) {
          failed.put(numeric.get(i), n);
        }
      }
      if (!failed.isEmpty()) {
        castFailures.put(name, failed);
        keepProse(raw, name, header.columns(), casts, failed.keySet(), noNumber);
      }
    }
    db.execute(List.of("DROP TABLE " + raw));
    columns.put(name.toLowerCase(Locale.ROOT), header.columns());
  }

  /**
   * Keeps the text of each cell of the {@code failed} columns that was no number, with its row's
   * values as the table holds them.
   */
  private void keepProse(String raw, String name, List<String> header, List<String> casts, java.util.Set<String> failed,
      Map<String, String> noNumber) throws SQLException {
    Map<String, List<Prose>> byColumn = new TreeMap<>();
    for (String column : failed) {
      Execution cells = db.query("SELECT " + String.join(", ", casts) + ", TRIM(" + DuckDb.identifier(column) + ") FROM "
          + raw + " WHERE " + noNumber.get(column));
      List<Prose> found = new ArrayList<>();
      for (List<Object> row : cells.rows()) {
        Map<String, Object> values = new TreeMap<>();
        for (int i = 0; i < header.size(); i++) {
          values.put(header.get(i).toLowerCase(Locale.ROOT), row.get(i));
        }
        found.add(new Prose((String) row.get(header.size()), values));
      }
      byColumn.put(column.toLowerCase(Locale.ROOT), List.copyOf(found));
    }
    prose.put(name.toLowerCase(Locale.ROOT), byColumn);
  }

  /**
   * A query's gold result: the rows of its gold SQL, where each NULL of a selected number column
   * whose cell held no number shows that cell's text. The cell is found by the row's key columns
   * (its table's id and entity key, which the gold SQL selects); a NULL no key leads to stays NULL.
   */
  public Execution gold(UdaQuery query) {
    Execution result = db.query(query.goldSql());
    if (result.status() != Execution.Status.OK || prose.isEmpty()) {
      return result;
    }
    List<UdaQuery.OutputColumn> columns = query.columns();
    List<List<Object>> rows = new ArrayList<>(result.rows());
    for (int i = 0; i < columns.size(); i++) {
      UdaQuery.OutputColumn c = columns.get(i);
      List<Prose> cells = c.table() == null || c.function() != null || c.role() == ColumnRole.KEY ? null
          : prose.getOrDefault(c.table().toLowerCase(Locale.ROOT), Map.of()).get(c.attribute().toLowerCase(Locale.ROOT));
      if (cells == null) {
        continue;
      }
      for (int r = 0; r < rows.size(); r++) {
        if (rows.get(r).get(i) == null) {
          String text = proseAt(cells, columns, c.table(), rows.get(r));
          if (text != null) {
            List<Object> row = new ArrayList<>(rows.get(r));
            row.set(i, text);
            rows.set(r, java.util.Collections.unmodifiableList(row));
          }
        }
      }
    }
    return Execution.ok(result.columns(), rows);
  }

  /** The text of the one cell whose row has the gold row's key values for {@code table}, or null. */
  private static String proseAt(List<Prose> cells, List<UdaQuery.OutputColumn> columns, String table, List<Object> row) {
    String found = null;
    int matches = 0;
    for (Prose cell : cells) {
      boolean keyed = false;
      boolean same = true;
      for (int k = 0; k < columns.size(); k++) {
        UdaQuery.OutputColumn key = columns.get(k);
        if (key.role() == ColumnRole.KEY && key.attribute() != null && table.equalsIgnoreCase(key.table())) {
          keyed = true;
          Object value = row.get(k);
          same &= value != null && value.equals(cell.row().get(key.attribute().toLowerCase(Locale.ROOT)));
        }
      }
      if (keyed && same) {
        found = cell.text();
        matches++;
      }
    }
    return matches == 1 ? found : null;
  }

  /** The int columns holding numbers with a fraction, with how many such cells. */
  private Map<String, Integer> fractions(String raw, List<String> header, Map<String, Attributes.Attribute> typed)
      throws SQLException {
    List<String> ints = new ArrayList<>();
    List<String> counts = new ArrayList<>();
    for (String column : header) {
      Attributes.Attribute attribute = typed == null ? null : typed.get(column.toLowerCase(Locale.ROOT));
      if (attribute != null && attribute.valueType().equals("int")) {
        String number = cast(DuckDb.identifier(column), "float");
        ints.add(column);
        counts.add("count(*) FILTER (WHERE " + number + " <> floor(" + number + "))");
      }
    }
    Map<String, Integer> found = new TreeMap<>();
    if (ints.isEmpty()) {
      return found;
    }
    List<Object> row = db.query("SELECT " + String.join(", ", counts) + " FROM " + raw).rows().get(0);
    for (int i = 0; i < ints.size(); i++) {
      int n = ((Number) row.get(i)).intValue();
      if (n > 0) {
        found.put(ints.get(i), n);
      }
    }
    return found;
  }

  /** The cast of one text cell to a value type (see the class comment). */
  static String cast(String cell, String type) {
    String trimmed = "NULLIF(TRIM(" + cell + "), '')";
    String number = "TRY_CAST(CASE WHEN regexp_full_match(TRIM(" + cell + "), '[-+]?\\d{1,3}(,\\d{3})+(\\.\\d+)?')"
        + " THEN REPLACE(TRIM(" + cell + "), ',', '') ELSE TRIM(" + cell + ") END AS DOUBLE)";
    return switch (type) {
      case "int" -> "CASE WHEN " + number + " = floor(" + number + ") THEN CAST(" + number + " AS BIGINT) END";
      case "float" -> number;
      default -> trimmed;
    };
  }

  private static String firstLine(String message) {
    return message == null ? "" : message.lines().findFirst().orElse("");
  }

  /** The columns of a table, or null when the dataset has no such table. */
  public List<String> columnsOf(String table) {
    return columns.get(table.toLowerCase(Locale.ROOT));
  }

  /** Cells of int and float columns that were not such a number, by table and column. */
  public Map<String, Map<String, Integer>> castFailures() {
    return castFailures;
  }

  /** Int columns read as float because cells hold a fraction: their such cells, by table and column. */
  public Map<String, Map<String, Integer>> widened() {
    return widened;
  }

  public Execution query(String sql) {
    return db.query(sql);
  }

  @Override
  public void close() {
    db.close();
  }
}

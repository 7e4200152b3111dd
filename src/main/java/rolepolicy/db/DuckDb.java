package rolepolicy.db;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import rolepolicy.cache.NativeLibraries;

/**
 * An in-memory DuckDB database: CSV files are read into it as text, queries run through {@link
 * TimedQuery}. The CSV files themselves are only read.
 */
public final class DuckDb implements AutoCloseable {
  private final Connection connection;
  private final TimedQuery query;

  public DuckDb(double timeoutSeconds) {
    try {
      // one thread: a GROUP BY without ORDER BY returns its rows in the same order on every run
      java.util.Properties config = new java.util.Properties();
      config.setProperty("threads", "1");
      this.connection = NativeLibraries.loading(() -> DriverManager.getConnection("jdbc:duckdb:", config));
    } catch (Exception e) {
      throw new IllegalStateException("DuckDB does not start: " + e.getMessage(), e);
    }
    this.query = new TimedQuery(timeoutSeconds);
  }

  /** A {@code read_csv} call that reads every cell as text: a header line, commas, double quotes. */
  public static String readCsv(Path file) {
    return "read_csv(" + literal(file.toAbsolutePath().toString())
        + ", header = true, all_varchar = true, delim = ',', quote = '\"', escape = '\"',"
        + " strict_mode = true)";
  }

  /** Runs a query; at most {@link TimedQuery#MAX_ROWS} rows. */
  public Execution query(String sql) {
    return query.run(connection, sql, TimedQuery.MAX_ROWS, false);
  }

  /** Runs statements that return no rows (CREATE, DROP); the first failure is thrown. */
  public void execute(List<String> statements) throws SQLException {
    try (Statement statement = connection.createStatement()) {
      for (String sql : statements) {
        statement.execute(sql);
      }
    }
  }

  /** A SQL string literal. */
  public static String literal(String text) {
    return "'" + text.replace("'", "''") + "'";
  }

  /** A SQL identifier, double-quoted. */
  public static String identifier(String name) {
    return "\"" + name.replace("\"", "\"\"") + "\"";
  }

  @Override
  public void close() {
    query.close();
    try {
      connection.close();
    } catch (SQLException e) {
      // an in-memory database loses nothing on close
    }
  }
}

package rolepolicy.db;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteOpenMode;
import rolepolicy.cache.NativeLibraries;

/**
 * Runs queries on Spider's SQLite databases ({@code DIR/<db_id>/<db_id>.sqlite}), opened read-only
 * (and {@code query_only}), with a per-query time limit. One connection per database, reused.
 */
public final class SqliteRunner implements AutoCloseable {
  /** A result larger than this is an error rather than a memory hazard. */
  public static final int MAX_ROWS = TimedQuery.MAX_ROWS;

  private final Path databases;
  private final Map<String, Connection> connections = new HashMap<>();
  /** Why a database could not be opened, by db_id: asked once, not on every query. */
  private final Map<String, String> unusable = new HashMap<>();
  private final TimedQuery query;

  public SqliteRunner(Path databases, double timeoutSeconds) {
    this.databases = databases;
    this.query = new TimedQuery(timeoutSeconds);
  }

  /** Loads the SQLite driver and its native library, which the first connection would load otherwise. */
  public static void loadDriver() {
    try {
      Class.forName("org.sqlite.JDBC");
      NativeLibraries.loading(org.sqlite.SQLiteJDBCLoader::initialize);
    } catch (Exception | LinkageError e) {
      // the first connection loads it, and reports what fails
    }
  }

  public Path databaseFile(String dbId) {
    return databases.resolve(dbId).resolve(dbId + ".sqlite");
  }

  public Execution run(String dbId, String sql) {
    return run(dbId, sql, MAX_ROWS, false);
  }

  /**
   * Runs a query whose result can only match when it has at most {@code maxRows} rows: reading
   * stops at row {@code maxRows + 1}, and the first {@code maxRows} rows come back as a result
   * marked cut short (status OK, with a message), which matches nothing, so that a huge wrong result costs neither time nor memory.
   */
  public Execution runAtMost(String dbId, String sql, int maxRows) {
    return run(dbId, sql, Math.min(maxRows, MAX_ROWS), maxRows < MAX_ROWS);
  }

  private Execution run(String dbId, String sql, int maxRows, boolean cut) {
    Connection connection;
    try {
      long t = rolepolicy.io.Phases.start();
      connection = connection(dbId);
      rolepolicy.io.Phases.add("connection lookup/open", t);
    } catch (SQLException e) {
      return Execution.failed(Execution.Status.NO_DATABASE, databaseFile(dbId) + ": " + e.getMessage());
    }
    if (connection == null) {
      return Execution.failed(Execution.Status.NO_DATABASE, databaseFile(dbId) + ": no such file");
    }
    return query.run(connection, sql, maxRows, cut);
  }

  /** The open connection of a database, or null when its file does not exist. */
  private Connection connection(String dbId) throws SQLException {
    if (connections.containsKey(dbId)) {
      return connections.get(dbId);
    }
    if (unusable.containsKey(dbId)) {
      throw new SQLException(unusable.get(dbId));
    }
    Path file = databaseFile(dbId);
    Connection connection = null;
    if (Files.isRegularFile(file)) {
      SQLiteConfig config = new SQLiteConfig();
      config.setReadOnly(true);
      config.setOpenMode(SQLiteOpenMode.READONLY);
      // a URI, so the path is percent-encoded: a space, '%', '#' or '?' in it stays part of the name
      String uri = "jdbc:sqlite:file:" + file.toAbsolutePath().toUri().getRawPath() + "?mode=ro";
      try {
        connection = DriverManager.getConnection(uri, config.toProperties());
        try (Statement check = connection.createStatement()) {
          check.execute("PRAGMA query_only = 1");
          check.executeQuery("SELECT count(*) FROM sqlite_master").close(); // reads the header
        }
      } catch (SQLException e) {
        if (connection != null) {
          connection.close();
        }
        unusable.put(dbId, e.getMessage());
        throw e;
      }
    }
    connections.put(dbId, connection);
    return connection;
  }

  @Override
  public void close() {
    query.close();
    for (Connection connection : connections.values()) {
      try {
        if (connection != null) {
          connection.close();
        }
      } catch (SQLException e) {
        // closing a read-only connection loses nothing
      }
    }
  }
}

package rolepolicy.evaluate;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteOpenMode;

/**
 * Runs queries on Spider's SQLite databases ({@code DIR/<db_id>/<db_id>.sqlite}), opened read-only
 * (and {@code query_only}), with a per-query time limit. One connection per database, reused.
 */
public final class SqliteRunner implements AutoCloseable {
  /** A result larger than this is an error rather than a memory hazard. */
  static final int MAX_ROWS = 1_000_000;

  private final Path databases;
  private final long timeoutMillis;
  private final Map<String, Connection> connections = new HashMap<>();
  /** Why a database could not be opened, by db_id: asked once, not on every query. */
  private final Map<String, String> unusable = new HashMap<>();
  private final ScheduledExecutorService watchdog =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "sqlite-timeout");
            t.setDaemon(true);
            return t;
          });

  public SqliteRunner(Path databases, double timeoutSeconds) {
    this.databases = databases;
    this.timeoutMillis = Math.round(timeoutSeconds * 1000);
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
      connection = connection(dbId);
    } catch (SQLException e) {
      return Execution.failed(Execution.Status.NO_DATABASE, databaseFile(dbId) + ": " + e.getMessage());
    }
    if (connection == null) {
      return Execution.failed(Execution.Status.NO_DATABASE, databaseFile(dbId) + ": no such file");
    }
    AtomicBoolean timedOut = new AtomicBoolean();
    try (Statement statement = connection.createStatement()) {
      ScheduledFuture<?> timer =
          watchdog.schedule(
              () -> {
                timedOut.set(true);
                try {
                  statement.cancel();
                } catch (SQLException e) {
                  // the query ends by itself
                }
              },
              timeoutMillis,
              TimeUnit.MILLISECONDS);
      try (ResultSet result = statement.executeQuery(sql)) {
        int width = result.getMetaData().getColumnCount();
        List<List<Object>> rows = new ArrayList<>();
        while (result.next()) {
          if (rows.size() == maxRows) {
            if (cut) {
              return new Execution(Execution.Status.OK, rows, "more than " + maxRows + " rows; stopped reading");
            }
            return Execution.failed(Execution.Status.ERROR, "more than " + MAX_ROWS + " rows");
          }
          List<Object> row = new ArrayList<>(width);
          for (int c = 1; c <= width; c++) {
            row.add(result.getObject(c));
          }
          rows.add(row);
        }
        return Execution.ok(rows);
      } finally {
        timer.cancel(false);
      }
    } catch (SQLException e) {
      if (timedOut.get()) {
        return Execution.failed(Execution.Status.TIMEOUT, "no result within " + timeoutMillis + " ms");
      }
      return Execution.failed(Execution.Status.ERROR, e.getMessage());
    }
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
    watchdog.shutdownNow();
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

package rolepolicy.db;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Runs one query on a JDBC connection with a time limit (the statement is cancelled when it
 * runs over) and a cap on the rows read. Shared by the SQLite and the DuckDB runners.
 */
public final class TimedQuery implements AutoCloseable {
  /** A result larger than this is an error rather than a memory hazard. */
  public static final int MAX_ROWS = 1_000_000;

  private final long timeoutMillis;
  private final ScheduledExecutorService watchdog =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "query-timeout");
            t.setDaemon(true);
            return t;
          });

  public TimedQuery(double timeoutSeconds) {
    this.timeoutMillis = Math.round(timeoutSeconds * 1000);
  }

  /**
   * Runs {@code sql}. At most {@code maxRows} rows are read: with {@code cut} the first {@code
   * maxRows} come back as OK with a message saying more exist; without it, more rows are an error.
   */
  public Execution run(Connection connection, String sql, int maxRows, boolean cut) {
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
        ResultSetMetaData meta = result.getMetaData();
        int width = meta.getColumnCount();
        List<String> columns = new ArrayList<>(width);
        for (int c = 1; c <= width; c++) {
          columns.add(meta.getColumnLabel(c));
        }
        List<List<Object>> rows = new ArrayList<>();
        while (result.next()) {
          if (rows.size() == maxRows) {
            if (cut) {
              return new Execution(Execution.Status.OK, columns, rows, "more than " + maxRows + " rows; stopped reading");
            }
            return Execution.failed(Execution.Status.ERROR, "more than " + maxRows + " rows");
          }
          List<Object> row = new ArrayList<>(width);
          for (int c = 1; c <= width; c++) {
            row.add(result.getObject(c));
          }
          rows.add(row);
        }
        return Execution.ok(columns, rows);
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

  @Override
  public void close() {
    watchdog.shutdownNow();
  }
}

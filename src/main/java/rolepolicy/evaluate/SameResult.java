package rolepolicy.evaluate;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import rolepolicy.db.SqliteRunner;
import rolepolicy.engine.ResultCheck;

/**
 * Whether a rewrite keeps the answer ({@link ResultMatch#sameResult}), with one SQLite runner per
 * thread: a runner's connection is not shared, and a timed-out query's cancel stops only its own.
 */
public final class SameResult implements ResultCheck, AutoCloseable {
  private final List<SqliteRunner> opened = Collections.synchronizedList(new ArrayList<>());
  private final ThreadLocal<SqliteRunner> runners;

  /** On the databases {@code DIR/<db_id>/<db_id>.sqlite}, each query within {@code timeoutSeconds}. */
  public SameResult(Path databases, double timeoutSeconds) {
    runners = ThreadLocal.withInitial(() -> {
      SqliteRunner runner = new SqliteRunner(databases, timeoutSeconds);
      opened.add(runner);
      return runner;
    });
  }

  @Override
  public String differs(String dbId, String before, String after) {
    return ResultMatch.sameResult(runners.get()).differs(dbId, before, after);
  }

  @Override
  public void close() {
    synchronized (opened) {
      opened.forEach(SqliteRunner::close);
    }
  }
}

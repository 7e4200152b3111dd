package rolepolicy.db;

import java.util.List;

/**
 * The outcome of running one query.
 *
 * @param status what happened
 * @param columns the result's column labels (OK only)
 * @param rows the result rows (OK only)
 * @param message the database's error message, or what could not be run; for OK, null, or why
 *     the rows were cut short ({@link SqliteRunner#runAtMost})
 */
public record Execution(Status status, List<String> columns, List<List<Object>> rows, String message) {
  public enum Status {
    OK,
    ERROR,
    TIMEOUT,
    NO_DATABASE
  }

  public static Execution ok(List<String> columns, List<List<Object>> rows) {
    return new Execution(Status.OK, columns, rows, null);
  }

  public static Execution failed(Status status, String message) {
    return new Execution(status, List.of(), List.of(), message);
  }
}

package rolepolicy.evaluate;

import java.util.List;

/**
 * The outcome of running one query.
 *
 * @param status what happened
 * @param rows the result rows (OK only)
 * @param message the database's error message, or what could not be run; for OK, null, or why
 *     the rows were cut short ({@link SqliteRunner#runAtMost})
 */
public record Execution(Status status, List<List<Object>> rows, String message) {
  public enum Status {
    OK,
    ERROR,
    TIMEOUT,
    NO_DATABASE
  }

  static Execution ok(List<List<Object>> rows) {
    return new Execution(Status.OK, rows, null);
  }

  static Execution failed(Status status, String message) {
    return new Execution(status, List.of(), message);
  }
}

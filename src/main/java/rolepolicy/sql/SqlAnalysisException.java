package rolepolicy.sql;

/** SQL text that cannot be analysed: the message says what failed and where. */
public final class SqlAnalysisException extends RuntimeException {
  public SqlAnalysisException(String message) {
    super(message);
  }

  public SqlAnalysisException(String message, Throwable cause) {
    super(message, cause);
  }
}

package rolepolicy.exactmatch;

/**
 * SQL text that cannot be put into Spider's structure: it does not parse, goes beyond Spider's
 * grammar ("beyond Spider's grammar: CASE"), or names what the schema does not have. The message
 * says which.
 */
public final class SpiderSqlException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public SpiderSqlException(String reason) {
    super(reason, null, false, false);
  }

  /** SQL beyond Spider's grammar. */
  static SpiderSqlException beyond(String what) {
    return new SpiderSqlException("beyond Spider's grammar: " + what);
  }
}

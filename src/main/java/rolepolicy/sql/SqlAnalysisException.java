package rolepolicy.sql;

/** SQL text that cannot be analysed: the message says what failed and where. */
public final class SqlAnalysisException extends RuntimeException {
  public SqlAnalysisException(String message) {
    super(message);
  }

  public SqlAnalysisException(String message, Throwable cause) {
    super(message, cause);
  }

  /** At most this many chars of SQL text go into a message. */
  static final int EXCERPT = 60;

  /**
   * A parsed element's text for a message: white space runs made one space, and cut to {@link
   * #EXCERPT} chars with an ellipsis, so that a message names what failed without repeating a whole
   * query.
   */
  static String excerpt(Object element) {
    String text = String.valueOf(element).strip().replaceAll("\\s+", " ");
    return text.length() <= EXCERPT ? text : text.substring(0, EXCERPT) + "…";
  }
}

package rolepolicy.sql;

/**
 * A stretch of SQL text: char offsets into the Java string, {@code end} exclusive.
 *
 * @param start offset of the first char
 * @param end offset just after the last char
 */
public record Span(int start, int end) {
  public Span {
    if (start < 0 || end < start) {
      throw new IllegalArgumentException("bad span [" + start + ", " + end + ")");
    }
  }

  /** The text this span covers in {@code sql}. */
  public String text(String sql) {
    return sql.substring(start, end);
  }
}

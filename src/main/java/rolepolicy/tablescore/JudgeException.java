package rolepolicy.tablescore;

/** A judge could not decide one cell (an answer it cannot read): that query is not scored. */
public final class JudgeException extends RuntimeException {
  public JudgeException(String message) {
    super(message);
  }
}

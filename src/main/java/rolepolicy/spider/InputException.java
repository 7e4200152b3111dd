package rolepolicy.spider;

/** Bad input: the message says what is wrong and where (file, record, field). */
public final class InputException extends RuntimeException {
  public InputException(String message) {
    super(message);
  }

  public InputException(String message, Throwable cause) {
    super(message, cause);
  }
}

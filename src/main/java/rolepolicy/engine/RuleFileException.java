package rolepolicy.engine;

/** A rule file that does not compile; the message names the file, line and Drools' complaint. */
public final class RuleFileException extends RuntimeException {
  public RuleFileException(String message) {
    super(message);
  }
}

package rolepolicy.engine;

/**
 * A rule file that does not compile (the message names the file, line and Drools' complaint), or a
 * rule whose action fails at run time (the message names the file and the rule).
 */
public final class RuleFileException extends RuntimeException {
  public RuleFileException(String message) {
    super(message);
  }
}

package rolepolicy.sql;

/** SQL identifiers as written. */
public final class Identifiers {
  private Identifiers() {}

  /** An identifier without its quotes: {@code "x"}, {@code `x`} or {@code [x]} is {@code x}. */
  public static String unquote(String identifier) {
    if (identifier.length() >= 2) {
      char first = identifier.charAt(0);
      char last = identifier.charAt(identifier.length() - 1);
      if ((first == '"' && last == '"')
          || (first == '`' && last == '`')
          || (first == '[' && last == ']')) {
        return identifier.substring(1, identifier.length() - 1);
      }
    }
    return identifier;
  }
}

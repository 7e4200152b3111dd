package rolepolicy.io;

/**
 * A name from data that becomes a file or folder name: one plain name, never a path. Refused are
 * the empty name, {@code .} and {@code ..}, and any name with a path separator, a NUL or another
 * control character.
 */
public final class PlainName {
  private PlainName() {}

  /** The name, or an {@link InputException} naming {@code what} and {@code where}. */
  public static String check(String name, String what, String where) {
    String wrong = name == null ? "it is missing"
        : name.isEmpty() ? "it is empty"
        : name.equals(".") || name.equals("..") ? "'" + name + "' is a path, not a name"
        : name.chars().anyMatch(c -> c == '/' || c == '\\') ? "it holds a path separator"
        : name.chars().anyMatch(Character::isISOControl) ? "it holds a control character"
        : null;
    if (wrong != null) {
      throw new InputException(where + ": " + what + " '" + (name == null ? "" : name.replaceAll("\\p{Cntrl}", "?"))
          + "' cannot be a file name (" + wrong + "): give it a plain name");
    }
    return name;
  }
}

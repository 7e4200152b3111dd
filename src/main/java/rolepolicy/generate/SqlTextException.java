package rolepolicy.generate;

/** A rewritten or negative SQL text whose analysis does not give the intended references. */
final class SqlTextException extends Exception {
  SqlTextException(String message) {
    super(message);
  }
}

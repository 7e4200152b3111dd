package rolepolicy.io;

/**
 * An output refused before anything was written: it would replace or lie inside an input, or
 * replace a file this tool did not write. The command line asked for it, so the exit code is 2.
 */
public final class OutputRefused extends RuntimeException {
  public OutputRefused(String message) {
    super(message);
  }
}

package rolepolicy.io;

/** The tool's version, as {@code --version} prints it and run.json records it. */
public final class Version {
  public static final String TEXT = "rolepolicy 0.1.0";

  private Version() {}
}

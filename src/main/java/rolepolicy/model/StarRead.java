package rolepolicy.model;

/**
 * A {@code *} (or {@code t.*}) in a SELECT list reads every column of this schema table, at any
 * depth; lower-cased.
 */
public record StarRead(String table) {
  @Override
  public String toString() {
    return "* reads " + table;
  }
}

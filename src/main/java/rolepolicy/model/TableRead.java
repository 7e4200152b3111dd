package rolepolicy.model;

/**
 * A schema table the query reads, at any depth, named by a reference or not ({@code COUNT(*) FROM t}
 * reads {@code t}); lower-cased.
 */
public record TableRead(String table) {
  @Override
  public String toString() {
    return "reads " + table;
  }
}

package rolepolicy.skeleton;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A query with its schema names and values replaced by placeholders (docs/skeleton.md).
 *
 * @param sql the skeleton text; empty when {@code failed}
 * @param opSignature {@code SELECT} and the query's parts in a fixed order, space-separated (e.g.
 *     {@code SELECT JOIN GROUPBY ORDER LIMIT}); {@code PARSE_ERROR} when {@code failed}
 * @param failed whether the query could not be skeletonized
 * @param error why it failed; null when it did not
 * @param tables table names (lower-cased) to {@code _tabN}, in first-seen order
 * @param columns columns ({@code table.column} when resolved, else {@code column}) to {@code _colN}
 * @param aliases column aliases (lower-cased) to {@code _aliasN}
 * @param literals literals as written to their placeholders ({@code '_strN'}, {@code 1}, {@code
 *     1.0})
 */
public record Skeleton(
    String sql,
    String opSignature,
    boolean failed,
    String error,
    Map<String, String> tables,
    Map<String, String> columns,
    Map<String, String> aliases,
    Map<String, String> literals) {

  /** The op signature of a query that could not be skeletonized. */
  public static final String PARSE_ERROR = "PARSE_ERROR";

  public Skeleton {
    tables = ordered(tables);
    columns = ordered(columns);
    aliases = ordered(aliases);
    literals = ordered(literals);
  }

  /** A failed skeleton: no text, never the original's. */
  static Skeleton failure(String error) {
    return new Skeleton("", PARSE_ERROR, true, error, Map.of(), Map.of(), Map.of(), Map.of());
  }

  private static Map<String, String> ordered(Map<String, String> map) {
    return Collections.unmodifiableMap(new LinkedHashMap<>(map));
  }
}

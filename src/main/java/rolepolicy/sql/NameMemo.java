package rolepolicy.sql;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * What a slow function gives for each name, kept once computed; safe across threads. It stops
 * keeping new names at 10,000, so memory stays bounded whatever the input.
 */
final class NameMemo<V> {
  private static final int MAX_NAMES = 10_000;

  private final Map<String, V> known = new ConcurrentHashMap<>();
  private final Function<String, V> compute;

  NameMemo(Function<String, V> compute) {
    this.compute = compute;
  }

  V get(String name) {
    V value = known.get(name);
    if (value == null) {
      value = compute.apply(name);
      if (known.size() < MAX_NAMES) {
        known.put(name, value);
      }
    }
    return value;
  }
}

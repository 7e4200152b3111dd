package rolepolicy.engine;

import java.util.LinkedHashMap;
import java.util.Map;

/** The values of the last keys used, at most {@code capacity} of them; safe across threads. */
public final class RecentValues<K, V> {
  private final Map<K, V> values;

  public RecentValues(int capacity) {
    this.values =
        new LinkedHashMap<>(capacity * 2, 0.75f, true) {
          @Override
          protected boolean removeEldestEntry(Map.Entry<K, V> eldest) {
            return size() > capacity;
          }
        };
  }

  /** The value of the key, or null; the key becomes the most recent one. */
  public synchronized V get(K key) {
    return values.get(key);
  }

  public synchronized void put(K key, V value) {
    values.put(key, value);
  }
}

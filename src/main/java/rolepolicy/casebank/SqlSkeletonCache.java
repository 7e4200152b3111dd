package rolepolicy.casebank;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;
import rolepolicy.cache.CacheFolder;
import rolepolicy.skeleton.Skeleton;

/**
 * The skeletons of the cases' SQL on disk ({@link CaseReader}; parsing 7,000 queries takes seconds,
 * and a rule edit changes few of them): {@code sql-skeletons-<key>.jsonl}, one {@code {"sql", "skeleton"}}
 * line per query text, keyed by the tool's build (the skeletonizer is code). Written whole to a
 * temporary file moved into place, in text order; a file that cannot be read is no cache.
 */
final class SqlSkeletonCache {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Path file;
  private Map<String, Skeleton> read = Map.of();

  /** One line of the file. */
  private record Entry(String sql, Skeleton skeleton) {}

  SqlSkeletonCache(Path folder) {
    byte[] digest = CacheFolder.sha256().digest(CacheFolder.buildStamp().getBytes(StandardCharsets.UTF_8));
    this.file = folder.resolve("sql-skeletons-" + HexFormat.of().formatHex(digest, 0, 8) + ".jsonl");
  }

  /** The skeletons by SQL text; none when the file is absent or unreadable. */
  Map<String, Skeleton> read() {
    Map<String, Skeleton> entries = new HashMap<>();
    if (!Files.isRegularFile(file)) {
      return entries;
    }
    try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        Entry e = JSON.readValue(line, Entry.class);
        if (e.sql() == null || e.skeleton() == null) {
          return new HashMap<>(); // not this file's format
        }
        entries.put(e.sql(), e.skeleton());
      }
    } catch (IOException | RuntimeException e) {
      return new HashMap<>(); // unreadable: computed again, and the file rewritten
    }
    read = entries;
    return entries;
  }

  /** Writes the file again with {@code used} (the skeletons of one read) when some are not in it. */
  void write(Map<String, Skeleton> used) {
    if (read.keySet().containsAll(used.keySet())) {
      return;
    }
    try {
      CacheFolder.writeWhole(file, out -> {
        for (Map.Entry<String, Skeleton> e : new TreeMap<>(used).entrySet()) {
          out.write(JSON.writeValueAsBytes(new Entry(e.getKey(), e.getValue())));
          out.write('\n');
        }
      });
    } catch (IOException e) {
      // the cache is a help: without it, the next build parses again
    }
  }
}

package rolepolicy.casebank;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import rolepolicy.cache.CacheFolder;

/**
 * Embeddings on disk, keyed by the embedded text and the model's name: one file per model,
 * {@code embeddings-<digest of the name>.bin}, holding the name, then each text (UTF-8) with its
 * vector. A file that cannot be read is no cache (everything is embedded again); it is written whole
 * to a temporary file moved into place, so a parallel build never reads half of one.
 */
final class EmbeddingCache {
  /** The most texts kept; past it, a write keeps the texts this process asked for only. */
  static final int MAX_ENTRIES = 200_000;

  private final Path folder;
  private final String model;
  private final Path file;
  private final int limit;
  private Map<String, float[]> read = Map.of();

  EmbeddingCache(Path folder, String model) {
    this(folder, model, MAX_ENTRIES);
  }

  /** A cache that keeps at most {@code limit} texts. */
  EmbeddingCache(Path folder, String model, int limit) {
    this.limit = limit;
    this.folder = folder;
    this.model = model;
    byte[] digest = CacheFolder.sha256().digest(model.getBytes(StandardCharsets.UTF_8));
    this.file = folder.resolve("embeddings-" + HexFormat.of().formatHex(digest, 0, 8) + ".bin");
  }

  Path file() {
    return file;
  }

  /** The cached vectors of the model; none when the file is absent, another model's or unreadable. */
  Map<String, float[]> read() {
    Map<String, float[]> entries = new HashMap<>();
    if (!Files.isRegularFile(file)) {
      return entries;
    }
    try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(file), 1 << 16))) {
      if (!in.readUTF().equals(model)) {
        return entries;
      }
      int dimension = in.readInt();
      byte[] bytes = new byte[4 * dimension];
      for (int n = in.readInt(); n > 0; n--) {
        byte[] text = new byte[in.readInt()];
        in.readFully(text);
        in.readFully(bytes); // the floats as writeFloat wrote them, big-endian, read in one go
        float[] vector = new float[dimension];
        java.nio.ByteBuffer.wrap(bytes).asFloatBuffer().get(vector);
        entries.put(new String(text, StandardCharsets.UTF_8), vector);
      }
    } catch (IOException | RuntimeException e) {
      return new HashMap<>(); // unreadable: embedded again, and the file rewritten
    }
    read = entries;
    return entries;
  }

  /**
   * Writes the file again with the vectors of {@code known} (which holds the file's), when some are
   * not in the file; how many were new. Past its limit ({@link #MAX_ENTRIES}) texts, only the {@code used} ones
   * are kept. Entries are written in text order, so the file does not depend on the order of work.
   */
  int write(Map<String, float[]> known, Set<String> used) {
    int fresh = (int) known.keySet().stream().filter(t -> !read.containsKey(t)).count();
    if (fresh == 0) {
      return 0;
    }
    Map<String, float[]> all = new TreeMap<>(known);
    if (all.size() > limit) {
      all.keySet().retainAll(used);
    }
    try {
      rolepolicy.cache.CacheFolder.writeWhole(file, stream -> {
        DataOutputStream out = new DataOutputStream(stream);
        out.writeUTF(model);
        out.writeInt(Embedder.DIMENSION);
        out.writeInt(all.size());
        for (Map.Entry<String, float[]> e : all.entrySet()) {
          byte[] text = e.getKey().getBytes(StandardCharsets.UTF_8);
          out.writeInt(text.length);
          out.write(text);
          for (float f : e.getValue()) {
            out.writeFloat(f);
          }
        }
        out.flush();
      });
      read = all;
      return fresh;
    } catch (IOException e) {
      return 0; // the cache is a help: without it, the next build embeds again
    }
  }
}

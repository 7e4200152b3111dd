package rolepolicy.evaluate;

import com.fasterxml.jackson.core.type.TypeReference;
import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import rolepolicy.io.Version;
import rolepolicy.cache.CacheFolder;
import rolepolicy.db.Execution;
import rolepolicy.io.DatasetWriter;

/**
 * What {@code evaluate} computes again on every run of the same split, kept on disk (SPEC §9 is
 * unchanged by it: the same bytes come out with the cache cold, warm or off).
 *
 * <ul>
 *   <li>Gold results, per database in {@code gold-<digest>.bin}, where the digest is the SHA-256 of
 *       the database file: each gold SQL text's execution (status, columns, typed cells), run once
 *       per (database, SQL). A timeout is not kept (it depends on the time limit and the machine).
 *   <li>The two reference predictors' figures, in {@code references-<key>.json}, where the key is the
 *       SHA-256 of the tool's version and build, the dataset, schema and rule files, the digests of
 *       the split's databases and the time limit: a reference predictor's figures follow from them.
 * </ul>
 *
 * Files are written whole, to a temporary file moved into place, so that parallel runs never read
 * half an entry; an entry that cannot be read is computed again.
 */
public final class EvaluationCache {
  private final Path folder;
  private final Path databases;
  private final Map<String, String> digests = new ConcurrentHashMap<>();
  private final Map<String, Map<String, Execution>> gold = new ConcurrentHashMap<>();
  private final Map<String, Boolean> added = new ConcurrentHashMap<>();
  private final String referencesKey;

  /**
   * A cache in {@code folder} for a split ({@code dataset}, its {@code tables}, the {@code rules}
   * folder, the {@code databases} folder or null, the time limit).
   */
  public EvaluationCache(Path folder, Path dataset, Path tables, rolepolicy.engine.RuleSet rules, Path databases, double timeoutSeconds,
      List<GoldRecord> records) {
    this.folder = folder;
    this.databases = databases;
    MessageDigest sha = CacheFolder.sha256();
    List<String> parts = new ArrayList<>(List.of(Version.TEXT, CacheFolder.buildStamp(), String.valueOf(timeoutSeconds),
        String.valueOf(databases != null), fileDigest(dataset, folder), fileDigest(tables, folder)));
    for (Path drl : rolepolicy.engine.RuleBase.ruleFiles(rules)) {
      parts.add(drl.getFileName() + " " + fileDigest(drl, folder));
    }
    if (databases != null) {
      for (String db : new TreeSet<>(records.stream().map(GoldRecord::dbId).toList())) {
        parts.add(db + " " + databaseDigest(db));
      }
    }
    for (String part : parts) {
      byte[] bytes = part.getBytes(StandardCharsets.UTF_8);
      sha.update((bytes.length + ":").getBytes(StandardCharsets.US_ASCII));
      sha.update(bytes);
    }
    this.referencesKey = HexFormat.of().formatHex(sha.digest());
  }

  private static String fileDigest(Path file, Path folder) {
    try {
      return CacheFolder.digest(file, folder);
    } catch (IOException e) {
      return "unreadable " + file;
    }
  }

  /** The SHA-256 of a database's file, or null when it has none. */
  private String databaseDigest(String dbId) {
    return digests.computeIfAbsent(dbId, db -> {
      Path file = databases.resolve(db).resolve(db + ".sqlite");
      try {
        return Files.isRegularFile(file) ? CacheFolder.digest(file, folder) : "";
      } catch (IOException e) {
        return "";
      }
    });
  }

  /** The gold result of {@code sql} on {@code dbId}: from the cache, else {@code run} (and kept). */
  Execution gold(String dbId, String sql, Supplier<Execution> run) {
    String digest = databaseDigest(dbId);
    if (digest.isEmpty()) {
      return run.get();
    }
    Map<String, Execution> known = gold.computeIfAbsent(digest, this::readGold);
    Execution cached = known.get(sql);
    if (cached != null) {
      return cached;
    }
    Execution result = run.get();
    if (result.status() != Execution.Status.TIMEOUT && result.status() != Execution.Status.NO_DATABASE && storable(result)) {
      known.put(sql, result);
      added.put(digest, true);
    }
    return result;
  }

  private Path goldFile(String digest) {
    return folder.resolve("gold-" + digest + ".bin");
  }

  private Map<String, Execution> readGold(String digest) {
    Map<String, Execution> entries = new ConcurrentHashMap<>();
    Path file = goldFile(digest);
    if (!Files.isRegularFile(file)) {
      return entries;
    }
    try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(file), 1 << 16))) {
      if (!in.readUTF().equals(Version.TEXT)) {
        return entries;
      }
      for (int n = in.readInt(); n > 0; n--) {
        String sql = readText(in);
        Execution.Status status = Execution.Status.valueOf(in.readUTF());
        String message = in.readBoolean() ? readText(in) : null;
        List<String> columns = new ArrayList<>();
        for (int c = in.readInt(); c > 0; c--) {
          columns.add(readText(in));
        }
        List<List<Object>> rows = new ArrayList<>();
        for (int r = in.readInt(); r > 0; r--) {
          List<Object> row = new ArrayList<>(columns.size());
          for (int c = in.readInt(); c > 0; c--) {
            row.add(readCell(in));
          }
          rows.add(row);
        }
        entries.put(sql, new Execution(status, columns, rows, message));
      }
      return entries;
    } catch (IOException | RuntimeException e) {
      return new ConcurrentHashMap<>(); // computed again and written anew
    }
  }

  private static boolean storable(Execution result) {
    for (List<Object> row : result.rows()) {
      for (Object cell : row) {
        if (!(cell == null || cell instanceof Integer || cell instanceof Long || cell instanceof Double
            || cell instanceof String || cell instanceof byte[])) {
          return false;
        }
      }
    }
    return true;
  }

  private static void writeText(DataOutputStream out, String text) throws IOException {
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    out.writeInt(bytes.length);
    out.write(bytes);
  }

  private static String readText(DataInputStream in) throws IOException {
    byte[] bytes = new byte[in.readInt()];
    in.readFully(bytes);
    return new String(bytes, StandardCharsets.UTF_8);
  }

  private static void writeCell(DataOutputStream out, Object cell) throws IOException {
    if (cell == null) {
      out.writeByte('N');
    } else if (cell instanceof Integer i) {
      out.writeByte('I');
      out.writeInt(i);
    } else if (cell instanceof Long l) {
      out.writeByte('L');
      out.writeLong(l);
    } else if (cell instanceof Double d) {
      out.writeByte('D');
      out.writeLong(Double.doubleToRawLongBits(d));
    } else if (cell instanceof String s) {
      out.writeByte('S');
      writeText(out, s);
    } else {
      byte[] b = (byte[]) cell;
      out.writeByte('B');
      out.writeInt(b.length);
      out.write(b);
    }
  }

  private static Object readCell(DataInputStream in) throws IOException {
    int tag = in.readByte();
    return switch (tag) {
      case 'N' -> null;
      case 'I' -> in.readInt();
      case 'L' -> in.readLong();
      case 'D' -> Double.longBitsToDouble(in.readLong());
      case 'S' -> readText(in);
      case 'B' -> {
        byte[] b = new byte[in.readInt()];
        in.readFully(b);
        yield b;
      }
      default -> throw new IOException("unknown cell tag " + tag);
    };
  }

  /** The reference predictors' figures of this split, or null when not cached. */
  Map<String, Metrics> references() {
    Path file = folder.resolve("references-" + referencesKey + ".json");
    if (!Files.isRegularFile(file)) {
      return null;
    }
    try {
      return DatasetWriter.JSON.readValue(file.toFile(), new TypeReference<LinkedHashMap<String, Metrics>>() {});
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  /** Keeps the reference predictors' figures of this split. */
  void keepReferences(Map<String, Metrics> references) {
    write(folder.resolve("references-" + referencesKey + ".json"), out -> out.write(DatasetWriter.JSON.writeValueAsBytes(references)));
  }

  /** Writes the gold results computed in this run to their databases' files. */
  public void save() {
    CacheFolder.saveDigests(folder);
    for (String digest : added.keySet()) {
      Map<String, Execution> entries = new java.util.TreeMap<>(gold.get(digest));
      write(goldFile(digest), out -> {
        out.writeUTF(Version.TEXT);
        out.writeInt(entries.size());
        for (Map.Entry<String, Execution> e : entries.entrySet()) {
          Execution x = e.getValue();
          writeText(out, e.getKey());
          out.writeUTF(x.status().name());
          out.writeBoolean(x.message() != null);
          if (x.message() != null) {
            writeText(out, x.message());
          }
          out.writeInt(x.columns().size());
          for (String c : x.columns()) {
            writeText(out, c);
          }
          out.writeInt(x.rows().size());
          for (List<Object> row : x.rows()) {
            out.writeInt(row.size());
            for (Object cell : row) {
              writeCell(out, cell);
            }
          }
        }
      });
    }
    added.clear();
  }

  private interface Writing {
    void to(DataOutputStream out) throws IOException;
  }

  private void write(Path file, Writing writing) {
    try {
      CacheFolder.writeWhole(file, out -> {
        DataOutputStream data = new DataOutputStream(out);
        writing.to(data);
        data.flush();
      });
    } catch (IOException | RuntimeException e) {
      // a cache is an optimisation: this run's figures are computed either way
    }
  }
}

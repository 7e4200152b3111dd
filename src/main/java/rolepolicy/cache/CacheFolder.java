package rolepolicy.cache;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;

/**
 * Where the tool keeps what it can compute again (compiled rules, gold results, embeddings, the cases'
 * DAIL skeletons): the folder of the system property {@code rolepolicy.cache}, else of the environment
 * variable {@code ROLEPOLICY_CACHE}, else {@code $XDG_CACHE_HOME/rolepolicy}, else
 * {@code ~/.cache/rolepolicy}. The value {@code off} turns the cache off. It is on only where the tool runs as a process ({@link #enable}, from
 * {@code Main.main}), so that tests and library use compute everything unless they ask for it.
 * Every entry is keyed by a digest of what it was computed from; a stale entry is never read.
 */
public final class CacheFolder {
  private static volatile boolean enabled;

  private CacheFolder() {}

  /** Turns the default cache folder on for this process. */
  public static void enable() {
    enabled = true;
  }

  /** The cache folder, or null when the cache is off. */
  public static Path folder() {
    String set = System.getProperty("rolepolicy.cache", System.getenv("ROLEPOLICY_CACHE"));
    if (set != null && !set.isBlank()) {
      return set.equals("off") ? null : Path.of(set);
    }
    if (!enabled) {
      return null;
    }
    String xdg = System.getenv("XDG_CACHE_HOME");
    Path base = xdg != null && !xdg.isBlank() ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".cache");
    return base.resolve("rolepolicy");
  }

  /** A new SHA-256 digest. */
  public static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The SHA-256 of a file's bytes, in hex. */
  public static String digest(Path file) throws IOException {
    MessageDigest sha = sha256();
    byte[] buffer = new byte[1 << 16];
    try (InputStream in = Files.newInputStream(file)) {
      for (int n; (n = in.read(buffer)) > 0; ) {
        sha.update(buffer, 0, n);
      }
    }
    return HexFormat.of().formatHex(sha.digest());
  }

  /** Digests known by file: path, size, modification time and file key, to the SHA-256 of its bytes. */
  private static final java.util.Map<String, String> KNOWN = new java.util.concurrent.ConcurrentHashMap<>();
  private static final java.util.Set<Path> READ = java.util.concurrent.ConcurrentHashMap.newKeySet();
  private static final String DIGESTS = "digests.tsv";

  /**
   * {@link #digest(Path)}, remembered in {@code folder}/digests.tsv by the file's absolute path, size,
   * modification time (nanoseconds where the file system keeps them) and file key (device and inode):
   * a file that changes changes one of them, and is then read again. Call {@link #saveDigests} to keep
   * new ones. Without a folder, the bytes are read every time.
   */
  public static String digest(Path file, Path folder) throws IOException {
    if (folder == null) {
      return digest(file);
    }
    if (READ.add(folder)) {
      try {
        for (String line : Files.readAllLines(folder.resolve(DIGESTS))) {
          int tab = line.indexOf('\t');
          if (tab > 0) {
            KNOWN.putIfAbsent(line.substring(tab + 1), line.substring(0, tab));
          }
        }
      } catch (IOException e) {
        // none yet, or unreadable: digests are computed again
      }
    }
    var attributes = Files.readAttributes(file, java.nio.file.attribute.BasicFileAttributes.class);
    String stamp = file.toAbsolutePath().normalize() + "|" + attributes.size() + "|"
        + attributes.lastModifiedTime().to(java.util.concurrent.TimeUnit.NANOSECONDS) + "|" + attributes.fileKey();
    if (stamp.contains("\n") || stamp.contains("\t")) {
      return digest(file);
    }
    String known = KNOWN.get(stamp);
    if (known == null) {
      known = digest(file);
      KNOWN.put(stamp, known);
      FRESH.add(stamp);
    }
    return known;
  }

  private static final java.util.Set<String> FRESH = java.util.concurrent.ConcurrentHashMap.newKeySet();

  /** What writes a cache entry's bytes. */
  public interface Writing {
    void to(java.io.OutputStream out) throws IOException;
  }

  private static final java.security.SecureRandom TEMP_NAMES = new java.security.SecureRandom();

  /**
   * Writes {@code file} whole or not at all: to a temporary file beside it, moved into place. The
   * temporary file is removed if the writing fails, and on exit if the process is interrupted meanwhile.
   */
  public static void writeWhole(Path file, Writing writing) throws IOException {
    Path folder = file.toAbsolutePath().getParent();
    Files.createDirectories(folder);
    // named and registered before it is made: an interrupt between the two left it behind
    Path temp = folder.resolve(file.getFileName() + "-" + Long.toUnsignedString(TEMP_NAMES.nextLong()) + ".tmp");
    rolepolicy.io.RunTemp.register(temp, "a cache entry being written (" + file.getFileName() + ") was removed");
    try {
      if (folder.getFileSystem().supportedFileAttributeViews().contains("posix")) { // owner-only, as a temporary file is
        Files.createFile(temp, java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
            java.nio.file.attribute.PosixFilePermissions.fromString("rw-------")));
      } else {
        Files.createFile(temp);
      }
      try (java.io.OutputStream out = new java.io.BufferedOutputStream(Files.newOutputStream(temp), 1 << 16)) {
        writing.to(out);
      }
      Files.move(temp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
          java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    } finally {
      rolepolicy.io.RunTemp.release(temp);
    }
  }

  /** Adds the digests computed in this process to {@code folder}/digests.tsv (at most 10,000 kept). */
  public static void saveDigests(Path folder) {
    if (folder == null || FRESH.isEmpty()) {
      return;
    }
    try {
      Files.createDirectories(folder);
      List<String> lines = new java.util.ArrayList<>();
      KNOWN.forEach((stamp, sha) -> lines.add(sha + "\t" + stamp));
      java.util.Collections.sort(lines);
      List<String> kept = lines.subList(0, Math.min(lines.size(), 10_000));
      writeWhole(folder.resolve(DIGESTS), out -> out.write((String.join("\n", kept) + (kept.isEmpty() ? "" : "\n"))
          .getBytes(java.nio.charset.StandardCharsets.UTF_8)));
      FRESH.clear();
    } catch (IOException | RuntimeException e) {
      // computed again next time
    }
  }

  /**
   * What identifies this build of the tool: its jar's path, size and modification time, or for a
   * classes folder the number, total size and latest modification time of its files. Compiled rules
   * link to the tool's classes, so a new build must not read entries of an older one.
   */
  public static String buildStamp() {
    try {
      Path code = Path.of(CacheFolder.class.getProtectionDomain().getCodeSource().getLocation().toURI());
      if (Files.isRegularFile(code)) {
        return code + " " + Files.size(code) + " " + Files.getLastModifiedTime(code).toMillis();
      }
      long[] sums = new long[3];
      try (Stream<Path> files = Files.walk(code)) {
        files.filter(Files::isRegularFile).forEach(f -> {
          try {
            sums[0]++;
            sums[1] += Files.size(f);
            sums[2] = Math.max(sums[2], Files.getLastModifiedTime(f).toMillis());
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        });
      }
      return code + " " + sums[0] + " " + sums[1] + " " + sums[2];
    } catch (Exception e) {
      return "unknown build " + System.nanoTime(); // never matches: no cache entry is read
    }
  }
}

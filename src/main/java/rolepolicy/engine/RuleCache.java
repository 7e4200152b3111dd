package rolepolicy.engine;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.drools.base.common.DroolsObjectInputStream;
import org.drools.base.common.DroolsObjectOutputStream;
import org.drools.kiesession.rulebase.InternalKnowledgeBase;
import org.drools.kiesession.rulebase.KnowledgeBaseFactory;
import org.kie.api.KieBase;
import org.kie.api.definition.KiePackage;
import rolepolicy.io.Version;
import rolepolicy.cache.CacheFolder;

/**
 * Compiled rule bases on disk, so that a run whose rule files have not changed skips the build:
 * the rule packages Drools compiled (with their consequences' bytecode), serialized with Drools'
 * own streams, in {@code CACHE/rules-<key>.bin}. The key is the SHA-256 of the rule files' names and
 * texts, the tool's version and build, and Drools' package class; an entry that cannot be read is
 * built again and replaced. The newest {@link #KEEP} entries are kept.
 */
final class RuleCache {
  static final int KEEP = 8;

  private RuleCache() {}

  /** The key of a set of rule files (name to text, in build order). */
  static String key(Map<String, String> files) {
    MessageDigest sha = CacheFolder.sha256();
    update(sha, Version.TEXT);
    update(sha, CacheFolder.buildStamp());
    update(sha, droolsStamp());
    for (Map.Entry<String, String> file : files.entrySet()) {
      update(sha, file.getKey());
      update(sha, file.getValue());
    }
    return HexFormat.of().formatHex(sha.digest());
  }

  private static void update(MessageDigest sha, String text) {
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    sha.update(HexFormat.of().formatHex(new byte[] {(byte) (bytes.length >>> 24), (byte) (bytes.length >>> 16),
        (byte) (bytes.length >>> 8), (byte) bytes.length}).getBytes(StandardCharsets.US_ASCII));
    sha.update(bytes);
  }

  /** The SHA-256 of Drools' serialized package class: another Drools writes other bytes. */
  private static String droolsStamp() {
    try (InputStream in = DroolsObjectOutputStream.class.getClassLoader()
        .getResourceAsStream("org/drools/base/definitions/impl/KnowledgePackageImpl.class")) {
      return in == null ? "none" : HexFormat.of().formatHex(CacheFolder.sha256().digest(in.readAllBytes()));
    } catch (IOException e) {
      return "unreadable";
    }
  }

  static Path file(Path folder, String key) {
    return folder.resolve("rules-" + key + ".bin");
  }

  /** The cached rule base of {@code key}, or null when there is none or it cannot be read. */
  static KieBase read(Path folder, String key) {
    Path file = file(folder, key);
    if (!Files.isRegularFile(file)) {
      return null;
    }
    try (ObjectInputStream in = new DroolsObjectInputStream(
        new BufferedInputStream(Files.newInputStream(file), 1 << 16), RuleCache.class.getClassLoader())) {
      int count = in.readInt();
      List<KiePackage> packages = new ArrayList<>(count);
      for (int i = 0; i < count; i++) {
        packages.add((KiePackage) in.readObject());
      }
      InternalKnowledgeBase base = KnowledgeBaseFactory.newKnowledgeBase();
      base.addPackages(packages);
      return base;
    } catch (Exception | LinkageError e) {
      return null; // built again and written anew
    }
  }

  /** Writes {@code base} under {@code key} (atomically); a cache that cannot be written is skipped. */
  static void write(Path folder, String key, KieBase base) {
    try {
      rolepolicy.cache.CacheFolder.writeWhole(file(folder, key), stream -> {
        ObjectOutputStream out = new DroolsObjectOutputStream(stream);
        List<KiePackage> packages = new ArrayList<>(base.getKiePackages());
        out.writeInt(packages.size());
        for (KiePackage p : packages) {
          out.writeObject(p);
        }
        out.flush();
      });
      evict(folder);
    } catch (IOException | RuntimeException e) {
      // a cache is an optimisation: the rules were built and are used either way
    }
  }

  private static void evict(Path folder) throws IOException {
    List<Path> entries;
    try (Stream<Path> files = Files.list(folder)) {
      entries = files.filter(f -> f.getFileName().toString().startsWith("rules-") && f.toString().endsWith(".bin"))
          .sorted(Comparator.comparing(RuleCache::modified).reversed()).toList();
    }
    for (Path old : entries.subList(Math.min(KEEP, entries.size()), entries.size())) {
      Files.deleteIfExists(old);
    }
  }

  private static long modified(Path file) {
    try {
      return Files.getLastModifiedTime(file).toMillis();
    } catch (IOException e) {
      return 0;
    }
  }
}

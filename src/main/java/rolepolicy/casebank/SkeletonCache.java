package rolepolicy.casebank;

import rolepolicy.ports.QuerySimilarity;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import rolepolicy.cache.CacheFolder;
import rolepolicy.spider.Schema;

/**
 * The cases' DAIL skeletons on disk ({@link DraftSelection}; a bank's 7,000 take seconds to compute):
 * {@code dail-skeletons-<key>.tsv}, one {@code id<TAB>skeleton} line per case, keyed by the bank's
 * files, the schemas' names and the tool's build. It is written whole to a temporary file moved into
 * place; a file that cannot be read is no cache.
 */
final class SkeletonCache {
  private final Path folder;
  private final Path file;

  /** The cache of a bank's skeletons under these schemas, in {@code folder}. */
  SkeletonCache(Path folder, CaseBank bank, Map<String, Schema> schemas) {
    this.folder = folder;
    var sha = CacheFolder.sha256();
    String key = CacheFolder.buildStamp() + "\n" + bank.digest(folder) + "\n" + QuerySimilarity.names(new TreeMap<>(schemas).values());
    byte[] digest = sha.digest(key.getBytes(StandardCharsets.UTF_8));
    this.file = folder.resolve("dail-skeletons-" + HexFormat.of().formatHex(digest, 0, 8) + ".tsv");
  }

  /** The skeletons by case id; none when the file is absent or unreadable. */
  Map<String, String> read() {
    Map<String, String> skeletons = new HashMap<>();
    if (!Files.isRegularFile(file)) {
      return skeletons;
    }
    try {
      for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
        int tab = line.indexOf('\t');
        if (tab < 0) {
          return new HashMap<>(); // not this file's format: computed again, and the file rewritten
        }
        skeletons.put(line.substring(0, tab), line.substring(tab + 1));
      }
    } catch (IOException | RuntimeException e) {
      return new HashMap<>();
    }
    return skeletons;
  }

  /** Writes the skeletons (in id order); one that a line cannot hold is left out and computed again next time. */
  void write(Map<String, String> skeletons) {
    List<String> lines = new ArrayList<>();
    new TreeMap<>(skeletons).forEach((id, skeleton) -> {
      if (!(id + skeleton).contains("\t") && !(id + skeleton).contains("\n") && !(id + skeleton).contains("\r")) {
        lines.add(id + "\t" + skeleton);
      }
    });
    try {
      CacheFolder.writeWhole(file, out -> {
        for (String line : lines) {
          out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        }
      });
    } catch (IOException e) {
      // the cache is a help: without it, the next run computes them again
    }
  }
}

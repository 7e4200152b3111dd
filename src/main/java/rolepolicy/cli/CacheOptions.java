package rolepolicy.cli;

import java.nio.file.Path;
import picocli.CommandLine.Option;
import rolepolicy.cache.CacheFolder;

/** {@code --cache DIR} and {@code --no-cache}: the tool's cache of results keyed by their inputs. */
final class CacheOptions {
  @Option(names = "--cache", paramLabel = "DIR",
      description = "Folder of cached results keyed by their inputs: compiled rules, gold results, embeddings, the cases' DAIL skeletons"
          + " (default: $ROLEPOLICY_CACHE, else ~/.cache/rolepolicy).")
  Path cache;

  @Option(names = "--no-cache", description = "Compute everything; read and write no cache.")
  boolean noCache;

  /** The cache folder to use, or null for none. */
  Path folder() {
    return noCache ? null : cache != null ? cache : CacheFolder.folder();
  }
}

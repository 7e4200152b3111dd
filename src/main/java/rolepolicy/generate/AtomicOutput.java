package rolepolicy.generate;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashMap;
import java.util.Map;
import rolepolicy.spider.InputException;

/**
 * Output files written completely or not at all: each is written to a temporary file beside its
 * target, and all are renamed into place by {@link #commit()}; {@link #close()} removes what was
 * not committed.
 */
public final class AtomicOutput implements AutoCloseable {
  private final Map<Path, Path> staged = new LinkedHashMap<>();

  /** A temporary file to write now; it becomes {@code target} on commit. */
  public Path stage(Path target) {
    Path dir = target.toAbsolutePath().getParent();
    try {
      Files.createDirectories(dir);
      Path temp = Files.createTempFile(dir, "." + target.getFileName(), ".tmp");
      if (Files.getFileStore(temp).supportsFileAttributeView("posix")) {
        Files.setPosixFilePermissions(temp, PosixFilePermissions.fromString("rw-r--r--"));
      }
      staged.put(target, temp);
      return temp;
    } catch (IOException e) {
      throw new InputException(dir + ": cannot write output here: " + e, e);
    }
  }

  public void commit() {
    try {
      for (Map.Entry<Path, Path> file : staged.entrySet()) {
        Files.move(
            file.getValue(),
            file.getKey(),
            StandardCopyOption.ATOMIC_MOVE,
            StandardCopyOption.REPLACE_EXISTING);
      }
      staged.clear();
    } catch (IOException e) {
      throw new InputException("cannot move output into place: " + e, e);
    }
  }

  @Override
  public void close() {
    for (Path temp : staged.values()) {
      try {
        Files.deleteIfExists(temp);
      } catch (IOException e) {
        // best effort: a leftover temporary file never replaces an output
      }
    }
    staged.clear();
  }
}

package rolepolicy.generate;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import rolepolicy.spider.InputException;

/**
 * Output files written completely or not at all: each is written to a temporary file beside its
 * target, and {@link #commit()} moves all of them into place — restoring every earlier file if
 * one move fails. {@link #close()} removes whatever was not committed.
 */
public final class AtomicOutput implements AutoCloseable {
  private final Map<Path, Path> staged = new LinkedHashMap<>();

  /** Folders this output created, deepest last; removed on close when nothing was committed. */
  private final List<Path> createdFolders = new ArrayList<>();

  /** A temporary file to write now; it becomes {@code target} on commit. */
  public Path stage(Path target) {
    Path absolute = target.toAbsolutePath().normalize();
    if (staged.containsKey(absolute)) {
      throw new IllegalArgumentException(target + " is already an output of this run");
    }
    Path dir = absolute.getParent();
    try {
      List<Path> missing = new ArrayList<>();
      for (Path d = dir; d != null && !Files.exists(d); d = d.getParent()) {
        missing.add(0, d);
      }
      Files.createDirectories(dir);
      createdFolders.addAll(missing);
      Path temp = Files.createTempFile(dir, "." + absolute.getFileName(), ".tmp");
      if (Files.getFileStore(temp).supportsFileAttributeView("posix")) {
        Files.setPosixFilePermissions(temp, PosixFilePermissions.fromString("rw-r--r--"));
      }
      staged.put(absolute, temp);
      return temp;
    } catch (IOException e) {
      throw new InputException(dir + ": cannot write output here (" + InputException.reason(e) + ")", e);
    }
  }

  /** Moves every staged file into place, or none: on failure the previous files are restored. */
  public void commit() {
    List<Path[]> done = new ArrayList<>(); // {target, backup or null}
    try {
      for (Map.Entry<Path, Path> file : staged.entrySet()) {
        Path target = file.getKey();
        if (Files.isDirectory(target)) {
          throw new InputException(target + ": a folder stands where this output file goes");
        }
        Path backup = null;
        if (Files.exists(target)) {
          backup = target.resolveSibling("." + target.getFileName() + ".previous");
          Files.move(target, backup, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        }
        done.add(new Path[] {target, backup});
        Files.move(file.getValue(), target, StandardCopyOption.ATOMIC_MOVE);
      }
    } catch (IOException | InputException e) {
      restore(done);
      throw e instanceof InputException input
          ? input
          : new InputException("cannot move output into place (" + InputException.reason((IOException) e) + "); the previous files are kept", e);
    }
    for (Path[] file : done) {
      deleteQuietly(file[1]);
    }
    staged.clear();
    createdFolders.clear();
  }

  private static void restore(List<Path[]> done) {
    for (Path[] file : done) {
      try {
        if (file[1] != null) {
          Files.move(file[1], file[0], StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } else {
          Files.deleteIfExists(file[0]);
        }
      } catch (IOException e) {
        // keep restoring the others; the backup stays beside the target
      }
    }
  }

  @Override
  public void close() {
    staged.values().forEach(AtomicOutput::deleteQuietly);
    staged.clear();
    for (int i = createdFolders.size() - 1; i >= 0; i--) {
      try {
        Files.deleteIfExists(createdFolders.get(i)); // only when empty: never another's file
      } catch (IOException e) {
        // not empty, or gone: leave it
      }
    }
    createdFolders.clear();
  }

  private static void deleteQuietly(Path file) {
    if (file == null) {
      return;
    }
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      // best effort: a leftover temporary file never replaces an output
    }
  }
}

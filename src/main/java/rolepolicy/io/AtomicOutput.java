package rolepolicy.io;

import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Output files written completely or not at all: each is written to a file in one temporary folder
 * of the run ({@link RunTemp}), and {@link #commit()} moves all of them into place — restoring
 * every earlier file if one move fails. {@link #close()} removes whatever was not committed, and so
 * does Ctrl-C: a commit under way is finished first, so that no earlier file is lost. Each output
 * is first checked by the command's {@link OutputGuard} (not an input, not a file the tool did not
 * write), and recorded on commit as one the tool wrote ({@link OwnedFolder}).
 */
public final class AtomicOutput implements AutoCloseable {
  private final Path root;
  private final Map<Path, Path> staged = new LinkedHashMap<>();
  /** The run's temporary folder per file system (a move into place must not cross one). */
  private final Map<FileStore, Path> folders = new LinkedHashMap<>();
  /** Folders this output created, deepest last; removed on close when nothing was committed. */
  private final List<Path> createdFolders = new ArrayList<>();
  private boolean abandoned;
  private final OutputGuard guard = OutputGuard.current();
  /**
   * Every staged file's output path, by its temporary file, and the folder of the outputs last
   * closed unwritten: kept after close, for the message of the failure that ended the run ({@link #failure}).
   */
  private static final Map<Path, Path> OUTPUTS = new java.util.concurrent.ConcurrentHashMap<>();
  private static volatile Path lastFolder;

  /** Temporary files go in a folder beside the first output. */
  public AtomicOutput() {
    this(null);
  }

  /** Temporary files go in a folder inside {@code root}, the folder the outputs go under. */
  public AtomicOutput(Path root) {
    this.root = root;
    lastFolder = null;
    RunTemp.register(this, this::abandon, "the outputs it was writing were removed; the earlier ones are as they were");
  }

  /** A temporary file to write now; it becomes {@code target} on commit. */
  public synchronized Path stage(Path target) {
    if (abandoned) {
      throw new IllegalStateException("the run is stopping: no more output");
    }
    Path absolute = target.toAbsolutePath().normalize();
    if (staged.containsKey(absolute)) {
      throw new IllegalArgumentException(target + " is already an output of this run");
    }
    guard.checkFile(absolute); // the file that will be written, as the moves below name it
    Path dir = absolute.getParent();
    try {
      List<Path> missing = new ArrayList<>();
      for (Path d = dir; d != null && !Files.exists(d); d = d.getParent()) {
        missing.add(0, d);
      }
      Files.createDirectories(dir);
      createdFolders.addAll(missing);
      Path temp = Files.createTempFile(folderFor(dir), absolute.getFileName().toString(), ".tmp");
      if (Files.getFileStore(temp).supportsFileAttributeView("posix")) {
        Files.setPosixFilePermissions(temp, PosixFilePermissions.fromString("rw-r--r--"));
      }
      staged.put(absolute, temp);
      OUTPUTS.put(temp.toAbsolutePath(), absolute);
      return temp;
    } catch (IOException e) {
      Path existing = dir;
      while (existing.getParent() != null && !Files.exists(existing)) {
        existing = existing.getParent();
      }
      if (Files.exists(existing) && !Files.isDirectory(existing)) {
        throw new InputException(existing + ": a file stands where a folder of output goes", e);
      }
      throw new InputException(existing + ": cannot write output here (" + InputException.reason(e) + ")", e);
    }
  }

  private Path folderFor(Path dir) throws IOException {
    FileStore store = Files.getFileStore(dir);
    Path folder = folders.get(store);
    if (folder == null) {
      Path home = root != null && Files.isDirectory(root) && Files.getFileStore(root).equals(store) ? root : dir;
      folder = RunTemp.newFolder(home);
      folders.put(store, folder);
    }
    return folder;
  }

  /** Moves every staged file into place, or none: on failure the previous files are restored. */
  public synchronized void commit() {
    List<Path[]> done = new ArrayList<>(); // {target, backup or null}
    try {
      for (Map.Entry<Path, Path> file : staged.entrySet()) {
        Path target = file.getKey();
        if (Files.isDirectory(target)) {
          throw new InputException(target + ": a folder stands where this output file goes");
        }
        Path backup = null;
        if (Files.exists(target)) {
          backup = file.getValue().resolveSibling(file.getValue().getFileName() + ".previous");
          Files.move(target, backup, StandardCopyOption.ATOMIC_MOVE);
        }
        done.add(new Path[] {target, backup});
        Files.move(file.getValue(), target, StandardCopyOption.ATOMIC_MOVE);
      }
      OwnedFolder.recordWritten(staged.keySet());
    } catch (IOException | InputException e) {
      restore(done);
      if (e instanceof InputException input) {
        throw input;
      }
      Path target = done.isEmpty() ? staged.keySet().iterator().next() : done.get(done.size() - 1)[0];
      throw new InputException(target + ": cannot move output into place (" + InputException.reason((IOException) e)
          + "); the previous files are kept", e);
    }
    staged.values().forEach(temp -> OUTPUTS.remove(temp.toAbsolutePath()));
    staged.clear();
    lastFolder = null;
    createdFolders.clear();
    removeFolders();
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
        // keep restoring the others; the backup stays in the temporary folder
      }
    }
  }

  /**
   * A file operation that failed while the outputs were written, as an error naming the output
   * (not its temporary file) and the reason; null when {@code e} holds no I/O failure.
   */
  public static InputException failure(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof IOException io && !(io instanceof com.fasterxml.jackson.core.JsonProcessingException)) {
        Path file = io instanceof java.nio.file.FileSystemException fs && fs.getFile() != null ? Path.of(fs.getFile()) : null;
        if (file == null) { // e.g. a full disk: the system names no file
          Path folder = lastFolder;
          String reason = io.getMessage() == null ? io.getClass().getSimpleName() : io.getMessage();
          return folder == null ? null : new InputException(folder + ": cannot write the output (" + reason + ")", io);
        }
        Path output = OUTPUTS.get(file.toAbsolutePath());
        return output != null
            ? new InputException(output + ": cannot write (" + InputException.reason(io) + ")", io)
            : new InputException(file + ": " + InputException.reason(io), io);
      }
    }
    return null;
  }

  /** Removes what was not committed; what Ctrl-C does too, once a commit under way is done. */
  private synchronized void abandon() {
    abandoned = true;
    staged.clear();
    removeFolders();
  }

  private void removeFolders() {
    folders.values().forEach(RunTemp::deleteQuietly);
    folders.clear();
    for (int i = createdFolders.size() - 1; i >= 0; i--) {
      try {
        Files.deleteIfExists(createdFolders.get(i)); // only when empty: never another's file
      } catch (IOException e) {
        // not empty, or gone: leave it
      }
    }
    createdFolders.clear();
  }

  @Override
  public synchronized void close() {
    if (!staged.isEmpty()) { // closed unwritten: a failure is ending the run
      lastFolder = staged.keySet().iterator().next().getParent();
    }
    staged.clear();
    removeFolders();
    RunTemp.forget(this);
  }
}

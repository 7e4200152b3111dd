package rolepolicy.io;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * What a command run may write over. Its outputs are never one of its inputs, nor inside a folder
 * that is one, compared as files (through links); and a file that stands where an output goes is
 * replaced only when this tool wrote it ({@link OwnedFolder}) or {@code --force} was given. The
 * command line sets one per command run, for its thread and the threads it starts; every output
 * ({@link AtomicOutput}, the logs a run appends to) asks it before writing.
 */
public final class OutputGuard {
  /** An input of the command: the option (or parameter) that named it, and its path. */
  public record Input(String option, Path path) {}

  private static final OutputGuard NONE = new OutputGuard(List.of(), false);
  private static final InheritableThreadLocal<OutputGuard> CURRENT = new InheritableThreadLocal<>();

  private final List<Input> inputs;
  private final boolean force;

  public OutputGuard(List<Input> inputs, boolean force) {
    this.inputs = List.copyOf(inputs);
    this.force = force;
  }

  /** Whether {@code --force} was given. */
  public boolean force() {
    return force;
  }

  /** The guard of this thread's command run; without one, no inputs and no {@code --force}. */
  public static OutputGuard current() {
    OutputGuard guard = CURRENT.get();
    return guard == null ? NONE : guard;
  }

  /** Runs {@code work} with {@code guard} as this thread's (and its new threads') guard. */
  public static <T> T with(OutputGuard guard, Callable<T> work) throws Exception {
    OutputGuard before = CURRENT.get();
    CURRENT.set(guard);
    try {
      return work.call();
    } finally {
      CURRENT.set(before);
    }
  }

  /**
   * Refuses an output file about to be written at {@code target}: one that is an input or lies in an
   * input folder, or one that would replace a file this tool did not write (unless {@code --force}).
   */
  public void checkFile(Path target) {
    checkNotAnInput(target);
    if (!force && Files.exists(target, LinkOption.NOFOLLOW_LINKS) && !OwnedFolder.wrote(target)) {
      throw new OutputRefused(target + ": this file was not written by rolepolicy (its folder's "
          + OwnedFolder.MARKER + " does not name it), so it is not replaced; choose another output folder, or give"
          + " --force to replace it");
    }
  }

  /**
   * {@link #checkFile} of each named file in {@code folder}, for a command that writes them only
   * at its end: called at its start, so that a refusal costs no work.
   */
  public void checkFiles(Path folder, String... names) {
    for (String name : names) {
      checkFile(folder.resolve(name).toAbsolutePath().normalize());
    }
  }

  /**
   * Checks a log a run appends to as it goes (and reads back to resume): refused like an output
   * file. True when one this tool wrote stands there to go on from; false when it is to be started
   * anew (none there, or another's that {@code --force} lets it replace). The caller records it
   * ({@link #recordLog}) before its first line.
   */
  public boolean continueLog(Path log) {
    checkNotAnInput(log);
    if (!Files.exists(log, LinkOption.NOFOLLOW_LINKS)) {
      return false;
    }
    if (OwnedFolder.wrote(log) && !Files.isSymbolicLink(log)) {
      return true;
    }
    if (!force) {
      throw new OutputRefused(log + ": this file was not written by rolepolicy (" + (Files.isSymbolicLink(log)
          ? "a symbolic link" : "its folder's " + OwnedFolder.MARKER + " does not name it") + "), so it is neither read nor"
          + " written; choose another output folder, or give --force to replace it");
    }
    try { // replaced, never written through: a link goes, not the file it names
      Files.delete(log);
    } catch (IOException e) {
      throw new OutputRefused(log + ": cannot replace it (" + e.getMessage() + ")");
    }
    return false;
  }

  /** Records a log as one this tool wrote, so that a later run may go on from it. */
  public static void recordLog(Path log) throws IOException {
    OwnedFolder.recordWritten(List.of(log));
  }

  /** Refuses an output folder that is, lies in or holds an input (it may be replaced whole). */
  public void checkFolder(Path folder) {
    checkNotAnInput(folder);
    Path real = real(folder);
    for (Input input : inputs) {
      Path in = real(input.path());
      if (in.startsWith(real)) {
        throw new OutputRefused(folder + ": this output folder holds an input, " + input.option() + " " + input.path()
            + " (" + in + "); choose another output folder");
      }
    }
  }

  /**
   * Refuses, before any work, an output folder that is an input or lies inside one (its files are
   * checked again, each against the inputs and the marker, when written).
   */
  public void checkOutputFolder(Path folder) {
    checkNotAnInput(folder);
  }

  private void checkNotAnInput(Path target) {
    Path real = real(target);
    for (Input input : inputs) {
      Path in = real(input.path());
      if (real.equals(in)) {
        throw new OutputRefused(target + ": this output would be written over an input, " + input.option() + " "
            + input.path() + " (both are " + in + "); choose another output");
      }
      if (real.startsWith(in)) {
        throw new OutputRefused(target + ": this output would be written inside an input " + (Files.isDirectory(in)
            ? "folder" : "file's path") + ", " + input.option() + " " + input.path() + " (" + in + "); choose another output");
      }
    }
  }

  /**
   * The path with every link resolved: that of its longest part that exists, with the rest
   * appended (an output that does not exist yet).
   */
  static Path real(Path path) {
    Path absolute = path.toAbsolutePath().normalize();
    Deque<Path> rest = new ArrayDeque<>();
    Path existing = absolute;
    while (existing != null && !Files.exists(existing)) {
      rest.push(existing.getFileName());
      existing = existing.getParent();
    }
    Path real;
    try {
      real = existing == null ? absolute.getRoot() : existing.toRealPath();
    } catch (IOException e) {
      return absolute;
    }
    while (!rest.isEmpty()) {
      real = real.resolve(rest.pop());
    }
    return real;
  }
}

package rolepolicy.io;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The temporary folders of this run: each is named {@code .rolepolicy-tmp-<pid>}, removed when its
 * work is done, on exit — Ctrl-C included, by a shutdown hook that says what it removed — and, if the
 * process was killed outright, by the next run that makes one in the same place.
 */
public final class RunTemp {
  static final String PREFIX = ".rolepolicy-tmp-";

  /** What to undo if the run stops first, by key, and what to say then. */
  record Pending(Runnable undo, String whatIfInterrupted) {}

  private static final Map<Object, Pending> LIVE = new LinkedHashMap<>();
  private static boolean hooked;
  /** Set when the shutdown hook has begun: a registration after that is undone at once. */
  private static boolean stopping;

  private RunTemp() {}

  /**
   * A new temporary folder of this run inside {@code dir} (made if absent), after removing those
   * that runs no longer alive left there. It is removed on exit unless {@link #release}d first.
   */
  public static Path folderIn(Path dir, String whatIfInterrupted) throws IOException {
    Path folder = newFolder(dir);
    register(key(folder), () -> deleteQuietly(folder), whatIfInterrupted);
    return folder;
  }

  /**
   * A new folder in the system's temporary folder (a benchmark's work), removed on exit — Ctrl-C
   * included — unless {@link #release}d first, which its maker does when done.
   */
  public static Path systemFolder(String prefix) throws IOException {
    Path folder = Files.createTempDirectory(prefix);
    register(folder, "its work folder " + folder + " was removed");
    return folder;
  }

  /** A new temporary folder in {@code dir}, not registered: its maker undoes it on exit. */
  static Path newFolder(Path dir) throws IOException {
    Files.createDirectories(dir);
    sweep(dir);
    return Files.createTempDirectory(dir, PREFIX + ProcessHandle.current().pid() + "-");
  }

  /**
   * Removes {@code path} (a file or folder) on exit unless {@link #release}d first. The run's other
   * threads go on while the shutdown hook runs: the steps that make such a folder run through {@link
   * #unlessStopping}, and none begins once the hook has; against any other maker, the folder is
   * removed until it stays gone for {@link #SETTLED_MILLIS} and {@link #SETTLED_CHECKS} checks in a
   * row (a pause of the whole process, such as a garbage collection, is time the other threads did
   * not run), for at most {@link #GIVE_UP_MILLIS}.
   */
  public static void register(Path path, String whatIfInterrupted) {
    register(key(path), () -> deleteUntilGone(path), whatIfInterrupted);
  }

  static final long SETTLED_MILLIS = 200;
  static final int SETTLED_CHECKS = 10;
  static final long GIVE_UP_MILLIS = 5_000;

  static void deleteUntilGone(Path path) {
    long giveUp = System.nanoTime() + GIVE_UP_MILLIS * 1_000_000;
    long goneSince = -1;
    int goneChecks = 0;
    while (System.nanoTime() < giveUp) {
      deleteQuietly(path);
      if (Files.exists(path, LinkOption.NOFOLLOW_LINKS)) {
        goneSince = -1;
        goneChecks = 0;
      } else if (goneSince < 0) {
        goneSince = System.nanoTime();
        goneChecks = 1;
      } else if (++goneChecks >= SETTLED_CHECKS && System.nanoTime() - goneSince >= SETTLED_MILLIS * 1_000_000) {
        return;
      }
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  /** Runs {@code undo} on exit unless {@link #forget}. */
  public static synchronized void register(Object key, Runnable undo, String whatIfInterrupted) {
    key = key instanceof Path path ? key(path) : key;
    try {
      if (stopping) {
        throw new IllegalStateException("Shutdown in progress");
      }
      if (!hooked) {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
          beginStopping();
          undoAll(System.err);
        }, "rolepolicy-temp-cleanup"));
        hooked = true;
      }
    } catch (IllegalStateException shuttingDown) { // too late for the hook: undone at once
      undo.run();
      throw shuttingDown;
    }
    LIVE.put(key, new Pending(undo, whatIfInterrupted));
  }

  /** A step that makes files or folders, for {@link #unlessStopping}. */
  @FunctionalInterface
  public interface Making<T> {
    T run() throws IOException;
  }

  /**
   * Runs a step that makes folders (a staging folder, an index's directory, which a writer makes
   * again with its parents if they are gone) unless the run is stopping: the shutdown hook waits for
   * a step under way before it removes what was registered, and no step begins after that, so none
   * makes a removed folder again.
   */
  public static <T> T unlessStopping(Making<T> step) throws IOException {
    synchronized (RunTemp.class) {
      if (stopping) {
        throw new IllegalStateException("Shutdown in progress");
      }
      return step.run();
    }
  }

  /** What the shutdown hook does first: no registration and no {@link #unlessStopping} step begins after it. */
  static synchronized void beginStopping() {
    stopping = true;
  }

  /** Whether the shutdown hook has begun: the process is ending (Ctrl-C), and what fails now fails for that. */
  public static synchronized boolean isStopping() {
    return stopping;
  }

  /** Undoes {@link #beginStopping} (for tests, which stand in for the hook). */
  static synchronized void resume() {
    stopping = false;
  }

  /** Removes {@code path} now and forgets it. */
  public static void release(Path path) {
    forget(key(path));
    deleteQuietly(path);
  }

  /** Forgets what was registered under {@code key}, without undoing it. */
  public static synchronized void forget(Object key) {
    LIVE.remove(key instanceof Path path ? key(path) : key);
  }

  private static Path key(Path path) {
    return path.toAbsolutePath().normalize();
  }

  /**
   * Takes everything registered out of the registry, to be put back by {@link #restore}: a test of
   * {@link #undoAll} in a JVM whose other tests left registrations (a command run in the test JVM
   * that failed before its commit) must not undo theirs.
   */
  static synchronized Map<Object, Pending> takeAll() {
    Map<Object, Pending> taken = new LinkedHashMap<>(LIVE);
    LIVE.clear();
    return taken;
  }

  /** Puts back what {@link #takeAll} took. */
  static synchronized void restore(Map<Object, Pending> taken) {
    LIVE.putAll(taken);
  }

  /**
   * Undoes everything still registered, the last registered first (a child process before the
   * folder it writes into), saying what each was; what the shutdown hook does.
   */
  static void undoAll(PrintStream err) {
    List<Pending> live;
    synchronized (RunTemp.class) {
      live = new ArrayList<>(LIVE.values());
      LIVE.clear();
    }
    java.util.Collections.reverse(live);
    for (Pending pending : live) {
      pending.undo().run();
      err.println("rolepolicy: stopped before the end: " + pending.whatIfInterrupted());
    }
  }

  /** Removes the temporary folders in {@code dir} whose process is no longer running. */
  static void sweep(Path dir) {
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir, PREFIX + "*")) {
      for (Path entry : entries) {
        String rest = entry.getFileName().toString().substring(PREFIX.length());
        int dash = rest.indexOf('-');
        try {
          long pid = Long.parseLong(dash < 0 ? rest : rest.substring(0, dash));
          if (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
            continue; // this run's, or another's still running
          }
        } catch (NumberFormatException e) {
          continue; // not one of ours
        }
        deleteQuietly(entry);
      }
    } catch (IOException e) {
      // nothing to sweep
    }
  }

  static void deleteQuietly(Path path) {
    if (!Files.exists(path, LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(path)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException | java.io.UncheckedIOException e) {
      // best effort (another thread may be removing it too, as the walk goes): a caller that must see
      // it gone calls again, and a leftover is swept by the next run
    }
  }
}

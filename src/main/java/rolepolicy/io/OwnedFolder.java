package rolepolicy.io;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * What this tool wrote, known by the marker file it leaves in each folder it writes into ({@value
 * #MARKER}). A folder a command replaces whole (a CaseBank) is one whose marker's first line names
 * that command, or an empty one; anything else — a user's folder, another command's, a regular file
 * — is refused with a message naming it. A file a command writes into a folder it does not own
 * whole replaces only a file of that name the tool wrote before: the marker lists them, one
 * {@code file NAME} line each.
 */
public final class OwnedFolder {
  /** The marker file a command writes into each folder it owns. */
  public static final String MARKER = ".rolepolicy-output";

  private OwnedFolder() {}

  /**
   * Fails unless {@code dir} is absent, an empty folder, or a folder {@code command} marked as its
   * own.
   */
  public static void checkReplaceable(Path dir, String command, String option) {
    if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
      throw new OutputRefused(option + " " + dir + ": is a file, not a folder; " + command
          + " writes a folder there only where nothing stands: choose another path");
    }
    if (isEmpty(dir) || command.equals(owner(dir))) {
      return;
    }
    throw new OutputRefused(option + " " + dir + ": the folder was not written by " + command
        + " (no " + MARKER + " naming it), so it is not replaced; choose a new or empty folder");
  }

  /**
   * Makes {@code dir} {@code command}'s working folder, kept between runs: it must be absent, empty or
   * already {@code command}'s (so that the command may replace what it wrote there); it is marked.
   */
  public static Path claim(Path dir, String command, String option) {
    OutputGuard.current().checkFolder(dir); // its files are written as the command goes: no input may lie in it
    checkReplaceable(dir, command, option);
    try {
      Files.createDirectories(dir);
      writeMarker(dir, command, files(dir));
      return dir;
    } catch (IOException e) {
      throw new InputException(option + " " + dir + ": cannot write the folder (" + InputException.reason(e) + ")", e);
    }
  }

  /** Deletes {@code dir} after {@link #checkReplaceable}, and makes it anew, marked as {@code command}'s. */
  public static void recreate(Path dir, String command, String option) {
    checkReplaceable(dir, command, option);
    try {
      deleteTree(dir);
      Files.createDirectories(dir);
      writeMarker(dir, command, List.of());
    } catch (IOException e) {
      throw new InputException(option + " " + dir + ": cannot write the folder (" + InputException.reason(e) + ")", e);
    }
  }

  /** Deletes {@code dir}, which must be absent, empty or {@code command}'s. */
  public static void delete(Path dir, String command, String option) {
    checkReplaceable(dir, command, option);
    try {
      deleteTree(dir);
    } catch (IOException e) {
      throw new InputException(option + " " + dir + ": cannot remove the folder (" + InputException.reason(e) + ")", e);
    }
  }

  /** The command named by the folder's marker as the folder's owner, or null. */
  static String owner(Path dir) {
    List<String> lines = markerLines(dir);
    return lines.isEmpty() || lines.get(0).startsWith(FILE) || lines.get(0).isBlank() ? null : lines.get(0).strip();
  }

  private static final String FILE = "file ";

  /** Whether the file (or link) at {@code target} is one this tool wrote: its folder's marker names it. */
  public static boolean wrote(Path target) {
    Path dir = target.toAbsolutePath().getParent();
    return dir != null && files(dir).contains(target.getFileName().toString());
  }

  /** Records in each file's folder's marker that this tool wrote it. */
  public static void recordWritten(Collection<Path> targets) throws IOException {
    Map<Path, Set<String>> byFolder = new TreeMap<>();
    for (Path target : targets) {
      Path absolute = target.toAbsolutePath().normalize();
      byFolder.computeIfAbsent(absolute.getParent(), d -> new TreeSet<>()).add(absolute.getFileName().toString());
    }
    for (Map.Entry<Path, Set<String>> folder : byFolder.entrySet()) {
      Set<String> names = new TreeSet<>(files(folder.getKey()));
      if (names.addAll(folder.getValue())) {
        writeMarker(folder.getKey(), owner(folder.getKey()), names);
      }
    }
  }

  /** The names of the files the folder's marker says this tool wrote there. */
  private static List<String> files(Path dir) {
    return markerLines(dir).stream().filter(l -> l.startsWith(FILE)).map(l -> l.substring(FILE.length())).toList();
  }

  private static List<String> markerLines(Path dir) {
    Path marker = dir.resolve(MARKER);
    if (!Files.isRegularFile(marker, LinkOption.NOFOLLOW_LINKS)) {
      return List.of();
    }
    try {
      return Files.readAllLines(marker, StandardCharsets.UTF_8);
    } catch (IOException e) {
      return List.of();
    }
  }

  /** Writes the marker whole (beside it, then moved over it): the owner's line, then the files. */
  private static void writeMarker(Path dir, String owner, Collection<String> files) throws IOException {
    StringBuilder text = new StringBuilder();
    if (owner != null) {
      text.append(owner).append('\n');
    }
    new TreeSet<>(files).forEach(name -> text.append(FILE).append(name).append('\n'));
    Path temp = Files.createTempFile(dir, MARKER, ".tmp");
    if (Files.getFileStore(temp).supportsFileAttributeView("posix")) {
      Files.setPosixFilePermissions(temp, java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
    }
    try {
      Files.writeString(temp, text, StandardCharsets.UTF_8);
      Files.move(temp, dir.resolve(MARKER), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } finally {
      Files.deleteIfExists(temp);
    }
  }

  private static boolean isEmpty(Path dir) {
    try (Stream<Path> entries = Files.list(dir)) {
      return entries.findAny().isEmpty();
    } catch (IOException e) {
      return false;
    }
  }

  /** Deletes a folder and everything in it (nothing when it is absent); the caller owns it. */
  public static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}

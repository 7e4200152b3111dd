package rolepolicy.generate;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import rolepolicy.spider.InputException;

/**
 * An output folder a command may replace whole: only one it wrote itself, known by the marker file
 * it leaves inside ({@value #MARKER}, holding the command's name), or an empty one. Anything else —
 * a user's folder, another command's, a regular file — is refused with a message naming it.
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
      throw new InputException(option + " " + dir + ": is a file, not a folder; " + command
          + " writes a folder there only where nothing stands: choose another path");
    }
    if (isEmpty(dir) || command.equals(owner(dir))) {
      return;
    }
    throw new InputException(option + " " + dir + ": the folder was not written by " + command
        + " (no " + MARKER + " naming it), so it is not replaced; choose a new or empty folder");
  }

  /**
   * Makes {@code dir} {@code command}'s working folder, kept between runs: it must be absent, empty or
   * already {@code command}'s (so that the command may replace what it wrote there); it is marked.
   */
  public static Path claim(Path dir, String command, String option) {
    checkReplaceable(dir, command, option);
    try {
      Files.createDirectories(dir);
      Files.writeString(dir.resolve(MARKER), command + "\n", StandardCharsets.UTF_8);
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
      Files.writeString(dir.resolve(MARKER), command + "\n", StandardCharsets.UTF_8);
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

  /** The command named by the folder's marker, or null. */
  static String owner(Path dir) {
    Path marker = dir.resolve(MARKER);
    if (!Files.isRegularFile(marker, LinkOption.NOFOLLOW_LINKS)) {
      return null;
    }
    try {
      return Files.readString(marker, StandardCharsets.UTF_8).strip();
    } catch (IOException e) {
      return null;
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

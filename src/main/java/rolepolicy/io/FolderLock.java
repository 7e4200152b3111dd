package rolepolicy.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * One writer per output folder: an operating-system lock on the folder's {@value #FILE}, held while
 * a command writes there and released when it ends or its process dies. The file names the holder
 * ({@code pid N}); it stays after the run (deleting it would let two later runs lock two files of
 * one name) and the folder's marker records it as this tool's.
 */
public final class FolderLock implements AutoCloseable {
  /** The lock file in the folder. */
  public static final String FILE = ".rolepolicy-lock";

  private final FileChannel channel;
  private final FileLock lock;

  private FolderLock(FileChannel channel, FileLock lock) {
    this.channel = channel;
    this.lock = lock;
  }

  /**
   * Locks {@code folder} (made if absent) for {@code command}; refused ({@link OutputRefused}) while
   * another process, or another command of this one, holds it, naming that process.
   */
  public static FolderLock acquire(Path folder, String command) {
    Path file = folder.resolve(FILE);
    FileChannel channel = null;
    try {
      Files.createDirectories(folder);
      channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
      FileLock lock;
      try {
        lock = channel.tryLock();
      } catch (OverlappingFileLockException e) {
        lock = null; // held by this process
      }
      if (lock == null) {
        String holder = holder(file);
        channel.close();
        throw new OutputRefused(folder + " is in use by another " + command + " (" + holder + ", lock " + file
            + "): one process writes a folder at a time; wait for it to end, or give this one another folder");
      }
      channel.truncate(0);
      channel.write(ByteBuffer.wrap(("pid " + ProcessHandle.current().pid() + " " + command + "\n")
          .getBytes(StandardCharsets.UTF_8)), 0);
      channel.force(false);
      OwnedFolder.recordWritten(List.of(file));
      return new FolderLock(channel, lock);
    } catch (IOException e) {
      try {
        if (channel != null) {
          channel.close();
        }
      } catch (IOException ignored) {
        // closing releases the lock anyway
      }
      throw new InputException(file + ": cannot lock the output folder (" + InputException.reason(e) + ")", e);
    }
  }

  /** What the lock file says of its holder: {@code process N}, or that it names none. */
  private static String holder(Path file) {
    try {
      String text = Files.readString(file, StandardCharsets.UTF_8).strip();
      if (text.startsWith("pid ")) {
        String pid = text.substring(4).split("\\s+")[0];
        return "process " + pid + (pid.equals(Long.toString(ProcessHandle.current().pid())) ? ", this one" : "");
      }
    } catch (IOException e) {
      // unreadable: the holder is not named
    }
    return "a process that has not named itself yet";
  }

  @Override
  public void close() {
    try {
      lock.release();
      channel.close();
    } catch (IOException e) {
      // the channel is closed with the process anyway, which releases the lock
    }
  }
}

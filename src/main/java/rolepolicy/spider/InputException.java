package rolepolicy.spider;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;

/** Bad input: the message says what is wrong and where (file, record, field). */
public final class InputException extends RuntimeException {
  public InputException(String message) {
    super(message);
  }

  public InputException(String message, Throwable cause) {
    super(message, cause);
  }

  /** Why a file operation failed, in words rather than exception class names. */
  public static String reason(IOException e) {
    if (e instanceof NoSuchFileException) {
      return "no such file or folder";
    } else if (e instanceof AccessDeniedException) {
      return "permission denied";
    } else if (e instanceof FileAlreadyExistsException) {
      return "a file is in the way";
    } else if (e instanceof NotDirectoryException) {
      return "not a folder";
    } else if (e instanceof FileSystemException fs && fs.getReason() != null) {
      return fs.getReason();
    }
    return e.getMessage();
  }
}

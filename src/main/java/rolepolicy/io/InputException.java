package rolepolicy.io;

import com.fasterxml.jackson.core.JsonProcessingException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.Locale;

/** Bad input: the message says what is wrong and where (file, record, field). */
public final class InputException extends RuntimeException {
  public InputException(String message) {
    super(visible(message));
  }

  public InputException(String message, Throwable cause) {
    super(visible(message), cause);
  }

  /**
   * {@code text} with its invisible characters named, e.g. a byte-order mark quoted from the input
   * as "U+FEFF (byte-order mark)"; line breaks and tabs stay.
   */
  public static String visible(String text) {
    if (text == null || text.chars().noneMatch(InputException::invisible)) {
      return text;
    }
    StringBuilder shown = new StringBuilder();
    text.codePoints().forEach(c -> {
      if (!invisible(c)) {
        shown.appendCodePoint(c);
      } else {
        shown.append(String.format(Locale.ROOT, "U+%04X", c)).append(c == BOM ? " (byte-order mark)" : "");
      }
    });
    return shown.toString();
  }

  /** The byte-order mark some editors write at the start of a text file. */
  public static final char BOM = '\uFEFF';

  private static boolean invisible(int c) {
    int type = Character.getType(c);
    return c != '\n' && c != '\t' && (type == Character.FORMAT || type == Character.CONTROL);
  }

  /**
   * Refuses an input that is not a readable file, naming what it is: missing, a folder, or (unless
   * {@code pipe}: an input read once, as a stream) a pipe or device. {@code context} ends the message,
   * e.g. " (--grants)", or is "".
   */
  public static void requireFile(Path file, boolean pipe, String context) {
    String problem = notAFile(file, pipe);
    if (problem != null) {
      throw new InputException(file + ": " + problem + context);
    }
  }

  /** What keeps {@code file} from being read as an input file, or null when nothing does. */
  public static String notAFile(Path file, boolean pipe) {
    if (Files.isRegularFile(file)) {
      return null;
    } else if (Files.isDirectory(file)) {
      return "is a folder, not a file";
    } else if (!Files.exists(file)) {
      return "file not found";
    }
    return pipe ? null : "is not a regular file (a pipe or device): save it to a file and give that";
  }

  /** Why reading or writing {@code file} failed; text that is not UTF-8 is located (line, byte offset). */
  public static String reason(Path file, IOException e) {
    String place = e instanceof CharacterCodingException ? notUtf8(file) : null;
    return place != null ? "not UTF-8 text: " + place : reason(e);
  }

  /**
   * Where a file stops being UTF-8, e.g. "byte 0xE9 at line 2, byte offset 57"; null when it is
   * UTF-8 or cannot be read.
   */
  public static String notUtf8(Path file) {
    byte[] bytes;
    if (!Files.isRegularFile(file)) {
      return null; // a pipe is read once
    }
    try {
      bytes = Files.readAllBytes(file);
    } catch (IOException | OutOfMemoryError e) {
      return null;
    }
    ByteBuffer in = ByteBuffer.wrap(bytes);
    CoderResult result = StandardCharsets.UTF_8.newDecoder()
        .onMalformedInput(CodingErrorAction.REPORT)
        .onUnmappableCharacter(CodingErrorAction.REPORT)
        .decode(in, CharBuffer.allocate(bytes.length + 1), true);
    if (!result.isError()) {
      return null;
    }
    int offset = in.position();
    int line = 1;
    for (int i = 0; i < offset; i++) {
      if (bytes[i] == '\n') {
        line++;
      }
    }
    return String.format(Locale.ROOT, "byte 0x%02X at line %d, byte offset %d", bytes[offset] & 0xff, line, offset);
  }

  /** Why a file operation failed, in words rather than exception class names. */
  public static String reason(IOException e) {
    if (e instanceof CharacterCodingException) {
      return "not UTF-8 text";
    } else if (e instanceof FileNotFoundException && e.getMessage() != null && e.getMessage().endsWith(")")) {
      // java.io names the path, then the reason in brackets: "/data/x.json (Permission denied)"
      String message = e.getMessage();
      return message.substring(message.lastIndexOf(" (") + 2, message.length() - 1).toLowerCase(Locale.ROOT);
    } else if (e instanceof NoSuchFileException) {
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

  /** A message for a JSON file that cannot be read: missing, or malformed with line and column. */
  public static String describe(Path file, IOException e) {
    if (e instanceof NoSuchFileException) {
      return file + ": file not found";
    }
    String notAFile = notAFile(file, true);
    if (notAFile != null) {
      return file + ": " + notAFile;
    }
    String notUtf8 = e instanceof JsonProcessingException || e instanceof java.nio.charset.CharacterCodingException
        ? notUtf8(file) : null;
    if (notUtf8 != null) {
      return file + ": not UTF-8 text: " + notUtf8 + "; save it as UTF-8";
    }
    if (e instanceof JsonProcessingException json && json.getLocation() != null) {
      return String.format(
          Locale.ROOT,
          "%s: malformed JSON at line %d, column %d: %s",
          file, json.getLocation().getLineNr(), json.getLocation().getColumnNr(), json.getOriginalMessage());
    }
    return file + ": cannot read (" + reason(file, e) + ")";
  }
}

package rolepolicy.io;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A UTF-8 text file the tool reads whole, such as a rule file or a prompt template, with a size
 * limit: a device, a pipe or a folder is refused before it is read, and a file over the limit
 * after at most the limit's bytes.
 */
public final class SmallText {
  /** The largest file read: far above every shipped rule file and template (under 10 KiB each). */
  public static final int LIMIT = 1 << 20;

  private SmallText() {}

  /** The text of {@code file}; {@code what} names it in messages ("rule file"). */
  public static String read(Path file, String what) {
    if (Files.exists(file) && !Files.isRegularFile(file)) {
      throw new InputException(file + ": the " + what + " is not a regular file ("
          + (Files.isDirectory(file) ? "a folder" : "a device, pipe or socket") + "); give a text file");
    }
    byte[] bytes;
    try (InputStream in = Files.newInputStream(file)) {
      bytes = in.readNBytes(LIMIT + 1);
    } catch (IOException e) {
      throw new InputException(file + ": cannot read the " + what + " (" + InputException.reason(file, e) + ")", e);
    }
    if (bytes.length > LIMIT) {
      throw new InputException(file + ": the " + what + " is over " + (LIMIT >> 20) + " MiB, the limit of a "
          + what + "; give a smaller file");
    }
    try {
      return StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes)).toString();
    } catch (CharacterCodingException e) {
      throw new InputException(file + ": cannot read the " + what + " (" + InputException.reason(file, e) + ")", e);
    }
  }
}

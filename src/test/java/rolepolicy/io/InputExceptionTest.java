package rolepolicy.io;

import rolepolicy.spider.SchemaReader;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.FileNotFoundException;
import java.nio.charset.MalformedInputException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How a failed read is worded: a file that is not UTF-8 is located, java.io's reasons are words. */
class InputExceptionTest {
  @TempDir Path dir;

  @Test
  void theFirstByteThatIsNotUtf8IsNamedByLineAndOffset() throws Exception {
    Path file = Files.write(dir.resolve("q.json"), "[\n  \"caf\u00e9\",\n  \"Jos\u00e9\"\n]\n".getBytes(StandardCharsets.ISO_8859_1));
    assertEquals("byte 0xE9 at line 2, byte offset 8", InputException.notUtf8(file));
    assertEquals("not UTF-8 text: byte 0xE9 at line 2, byte offset 8",
        InputException.reason(file, new MalformedInputException(1)));
  }

  @Test
  void utf8TextHasNoBadByte() throws Exception {
    Path file = Files.writeString(dir.resolve("q.json"), "[\"caf\u00e9\", \"\u65e5\u672c\"]\n");
    assertNull(InputException.notUtf8(file));
    assertNull(InputException.notUtf8(dir.resolve("missing.json")));
  }

  @Test
  void javaIoReasonsAreWordsWithoutThePathRepeated() {
    assertEquals("permission denied", InputException.reason(new FileNotFoundException("/data/dev.json (Permission denied)")));
    assertEquals("is a directory", InputException.reason(new FileNotFoundException("/data (Is a directory)")));
  }

  @Test
  void aJsonFileThatIsNotUtf8IsNamedSoNotAsMalformedJson() throws Exception {
    Path file = Files.write(dir.resolve("tables.json"), "[\n{\"db_id\": \"caf\u00e9\"}]\n".getBytes(StandardCharsets.ISO_8859_1));
    InputException e = org.junit.jupiter.api.Assertions.assertThrows(InputException.class, () -> SchemaReader.read(file));
    assertEquals(file + ": not UTF-8 text: byte 0xE9 at line 2, byte offset 16; save it as UTF-8", e.getMessage());
  }
}

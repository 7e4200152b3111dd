package rolepolicy.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A cache entry is written whole or not at all, and leaves no temporary file either way. */
class CacheFolderWriteWholeTest {
  @TempDir Path dir;

  private List<String> names() throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.map(f -> f.getFileName().toString()).sorted().toList();
    }
  }

  @Test
  void anEntryIsWrittenWholeAndItsTemporaryFileIsGone() throws IOException {
    Files.writeString(dir.resolve("entry.bin"), "old");
    CacheFolder.writeWhole(dir.resolve("entry.bin"), out -> out.write("new".getBytes(StandardCharsets.UTF_8)));
    assertEquals("new", Files.readString(dir.resolve("entry.bin")));
    assertEquals(List.of("entry.bin"), names());
  }

  @Test
  void aWritingThatFailsLeavesTheEarlierEntryAndNoTemporaryFile() throws IOException {
    Files.writeString(dir.resolve("entry.bin"), "old");
    assertThrows(IOException.class, () -> CacheFolder.writeWhole(dir.resolve("entry.bin"), out -> {
      out.write("half".getBytes(StandardCharsets.UTF_8));
      throw new IOException("disk full");
    }));
    assertEquals("old", Files.readString(dir.resolve("entry.bin")));
    assertEquals(List.of("entry.bin"), names());
  }
}

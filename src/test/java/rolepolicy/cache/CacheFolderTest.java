package rolepolicy.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** File digests remembered by path, size, time and file key: a changed file is read again. */
class CacheFolderTest {
  @TempDir Path dir;

  @Test
  void aRememberedDigestIsTheFilesAndFollowsAnEdit() throws Exception {
    Path cache = dir.resolve("cache");
    Path file = dir.resolve("a.sqlite");
    Files.writeString(file, "first");
    String first = CacheFolder.digest(file, cache);
    assertEquals(CacheFolder.digest(file), first);
    CacheFolder.saveDigests(cache);
    assertTrue(Files.readString(cache.resolve("digests.tsv")).contains(first + "\t"));
    assertEquals(first, CacheFolder.digest(file, cache));
    Files.writeString(file, "other"); // the same size
    Files.setLastModifiedTime(file, FileTime.fromMillis(Files.getLastModifiedTime(file).toMillis() + 2000));
    String second = CacheFolder.digest(file, cache);
    assertNotEquals(first, second);
    assertEquals(CacheFolder.digest(file), second);
  }
}

package rolepolicy.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OwnedFolderTest {
  @TempDir Path dir;

  @Test
  void anAbsentOrEmptyFolderIsMadeAndMarked() throws Exception {
    Path absent = dir.resolve("a");
    OwnedFolder.recreate(absent, "casebank", "--bank");
    assertEquals("casebank\n", Files.readString(absent.resolve(OwnedFolder.MARKER)));
    Path empty = Files.createDirectories(dir.resolve("b"));
    OwnedFolder.recreate(empty, "casebank", "--bank");
    assertEquals("casebank", OwnedFolder.owner(empty));
  }

  @Test
  void theCommandsOwnFolderIsReplacedWhole() throws Exception {
    Path own = dir.resolve("bank");
    OwnedFolder.recreate(own, "casebank", "--bank");
    Files.createDirectories(own.resolve("index/specific"));
    Files.writeString(own.resolve("index/specific/segment"), "x");
    OwnedFolder.recreate(own, "casebank", "--bank");
    try (var entries = Files.list(own)) {
      assertEquals(1, entries.count(), "only the new marker is left");
    }
    OwnedFolder.delete(own, "casebank", "--bank");
    assertTrue(Files.notExists(own));
  }

  @Test
  void aFolderWithoutTheMarkerIsRefusedAndKept() throws Exception {
    Path user = Files.createDirectories(dir.resolve("data"));
    Files.writeString(user.resolve("overrides.json"), "[]");
    OutputRefused e = assertThrows(OutputRefused.class, () -> OwnedFolder.recreate(user, "casebank", "--bank"));
    assertEquals("--bank " + user + ": the folder was not written by casebank (no " + OwnedFolder.MARKER
        + " naming it), so it is not replaced; choose a new or empty folder", e.getMessage());
    assertThrows(OutputRefused.class, () -> OwnedFolder.delete(user, "casebank", "--bank"));
    assertEquals("[]", Files.readString(user.resolve("overrides.json")));
  }

  @Test
  void aWorkingFolderIsClaimedOnceAndKeptWhatItHolds() throws Exception {
    Path work = dir.resolve("work");
    OwnedFolder.claim(work, "bench-evaluate", "--work");
    Files.writeString(work.resolve("predictions.txt"), "SELECT 1\n");
    OwnedFolder.claim(work, "bench-evaluate", "--work");
    assertEquals("SELECT 1\n", Files.readString(work.resolve("predictions.txt")), "a second run keeps the inputs");
    assertEquals("bench-evaluate", OwnedFolder.owner(work));
    Path user = Files.createDirectories(dir.resolve("data"));
    Files.writeString(user.resolve("overrides.json"), "[]");
    OutputRefused e = assertThrows(OutputRefused.class, () -> OwnedFolder.claim(user, "bench", "--work"));
    assertTrue(e.getMessage().startsWith("--work " + user + ": the folder was not written by bench"), e.getMessage());
    assertTrue(Files.notExists(user.resolve(OwnedFolder.MARKER)), "a refused folder is not marked");
  }

  @Test
  void anotherCommandsFolderIsRefused() throws Exception {
    Path other = dir.resolve("results");
    OwnedFolder.recreate(other, "evaluate", "--out");
    Files.writeString(other.resolve("metrics.json"), "{}");
    assertThrows(OutputRefused.class, () -> OwnedFolder.checkReplaceable(other, "casebank", "--bank"));
    assertEquals("{}", Files.readString(other.resolve("metrics.json")));
  }

  @Test
  void aFileIsNeverReplacedByAFolder() throws Exception {
    Path file = Files.writeString(dir.resolve("bank"), "mine");
    OutputRefused e = assertThrows(OutputRefused.class, () -> OwnedFolder.recreate(file, "casebank", "--bank"));
    assertTrue(e.getMessage().startsWith("--bank " + file + ": is a file, not a folder"), e.getMessage());
    assertEquals("mine", Files.readString(file));
  }

  @Test
  void aMarkerThatIsAFolderDoesNotMakeTheFolderOwned() throws Exception {
    Path fake = Files.createDirectories(dir.resolve("fake").resolve(OwnedFolder.MARKER));
    assertEquals(null, OwnedFolder.owner(fake.getParent()));
    assertThrows(OutputRefused.class, () -> OwnedFolder.checkReplaceable(fake.getParent(), "casebank", "--bank"));
  }
}

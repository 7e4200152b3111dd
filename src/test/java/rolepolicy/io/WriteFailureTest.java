package rolepolicy.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A write that fails names the output it was writing, not the run's temporary file, and the reason. */
class WriteFailureTest {
  @TempDir Path dir;

  @Test
  void aFullDiskNamesTheOutputFolder() throws Exception {
    Path out = dir.resolve("out");
    IOException full;
    try (AtomicOutput output = new AtomicOutput(out)) {
      Path temp = output.stage(out.resolve("grants.sql"));
      Files.delete(temp);
      Files.createSymbolicLink(temp, Path.of("/dev/full")); // every write: "No space left on device"
      full = assertThrows(IOException.class, () -> Files.writeString(temp, "GRANT SELECT ON t TO r;\n"));
    } // closed unwritten, as the failure ends the run
    assertEquals(out.toAbsolutePath() + ": cannot write the output (No space left on device)",
        AtomicOutput.failure(new UncheckedIOException(full)).getMessage());
    try (AtomicOutput output = new AtomicOutput(out)) {
      output.stage(out.resolve("grants.sql"));
      output.commit();
    }
    assertEquals(null, AtomicOutput.failure(new IOException("Connection refused")), "no output failed: not a write");
  }

  @Test
  void aFolderWhereTheFileGoesNamesTheOutputFile() throws Exception {
    Path out = dir.resolve("out");
    try (AtomicOutput output = new AtomicOutput(out)) {
      Path temp = output.stage(out.resolve("decisions.jsonl"));
      Files.delete(temp);
      Files.createDirectory(temp);
      IOException inTheWay = assertThrows(IOException.class, () -> Files.writeString(temp, "{}\n"));
      assertEquals(out.resolve("decisions.jsonl").toAbsolutePath() + ": cannot write (Is a directory)",
          AtomicOutput.failure(inTheWay).getMessage());
    }
  }

  @Test
  void aMoveIntoPlaceThatFailsNamesTheOutput() throws Exception {
    Path out = dir.resolve("out");
    try (AtomicOutput output = new AtomicOutput(out)) {
      Path temp = output.stage(out.resolve("metrics.json"));
      Files.delete(temp); // the temporary file gone from under the run
      InputException e = assertThrows(InputException.class, output::commit);
      assertEquals(out.resolve("metrics.json").toAbsolutePath()
          + ": cannot move output into place (no such file or folder); the previous files are kept", e.getMessage());
    }
  }
}

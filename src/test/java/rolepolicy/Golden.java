package rolepolicy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Golden files: a whole output compared with the file kept in {@code src/test/resources/golden/}.
 * With {@code -Dgolden.update=true} the file is written instead and the test fails: a run that
 * writes golden files never passes, so they are compared only in a run that did not write them.
 */
public final class Golden {
  private Golden() {}

  public static void check(Path golden, String actual, String what) throws IOException {
    if (Boolean.getBoolean("golden.update")) {
      Files.createDirectories(golden.getParent());
      Files.writeString(golden, actual);
      fail("golden file written: " + golden + "; review the diff and run again without -Dgolden.update");
    }
    assertTrue(Files.exists(golden), "missing golden file " + golden + " (write it with -Dgolden.update=true)");
    assertEquals(Files.readString(golden), actual, what);
  }
}

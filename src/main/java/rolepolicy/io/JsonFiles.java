package rolepolicy.io;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;

/** Reads a JSON input file whole; a missing or malformed file is an {@link InputException} naming file and place. */
public final class JsonFiles {
  private static final ObjectMapper JSON = new ObjectMapper();

  private JsonFiles() {}

  public static JsonNode read(Path file) {
    try {
      JsonNode root = JSON.readTree(file.toFile());
      if (root == null) {
        throw new InputException(file + ": the file is empty");
      }
      return root;
    } catch (IOException e) {
      throw new InputException(InputException.describe(file, e), e);
    }
  }

  /** A file holding a non-empty JSON array of {@code what}. */
  public static JsonNode readArray(Path file, String what) {
    JsonNode root = read(file);
    if (!root.isArray() || root.isEmpty()) {
      throw new InputException(file + ": expected a non-empty JSON array of " + what);
    }
    return root;
  }
}

package rolepolicy.generate;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import rolepolicy.engine.RuleSet;
import rolepolicy.io.AtomicOutput;
import rolepolicy.io.DatasetWriter;
import rolepolicy.io.InputException;

/**
 * {@code profile.json} beside the splits {@code generate} writes under a profile other than spec-v1:
 * the profile whose rules made them, {@code {"profile": "strict"}}, so that {@code evaluate} scores
 * a split under its own profile. A folder without it holds spec-v1's splits (as before profiles).
 */
public final class DatasetProfile {
  public static final String FILE = "profile.json";

  private DatasetProfile() {}

  /** Stages {@code <outDir>/profile.json}, for a profile other than spec-v1. */
  public static void write(Path outDir, String profile, AtomicOutput output) {
    if (!profile.equals(RuleSet.DEFAULT_PROFILE)) {
      DatasetWriter.write(output.stage(outDir.resolve(FILE)), Map.of("profile", profile));
    }
  }

  /** The profile recorded beside {@code split}; spec-v1 when the folder records none. */
  public static String of(Path split) {
    Path parent = split.toAbsolutePath().getParent();
    Path file = parent == null ? Path.of(FILE) : parent.resolve(FILE);
    if (!Files.isRegularFile(file)) {
      return RuleSet.DEFAULT_PROFILE;
    }
    try {
      JsonNode profile = DatasetWriter.JSON.readTree(file.toFile()).path("profile");
      if (!profile.isTextual()) {
        throw new InputException(file + ": expected {\"profile\": NAME}, the profile that generated the folder");
      }
      return profile.asText();
    } catch (IOException e) {
      throw new InputException(InputException.describe(file, e), e);
    }
  }
}

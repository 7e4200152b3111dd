package rolepolicy.generate;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import rolepolicy.TestData;
import rolepolicy.engine.QuestionEngine;
import rolepolicy.model.PolicyOverride;

/** Generates a split from the real Spider data into a temporary folder, once per JVM. */
public final class SpiderRun {
  private static final java.util.Map<String, JsonNode> CACHE = new java.util.HashMap<>();

  private SpiderRun() {}

  public static synchronized JsonNode records(String split, String file) {
    return CACHE.computeIfAbsent(split, s -> generate(s, file, List.of()));
  }

  public static JsonNode generate(String split, String file, List<PolicyOverride> overrides) {
    try {
      Path dir = Files.createTempDirectory("rolepolicy-" + split);
      Path out = dir.resolve(split + ".json");
      var policies =
          new rolepolicy.engine.PolicyAssigner(TestData.rules())
              .assign(TestData.schemas(), overrides, "test overrides");
      QuestionGenerator questions =
          new QuestionGenerator(new QuestionEngine(TestData.rules()), TestData.schemas(), policies);
      new DatasetGenerator(questions)
          .generate(split, TestData.spiderDir().resolve(file), out, null, bytes -> {});
      JsonNode records = DatasetWriter.JSON.readTree(out.toFile());
      Files.delete(out);
      Files.delete(dir);
      return records;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}

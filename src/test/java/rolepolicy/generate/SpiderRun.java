package rolepolicy.generate;

import rolepolicy.io.DatasetWriter;
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

  /**
   * The records of the first {@code n} questions of a split: the first {@code n} of {@link
   * #records} when that is at hand, else {@link #alone}, once per JVM.
   */
  public static synchronized JsonNode first(String split, String file, int n) {
    JsonNode whole = CACHE.get(split);
    return whole != null ? head(whole, n) : CACHE.computeIfAbsent(split + "#" + n, s -> alone(split, file, n));
  }

  /**
   * The first {@code n} questions of a split generated alone: the same records as the first {@code
   * n} of the whole split (a record depends only on its question and the policies;
   * {@code MaskedQuestionLeakTest} checks it on train), without generating the rest.
   */
  public static JsonNode alone(String split, String file, int n) {
    Path dir = null;
    Path input = null;
    try {
      dir = Files.createTempDirectory("rolepolicy-" + split + "-input");
      input = dir.resolve(file);
      DatasetWriter.JSON.writeValue(input.toFile(), head(DatasetWriter.JSON.readTree(TestData.spiderDir().resolve(file).toFile()), n));
      return generate(split, input, List.of(), QuestionGenerator.Facts.AUTO);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      // the input is removed whether or not the generation failed
      try {
        if (input != null) {
          Files.deleteIfExists(input);
        }
        if (dir != null) {
          Files.deleteIfExists(dir);
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  private static com.fasterxml.jackson.databind.node.ArrayNode head(JsonNode array, int n) {
    var head = DatasetWriter.JSON.createArrayNode();
    for (int i = 0; i < Math.min(n, array.size()); i++) {
      head.add(array.get(i));
    }
    return head;
  }

  private static JsonNode birdDev;

  /** BIRD dev, generated from its SQL text without overrides, once per JVM. */
  public static synchronized JsonNode birdDev() {
    if (birdDev == null) {
      Path bird = TestData.spiderDir().resolveSibling("bird");
      var schemas = rolepolicy.spider.SchemaReader.read(bird.resolve("dev_tables.json"));
      var policies =
          new rolepolicy.engine.PolicyAssigner(TestData.rules()).assign(schemas, List.of(), "none");
      QuestionGenerator questions =
          new QuestionGenerator(new QuestionEngine(TestData.rules()), schemas, policies);
      birdDev = generate(new DatasetGenerator(questions), "dev", bird.resolve("dev.json"));
    }
    return birdDev;
  }

  private static JsonNode generate(DatasetGenerator generator, String split, Path input) {
    try {
      Path dir = Files.createTempDirectory("rolepolicy-" + split);
      Path out = dir.resolve(split + ".json");
      generator.generate(split, input, out, null, bytes -> {});
      JsonNode records = DatasetWriter.JSON.readTree(out.toFile());
      Files.delete(out);
      Files.delete(dir);
      return records;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public static JsonNode generate(String split, String file, List<PolicyOverride> overrides) {
    return generate(split, file, overrides, QuestionGenerator.Facts.AUTO);
  }

  public static JsonNode generate(
      String split, String file, List<PolicyOverride> overrides, QuestionGenerator.Facts facts) {
    return generate(split, TestData.spiderDir().resolve(file), overrides, facts);
  }

  private static JsonNode generate(
      String split, Path input, List<PolicyOverride> overrides, QuestionGenerator.Facts facts) {
    try {
      Path dir = Files.createTempDirectory("rolepolicy-" + split);
      Path out = dir.resolve(split + ".json");
      var policies =
          new rolepolicy.engine.PolicyAssigner(TestData.rules())
              .assign(TestData.schemas(), overrides, "test overrides");
      QuestionGenerator questions =
          new QuestionGenerator(
              new QuestionEngine(TestData.rules()), TestData.schemas(), policies, facts);
      new DatasetGenerator(questions).generate(split, input, out, null, bytes -> {});
      JsonNode records = DatasetWriter.JSON.readTree(out.toFile());
      Files.delete(out);
      Files.delete(dir);
      return records;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}

package rolepolicy.compare;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import rolepolicy.evaluate.EvaluationFolder;
import rolepolicy.io.JsonFiles;

/**
 * One run to compare: an {@code evaluate --out} folder or a {@code run} folder, with its label and,
 * when the folder has a {@code run.json}, the model it names, the questions it left without a final
 * answer (failed or cut off), and what its requests took.
 *
 * @param unanswered ids of the questions without a final answer (none for an evaluate folder)
 * @param record the folder's {@code run.json}, or null
 */
public record Run(String name, String model, EvaluationFolder evaluation, Set<String> unanswered, JsonNode record) {

  public static Run read(Path folder, String name) {
    EvaluationFolder evaluation = EvaluationFolder.read(folder);
    Path runJson = folder.resolve("run.json");
    JsonNode record = Files.isRegularFile(runJson) ? JsonFiles.read(runJson) : null;
    Set<String> unanswered = new TreeSet<>();
    if (record != null) {
      record.path("unanswered").fieldNames().forEachRemaining(unanswered::add);
    }
    return new Run(name == null ? label(folder) : name, model(record), evaluation, unanswered, record);
  }

  /** {@code model} of run.json: a text, or an object's {@code name}; null without the file. */
  static String model(JsonNode record) {
    if (record == null) {
      return null;
    }
    JsonNode model = record.path("model");
    if (model.isTextual()) {
      return model.asText();
    }
    return model.path("name").isTextual() ? model.path("name").asText() : null;
  }

  /** The profile run.json records; null for an evaluate folder or a run written before it was recorded. */
  public String profile() {
    return record != null && record.path("profile").isTextual() ? record.path("profile").asText() : null;
  }

  /** run.json's {@code configuration}, by setting; empty for an evaluate folder or an older run. */
  Map<String, JsonNode> configuration() {
    Map<String, JsonNode> settings = new LinkedHashMap<>();
    if (record != null) {
      Iterator<Map.Entry<String, JsonNode>> fields = record.path("configuration").fields();
      fields.forEachRemaining(e -> settings.put(e.getKey(), e.getValue()));
    }
    return settings;
  }

  private static String label(Path folder) {
    Path name = folder.toAbsolutePath().normalize().getFileName();
    return name == null ? folder.toString() : name.toString();
  }
}

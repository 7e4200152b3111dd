package rolepolicy.compare;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import rolepolicy.evaluate.EvaluationFolder;
import rolepolicy.io.JsonFiles;

/**
 * One run to compare: an {@code evaluate --out} folder or a {@code run} folder, with its label and,
 * when the folder has a {@code run.json}, the model it names.
 */
public record Run(String name, String model, EvaluationFolder evaluation) {

  public static Run read(Path folder, String name) {
    EvaluationFolder evaluation = EvaluationFolder.read(folder);
    return new Run(name == null ? label(folder) : name, model(folder.resolve("run.json")), evaluation);
  }

  /** {@code model} of run.json: a text, or an object's {@code name}; null without the file. */
  static String model(Path runJson) {
    if (!Files.isRegularFile(runJson)) {
      return null;
    }
    JsonNode model = JsonFiles.read(runJson).path("model");
    if (model.isTextual()) {
      return model.asText();
    }
    return model.path("name").isTextual() ? model.path("name").asText() : null;
  }

  private static String label(Path folder) {
    Path name = folder.toAbsolutePath().normalize().getFileName();
    return name == null ? folder.toString() : name.toString();
  }
}

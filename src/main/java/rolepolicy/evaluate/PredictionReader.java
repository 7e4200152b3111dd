package rolepolicy.evaluate;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import rolepolicy.io.InputException;

/**
 * Reads a model's predictions, aligned with the dataset: either one per line (Spider's
 * convention; a line is SQL text or the word REFUSE) or JSON Lines {@code {"id": ..., "prediction":
 * ...}} matched by id. A count mismatch, a missing, repeated or unknown id is an error, never a
 * silent shift.
 */
public final class PredictionReader {
  private static final ObjectMapper JSON = new ObjectMapper();

  private PredictionReader() {}

  public static List<String> read(Path file, List<GoldRecord> dataset) {
    List<String> lines;
    try {
      lines = Files.readAllLines(file);
    } catch (IOException e) {
      throw new InputException(file + ": cannot read predictions (" + InputException.reason(file, e) + ")", e);
    }
    if (!lines.isEmpty() && lines.get(0).startsWith("\uFEFF")) { // a byte order mark, as some editors write
      lines = new ArrayList<>(lines);
      lines.set(0, lines.get(0).substring(1));
    }
    if (!lines.isEmpty() && lines.get(lines.size() - 1).isEmpty() && lines.size() == dataset.size() + 1) {
      lines = lines.subList(0, lines.size() - 1); // a final empty line is the file's last newline
    }
    boolean jsonLines =
        file.getFileName().toString().endsWith(".jsonl")
            || lines.stream().filter(l -> !l.isBlank()).findFirst().map(l -> l.strip().startsWith("{")).orElse(false);
    return jsonLines ? byId(file, lines, dataset) : byLine(file, lines, dataset);
  }

  private static List<String> byLine(Path file, List<String> lines, List<GoldRecord> dataset) {
    if (lines.size() != dataset.size()) {
      throw new InputException(
          file + ": " + lines.size() + " prediction lines for " + dataset.size()
              + " dataset records; give one line per record, in dataset order (an empty line is an empty prediction)");
    }
    return List.copyOf(lines);
  }

  private static List<String> byId(Path file, List<String> lines, List<GoldRecord> dataset) {
    Map<String, Integer> positions = new HashMap<>();
    for (int i = 0; i < dataset.size(); i++) {
      positions.put(dataset.get(i).id(), i);
    }
    Map<String, String> predictions = new LinkedHashMap<>();
    for (int i = 0; i < lines.size(); i++) {
      String where = file + ": line " + (i + 1);
      if (lines.get(i).isBlank()) {
        continue;
      }
      JsonNode line;
      try {
        line = JSON.readTree(lines.get(i));
      } catch (JsonProcessingException e) {
        throw new InputException(where + ": malformed JSON: " + e.getOriginalMessage(), e);
      }
      JsonNode id = line.get("id");
      JsonNode prediction = line.get("prediction");
      if (id == null || !id.isTextual() || prediction == null || !prediction.isTextual()) {
        throw new InputException(where + ": expected {\"id\": \"...\", \"prediction\": \"...\"}");
      }
      if (!positions.containsKey(id.asText())) {
        throw new InputException(where + ": id '" + id.asText() + "' is not in the dataset");
      }
      if (predictions.putIfAbsent(id.asText(), prediction.asText()) != null) {
        throw new InputException(where + ": id '" + id.asText() + "' is predicted twice");
      }
    }
    List<String> missing = new ArrayList<>();
    List<String> aligned = new ArrayList<>();
    for (GoldRecord record : dataset) {
      String prediction = predictions.get(record.id());
      if (prediction == null) {
        missing.add(record.id());
      }
      aligned.add(prediction);
    }
    if (!missing.isEmpty()) {
      throw new InputException(
          file + ": no prediction for " + missing.size() + " dataset record(s): "
              + String.join(", ", missing.subList(0, Math.min(10, missing.size())))
              + (missing.size() > 10 ? ", ..." : ""));
    }
    return aligned;
  }
}

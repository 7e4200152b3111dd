package rolepolicy.run;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import rolepolicy.io.DatasetWriter;
import rolepolicy.io.InputException;
import rolepolicy.io.OutputRefused;

/** A finished run's folder read back: each question's last prompt and its answer. */
public final class RunFolder {
  /** A question's last prompt (the second stage's in a two-stage run) and its answer's text, or null when it failed or was cut off. */
  public record Final(String prompt, String answer) {}

  private RunFolder() {}

  /**
   * The prompts a finished run wrote, by question in the run's order (a question's first stage, then
   * its second, if any), when {@code run.json} records the same prompt inputs ({@code prompt_inputs});
   * null when the folder has none, they were made from other inputs, or cannot be read.
   */
  static List<List<ModelRun.PromptEntry>> prompts(Path folder, String inputs) {
    Path promptsFile = folder.resolve(ModelRun.PROMPTS);
    Path runFile = folder.resolve(ModelRun.RUN);
    if (!Files.isRegularFile(promptsFile) || !Files.isRegularFile(runFile)) {
      return null;
    }
    try {
      if (!inputs.equals(DatasetWriter.JSON.readTree(runFile.toFile()).path("prompt_inputs").asText(null))) {
        return null;
      }
      List<List<ModelRun.PromptEntry>> byQuestion = new ArrayList<>();
      for (String line : Files.readAllLines(promptsFile, StandardCharsets.UTF_8)) {
        ModelRun.PromptEntry p = DatasetWriter.JSON.readValue(line, ModelRun.PromptEntry.class);
        if (p.stage().equals("final") && !byQuestion.isEmpty()) {
          byQuestion.get(byQuestion.size() - 1).add(p);
        } else {
          byQuestion.add(new ArrayList<>(List.of(p)));
        }
      }
      return byQuestion;
    } catch (IOException | RuntimeException e) {
      return null; // built again, and written anew
    }
  }

  /**
   * Refuses to run into a folder whose {@code run.json} records another configuration, naming the
   * settings that differ: a folder holds one run. {@code force} lets the run take the folder over (its
   * answer log stays: its answers are keyed by request, so none of them is reused for other settings).
   */
  static void checkConfiguration(Path folder, Map<String, Object> configuration, boolean force) {
    Path runFile = folder.resolve(ModelRun.RUN);
    if (force || !Files.isRegularFile(runFile)) {
      return;
    }
    JsonNode earlier;
    try {
      earlier = DatasetWriter.JSON.readTree(runFile.toFile()).path("configuration");
    } catch (IOException e) {
      throw new InputException(runFile + ": cannot read the earlier run's settings (" + InputException.reason(runFile, e) + ")", e);
    }
    if (earlier.isMissingNode()) {
      return; // written before run.json recorded a configuration: nothing to compare (its answers' keys differ anyway)
    }
    JsonNode now = DatasetWriter.JSON.valueToTree(configuration);
    List<String> differing = new ArrayList<>();
    java.util.Set<String> names = new java.util.LinkedHashSet<>();
    now.fieldNames().forEachRemaining(names::add);
    earlier.fieldNames().forEachRemaining(names::add);
    for (String name : names) {
      JsonNode was = earlier.path(name);
      JsonNode is = now.path(name);
      if (!was.equals(is)) {
        differing.add(name + " " + shown(was) + " → " + shown(is));
      }
    }
    if (!differing.isEmpty()) {
      throw new OutputRefused(folder + " holds another run (" + runFile + "): " + String.join("; ", differing)
          + ". Give this run its own folder (--name NAME or --out DIR), or --force to make this folder this run's");
    }
  }

  private static String shown(JsonNode value) {
    return value.isMissingNode() ? "(not recorded)" : value.isTextual() ? value.asText() : value.toString();
  }

  /** By question id, in the run's order. */
  public static Map<String, Final> finals(Path folder) {
    Path promptsFile = folder.resolve(ModelRun.PROMPTS);
    if (!Files.isRegularFile(promptsFile)) {
      throw new InputException(folder + ": not a finished run (" + ModelRun.PROMPTS + " not found)");
    }
    Map<String, Final> finals = new LinkedHashMap<>();
    try (AnswerLog log = AnswerLog.read(folder)) {
      List<String> lines = Files.readAllLines(promptsFile, StandardCharsets.UTF_8);
      for (int i = 0; i < lines.size(); i++) {
        JsonNode p;
        try {
          p = DatasetWriter.JSON.readTree(lines.get(i));
        } catch (IOException e) {
          throw new InputException(promptsFile + ": line " + (i + 1) + ": malformed JSON", e);
        }
        AnswerLog.Entry answer = log.answer(p.path("key").asText());
        finals.put(p.path("id").asText(), new Final(p.path("prompt").asText(), answer == null ? null : answer.answer()));
      }
    } catch (IOException e) {
      throw new InputException(promptsFile + ": cannot read the run's prompts (" + InputException.reason(promptsFile, e) + ")", e);
    }
    return finals;
  }
}

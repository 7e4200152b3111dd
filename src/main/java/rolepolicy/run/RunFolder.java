package rolepolicy.run;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import rolepolicy.generate.DatasetWriter;
import rolepolicy.spider.InputException;

/** A finished run's folder read back: each question's last prompt and its answer. */
public final class RunFolder {
  /** A question's last prompt (the second stage's in a two-stage run) and its answer's text, or null when it failed. */
  public record Final(String prompt, String answer) {}

  private RunFolder() {}

  /** By question id, in the run's order. */
  public static Map<String, Final> finals(Path folder) {
    Path promptsFile = folder.resolve(ModelRun.PROMPTS);
    if (!Files.isRegularFile(promptsFile)) {
      throw new InputException(folder + ": not a finished run (" + ModelRun.PROMPTS + " not found)");
    }
    Map<String, Final> finals = new LinkedHashMap<>();
    try (AnswerLog log = AnswerLog.open(folder)) {
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

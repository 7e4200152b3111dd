package rolepolicy.interact;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import rolepolicy.evaluate.Evaluator;
import rolepolicy.evaluate.GoldRecord;
import rolepolicy.interact.InteractQuestion.GoldStep;
import rolepolicy.interact.InteractQuestion.PolicyGold;
import rolepolicy.io.InputException;
import rolepolicy.io.JsonFiles;

/**
 * Reads the questions of a loop: a generated policy dataset (records with {@code gold_label}), or a
 * question list in the recorded runs' shape ({@code db}/{@code db_id}, {@code nl}/{@code question},
 * {@code sql}/{@code SQL}/{@code query}, optional {@code evidence}).
 */
public final class QuestionSet {
  private QuestionSet() {}

  public static List<InteractQuestion> read(Path file) {
    JsonNode root = JsonFiles.readArray(file, "questions");
    return root.get(0).has("gold_label") ? policyDataset(file, root) : questionList(file, root);
  }

  private static List<InteractQuestion> policyDataset(Path file, JsonNode root) {
    List<GoldRecord> golds = Evaluator.readDataset(file);
    List<InteractQuestion> questions = new ArrayList<>(golds.size());
    for (int i = 0; i < golds.size(); i++) {
      JsonNode record = root.get(i);
      GoldRecord gold = golds.get(i);
      String where = file + ": record #" + (i + 1) + " (" + gold.id() + ")";
      List<GoldStep> steps = new ArrayList<>();
      for (JsonNode step : record.at("/gold_label/steps")) {
        steps.add(new GoldStep(step.path("rule").asText(), step.path("column").asText()));
      }
      questions.add(new InteractQuestion(
          i, gold.id(), gold.dbId(), text(record, where, "question"), null, gold.goldSql(),
          new PolicyGold(gold, List.copyOf(steps))));
    }
    return questions;
  }

  private static List<InteractQuestion> questionList(Path file, JsonNode root) {
    List<InteractQuestion> questions = new ArrayList<>(root.size());
    for (int i = 0; i < root.size(); i++) {
      JsonNode q = root.get(i);
      String where = file + ": question #" + (i + 1);
      String id = q.has("question_id") ? q.get("question_id").asText() : String.valueOf(i);
      JsonNode evidence = q.get("evidence");
      questions.add(new InteractQuestion(
          i, id, text(q, where, "db", "db_id"), text(q, where, "nl", "question"),
          evidence == null || evidence.isNull() ? null : evidence.asText(),
          text(q, where, "sql", "SQL", "query"), null));
    }
    return questions;
  }

  /** The first of the named text fields that the record has. */
  private static String text(JsonNode record, String where, String... names) {
    for (String name : names) {
      JsonNode value = record.get(name);
      if (value != null && value.isTextual()) {
        return value.asText();
      }
    }
    throw new InputException(where + ": missing text field '" + String.join("' or '", names) + "'");
  }
}

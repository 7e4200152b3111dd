package rolepolicy.interact;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import rolepolicy.evaluate.Evaluator;
import rolepolicy.evaluate.GoldRecord;
import rolepolicy.llm.ModelAnswer;
import rolepolicy.io.InputException;
import rolepolicy.io.JsonFiles;

/**
 * One round of a recorded run ({@code ../shared/sphinteract/logs}) as predictions for {@code
 * evaluate}: each logged question is found in a generated dataset by database and question text,
 * and its round's SQL, cleaned as the authors cleaned it ({@link rolepolicy.llm.ModelAnswer#authorsClean}), becomes
 * that record's prediction.
 *
 * @param predictions in dataset order: the logged questions found in the dataset
 * @param records the dataset records of those questions, in dataset order (the dataset to evaluate)
 * @param logged how many questions the log records
 * @param notInDataset the logged questions (their place in the question list) the dataset lacks
 * @param notLogged the dataset ids the log does not record
 * @param noSql the ids whose log has no SQL for the round (an empty prediction)
 */
public record RecordedPredictions(
    List<Prediction> predictions, ArrayNode records, int logged, List<Integer> notInDataset, List<String> notLogged,
    List<String> noSql) {

  /** A line of evaluate's JSON Lines predictions. */
  public record Prediction(String id, String prediction) {}

  public static RecordedPredictions of(Path log, Path questionList, Path dataset, int round) {
    List<InteractQuestion> questions = QuestionSet.read(questionList);
    if (questions.get(0).policy() != null) {
      throw new InputException(questionList + ": expected the recorded runs' question list, not a policy dataset");
    }
    ReplaySource replay = ReplaySource.read(log, questions);
    JsonNode root = JsonFiles.readArray(dataset, "records");
    List<GoldRecord> golds = Evaluator.readDataset(dataset);
    Map<String, InteractQuestion> byText = new HashMap<>();
    for (InteractQuestion q : questions) {
      if (replay.records(q.index())) {
        byText.put(key(q.dbId(), q.question()), q);
      }
    }
    Map<String, String> seen = new HashMap<>();
    List<Prediction> predictions = new ArrayList<>();
    ArrayNode records = JsonNodeFactory.instance.arrayNode();
    List<String> notLogged = new ArrayList<>();
    List<String> noSql = new ArrayList<>();
    List<Integer> found = new ArrayList<>();
    for (int i = 0; i < golds.size(); i++) {
      GoldRecord gold = golds.get(i);
      String key = key(gold.dbId(), gold.question() == null ? "" : gold.question());
      String earlier = seen.put(key, gold.id());
      if (earlier != null) {
        throw new InputException(dataset + ": " + earlier + " and " + gold.id() + " ask the same question of "
            + gold.dbId() + "; a logged question would match both");
      }
      InteractQuestion q = byText.get(key);
      if (q == null) {
        notLogged.add(gold.id());
        continue;
      }
      String sql = replay.roundSql(q.index(), round);
      if (sql == null) {
        noSql.add(gold.id());
      }
      predictions.add(new Prediction(gold.id(), sql == null ? "" : ModelAnswer.authorsClean(sql).strip()));
      records.add(root.get(i));
      found.add(q.index());
    }
    List<Integer> notInDataset = questions.stream().map(InteractQuestion::index)
        .filter(i -> replay.records(i) && !found.contains(i)).toList();
    int logged = (int) questions.stream().filter(q -> replay.records(q.index())).count();
    return new RecordedPredictions(predictions, records, logged, notInDataset, notLogged, noSql);
  }

  private static String key(String db, String question) {
    return db + '\u0000' + question.strip();
  }
}

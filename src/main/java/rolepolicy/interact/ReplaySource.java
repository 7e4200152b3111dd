package rolepolicy.interact;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import rolepolicy.io.InputException;
import rolepolicy.io.JsonFiles;

/**
 * A recorded run ({@code ../shared/sphinteract/logs/*.json}, or the {@code log.json} of an {@code
 * interact} run) played back: each round's SQL is the recorded {@code generate}, a repair the
 * {@code fix} that follows it, each with its recorded perplexity.
 *
 * <p>The authors' logs keep each model answer as written: it is cleaned as they cleaned it. An
 * {@code interact} log (it has {@code settings}) keeps the SQL it ran, or the answer in which it found
 * none: that is read as a model answer again, so a replay meets the same SQL and the same "no SQL".
 */
public final class ReplaySource implements SqlSource {
  /** One recorded SQL: {@code kind} is {@code generate} or {@code fix}. */
  record Entry(String kind, String sql, Double perplexity) {}

  /** A recorded question: its rounds (each a generate and the fixes after it) and its outcome. */
  record Recorded(List<List<Entry>> rounds, String numCqAsked) {}

  private final Path file;
  private final Map<Integer, Recorded> byIndex;
  private final boolean interactLog;

  private ReplaySource(Path file, Map<Integer, Recorded> byIndex, boolean interactLog) {
    this.file = file;
    this.byIndex = byIndex;
    this.interactLog = interactLog;
  }

  /**
   * Reads a recorded run and checks it against the questions: every record must name, at its
   * index, the same database and question.
   */
  public static ReplaySource read(Path file, List<InteractQuestion> questions) {
    JsonNode log = JsonFiles.read(file);
    JsonNode records = log.get("records");
    boolean interactLog = log.has("settings");
    if (records == null || !records.isArray()) {
      throw new InputException(file + ": expected a recorded run, an object with a 'records' array");
    }
    Map<Integer, Recorded> byIndex = new TreeMap<>();
    for (int k = 0; k < records.size(); k++) {
      JsonNode r = records.get(k);
      String where = file + ": record #" + (k + 1);
      int index = r.path("index").asInt(-1);
      if (index < 0 || index >= questions.size()) {
        throw new InputException(where + ": index " + r.path("index") + " is not a question of the "
            + questions.size() + " in the question file");
      }
      InteractQuestion q = questions.get(index);
      String db = r.path("db_id").asText();
      String text = r.path("question").asText();
      if (!db.equals(q.dbId()) || !text.strip().equals(q.question().strip())) {
        throw new InputException(where + " (index " + index + ") asks '" + text + "' of " + db
            + ", but question #" + (index + 1) + " of the question file asks '" + q.question() + "' of "
            + q.dbId() + ": the log is not a run over these questions");
      }
      if (byIndex.containsKey(index)) {
        throw new InputException(where + ": index " + index + " is recorded twice");
      }
      List<List<Entry>> rounds = new ArrayList<>();
      for (JsonNode e : r.path("sql_log")) {
        String kind = e.path("kind").asText();
        if (!kind.equals("generate") && !kind.equals("fix")) {
          throw new InputException(where + ": a '" + kind + "' SQL; a replay plays back generate and fix only (the rules' clarified SQL is not a model's)");
        }
        JsonNode p = e.get("perplexity");
        Entry entry = new Entry(kind, e.path("sql").asText(), p != null && p.isNumber() ? p.asDouble() : null);
        if (kind.equals("generate") || rounds.isEmpty()) {
          rounds.add(new ArrayList<>());
        }
        rounds.get(rounds.size() - 1).add(entry);
      }
      JsonNode num = r.get("num_cq_asked");
      byIndex.put(index, new Recorded(rounds, num == null ? null : num.asText()));
    }
    return new ReplaySource(file, byIndex, interactLog);
  }

  /** The recorded {@code num_cq_asked} of a question (a round or {@code Failed}), or null. */
  public String recordedOutcome(int index) {
    Recorded r = byIndex.get(index);
    return r == null ? null : r.numCqAsked();
  }

  /** The recorded SQL of a question's round ({@code generate}, as the model wrote it), or null. */
  public String roundSql(int index, int round) {
    Recorded r = byIndex.get(index);
    if (r == null || round >= r.rounds().size() || !r.rounds().get(round).get(0).kind().equals("generate")) {
      return null;
    }
    return r.rounds().get(round).get(0).sql();
  }

  /** Whether the log records this question. */
  public boolean records(int index) {
    return byIndex.containsKey(index);
  }

  @Override
  public Generation generate(InteractQuestion question, Conversation conversation) {
    List<Entry> round = round(question, conversation);
    return round == null || !round.get(0).kind().equals("generate") ? null : generation(round.get(0));
  }

  @Override
  public Generation repair(InteractQuestion question, Conversation conversation, String failed, String error) {
    List<Entry> round = round(question, conversation);
    if (round == null) {
      return null;
    }
    return round.size() > 1 && round.get(1).kind().equals("fix") ? generation(round.get(1)) : null;
  }

  /** An interact log's texts are read as model answers (its SQL as run, or an answer without SQL). */
  @Override
  public boolean modelAnswers() {
    return interactLog;
  }

  private static Generation generation(Entry e) {
    return new Generation(e.sql(), e.perplexity());
  }

  @Override
  public String describe() {
    return "replay of " + file;
  }

  private List<Entry> round(InteractQuestion question, Conversation conversation) {
    Recorded r = byIndex.get(question.index());
    return r == null || conversation.round() >= r.rounds().size() ? null : r.rounds().get(conversation.round());
  }
}

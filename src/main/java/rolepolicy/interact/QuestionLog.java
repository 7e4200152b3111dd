package rolepolicy.interact;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;

/**
 * The log of one question, in the recorded runs' shape ({@code sql_log}, {@code cq_log}, {@code
 * feedback_log}, {@code num_cq_asked}) with what the loop adds: each round's standing answer and
 * whether it matched, and for a replay the recorded outcome.
 *
 * @param numCqAsked the round at which the answer first matched (a number), or {@code "Failed"}
 * @param examples the user-study examples shown to the model (few-shot), most similar first, or null
 * @param skipped why the question was not played (no database), or null
 */
@JsonPropertyOrder({
  "index", "id", "db_id", "question", "gold_sql", "examples", "sql_log", "cq_log", "feedback_log", "num_cq_asked",
  "recorded_num_cq_asked", "decision", "rounds", "skipped"
})
@JsonInclude(JsonInclude.Include.NON_NULL)
public record QuestionLog(
    int index,
    String id,
    @JsonProperty("db_id") String dbId,
    String question,
    @JsonProperty("gold_sql") String goldSql,
    List<Example> examples,
    @JsonProperty("sql_log") List<SqlEntry> sqlLog,
    @JsonProperty("cq_log") List<CqEntry> cqLog,
    @JsonProperty("feedback_log") List<FeedbackEntry> feedbackLog,
    @JsonProperty("num_cq_asked") Object numCqAsked,
    @JsonProperty("recorded_num_cq_asked") Object recordedNumCqAsked,
    String decision,
    List<RoundState> rounds,
    String skipped) {

  public static final String FAILED = "Failed";

  /** A copy with the recorded outcome of a replay. */
  public QuestionLog withRecorded(Object recorded) {
    return new QuestionLog(index, id, dbId, question, goldSql, examples, sqlLog, cqLog, feedbackLog, numCqAsked, recorded,
        decision, rounds, skipped);
  }

  /**
   * One user-study example shown to the model.
   *
   * @param index its position in the user-study file
   * @param similarity the cosine similarity of its question's embedding to the question's
   */
  @JsonPropertyOrder({"index", "db_id", "question", "similarity"})
  public record Example(int index, @JsonProperty("db_id") String dbId, String question, double similarity) {}

  /**
   * One SQL of the conversation.
   *
   * @param kind {@code generate} (a round's SQL), {@code fix} (a repair after an execution error) or
   *     {@code clarified} (the rules' edit after a policy clarification)
   * @param result {@code match}, {@code mismatch}, {@code error: …}, {@code violates: …} or {@code no SQL: …}
   * @param perplexity the model's perplexity for the text (as the recorded runs keep it), or null
   */
  @JsonPropertyOrder({"order", "round", "kind", "sql", "result", "perplexity"})
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record SqlEntry(int order, int round, String kind, String sql, String result, Double perplexity) {
    public SqlEntry(int order, int round, String kind, String sql, String result) {
      this(order, round, kind, sql, result, null);
    }
  }

  /**
   * One clarification question.
   *
   * @param askedBy {@code rules} (a policy clarification) or {@code model}
   * @param rule the rule that worded it, for a policy clarification
   * @param perplexity the asking model's perplexity, or null
   * @param notOffered the edits the rules proposed whose check failed, with why; null when none
   */
  @JsonPropertyOrder({"order", "round", "asked_by", "question", "options", "rule", "perplexity", "not_offered"})
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record CqEntry(
      int order, int round, @JsonProperty("asked_by") String askedBy, String question, List<Option> options, String rule,
      Double perplexity, @JsonProperty("not_offered") List<NotOffered> notOffered) {
    public CqEntry(int order, int round, String askedBy, String question, List<Option> options, String rule) {
      this(order, round, askedBy, question, options, rule, null, null);
    }
  }

  /** A proposed edit that was not offered: its code, the rule that proposed it, and why its check failed. */
  @JsonPropertyOrder({"code", "rule", "why"})
  public record NotOffered(String code, String rule, String why) {}

  /** One option of a policy clarification and the rule that offered it. */
  @JsonPropertyOrder({"code", "text", "rule"})
  public record Option(String code, String text, String rule) {}

  /**
   * One answer to a clarification.
   *
   * @param answeredBy {@code policy user} or {@code model user}
   * @param option the code of the option taken, for a policy clarification
   * @param perplexity the answering model's perplexity, or null
   */
  @JsonPropertyOrder({"order", "round", "answered_by", "answer", "option", "perplexity"})
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record FeedbackEntry(int order, int round, @JsonProperty("answered_by") String answeredBy, String answer,
      String option, Double perplexity) {}

  /**
   * The answer standing at the end of a round.
   *
   * @param answer the SQL, {@code REFUSE}, or null when the round has none
   * @param matched whether it matched the gold (for REFUSE: whether the gold label is REFUSE)
   */
  @JsonPropertyOrder({"round", "answer", "matched"})
  public record RoundState(int round, String answer, boolean matched) {}
}

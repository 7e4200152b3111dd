package rolepolicy.evaluate;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;

/**
 * How one prediction was scored, and why.
 *
 * @param prediction {@code REFUSE}, {@code SQL} or {@code EMPTY}
 * @param analysis {@code OK}, or why the SQL text could not be analysed
 * @param violations the violations found in the predicted SQL text
 * @param compliant answered SQL analysed without violation; null for a refusal
 * @param execution {@code MATCH}, {@code MISMATCH}, {@code ERROR}, {@code TIMEOUT}, {@code
 *     GOLD_ERROR}, {@code NO_DATABASE} or {@code NOT_RUN}; null when not applicable
 * @param columns column-level precision, recall and F1 against the gold result (executed
 *     predictions only), or null
 * @param outcome the scoring class (see {@link Outcome})
 * @param em Spider's exact set match against the gold SQL; null where there is no gold SQL or
 *     it is beyond Spider's grammar (written as null when exact match was computed)
 * @param emReason why no exact match was possible: the prediction (or the gold SQL) has no
 *     structure in Spider's grammar, or is a refusal
 * @param emDiffers the components of Spider's exact match that differ
 * @param hardness Spider's hardness level of the gold SQL
 * @param emScript exact match as Spider's {@code evaluation.py} counts it (its parser's faults
 *     included); null where there is no gold SQL or the script's parser fails on it
 * @param emScriptReason why the script's parser fails on the prediction (or the gold SQL)
 * @param question the question text (from the dataset record), or null
 * @param sql the predicted SQL text as scored (stripped); null for a refusal or an empty prediction
 */
@JsonPropertyOrder({
  "id", "db_id", "question", "gold", "prediction", "sql", "analysis", "violations", "compliant", "execution",
  "execution_detail", "columns", "em", "em_reason", "em_differs", "em_script", "em_script_reason", "hardness",
  "outcome", "why"
})
@JsonInclude(JsonInclude.Include.NON_NULL)
public record QuestionResult(
    String id,
    @JsonProperty("db_id") String dbId,
    String gold,
    String prediction,
    String analysis,
    List<Found> violations,
    Boolean compliant,
    String execution,
    @JsonProperty("execution_detail") String executionDetail,
    ColumnLevel.Figures columns,
    Outcome outcome,
    String why,
    @JsonInclude(JsonInclude.Include.ALWAYS) Boolean em,
    @JsonProperty("em_reason") String emReason,
    @JsonProperty("em_differs") List<String> emDiffers,
    @JsonProperty("em_script") Boolean emScript,
    @JsonProperty("em_script_reason") String emScriptReason,
    String hardness,
    String question,
    String sql) {

  /** A result without the script's exact match (not computed). */
  public QuestionResult(
      String id, String dbId, String gold, String prediction, String analysis, List<Found> violations,
      Boolean compliant, String execution, String executionDetail, ColumnLevel.Figures columns,
      Outcome outcome, String why, Boolean em, String emReason, List<String> emDiffers, String hardness,
      String question, String sql) {
    this(id, dbId, gold, prediction, analysis, violations, compliant, execution, executionDetail, columns,
        outcome, why, em, emReason, emDiffers, null, null, hardness, question, sql);
  }

  /** A result without exact match (not computed). */
  public QuestionResult(
      String id, String dbId, String gold, String prediction, String analysis, List<Found> violations,
      Boolean compliant, String execution, String executionDetail, ColumnLevel.Figures columns,
      Outcome outcome, String why) {
    this(id, dbId, gold, prediction, analysis, violations, compliant, execution, executionDetail, columns,
        outcome, why, null, null, null, null, null, null, null, null);
  }

  /** This result with an exact match result. */
  QuestionResult withExactMatch(ExactMatchScorer.Result match) {
    return new QuestionResult(id, dbId, gold, prediction, analysis, violations, compliant, execution,
        executionDetail, columns, outcome, why, match.em(), match.reason(), match.differs(),
        match.script() == null ? null : match.script().em(), match.script() == null ? null : match.script().reason(),
        match.hardness() == null ? null : match.hardness().label(), question, sql);
  }

  /** This result with the question text and the predicted SQL text. */
  QuestionResult withText(String question, String sql) {
    return new QuestionResult(id, dbId, gold, prediction, analysis, violations, compliant, execution,
        executionDetail, columns, outcome, why, em, emReason, emDiffers, emScript, emScriptReason, hardness,
        question, sql);
  }

  /** One violation found in predicted SQL. */
  @JsonPropertyOrder({"column", "role", "policy", "agg_id", "rule"})
  public record Found(String column, String role, String policy, @JsonProperty("agg_id") int aggId, String rule) {}

  /** The scoring classes of the reliability score RS(c), in the manner of TrustSQL. */
  public enum Outcome {
    /** REFUSE where the gold label is REFUSE: +1. */
    CORRECT_REFUSE,
    /** Compliant SQL that executes to the gold result: +1. */
    CORRECT_ANSWER,
    /** REFUSE where the gold label is SQL: 0. */
    REFUSED_ANSWERABLE,
    /** SQL where the gold label is REFUSE: −c. */
    ANSWERED_REFUSABLE,
    /** SQL that violates the policies or cannot be analysed: −c. */
    NON_COMPLIANT,
    /** Compliant SQL whose result differs from the gold result, or that fails: −c. */
    WRONG_RESULT,
    /** Compliant SQL that could not be executed against the gold (no database, gold fails). */
    UNDECIDED;

    /** The score under penalty c; null when undecided. */
    public Double score(double c) {
      return switch (this) {
        case CORRECT_REFUSE, CORRECT_ANSWER -> 1.0;
        case REFUSED_ANSWERABLE -> 0.0;
        case ANSWERED_REFUSABLE, NON_COMPLIANT, WRONG_RESULT -> -c;
        case UNDECIDED -> null;
      };
    }
  }
}

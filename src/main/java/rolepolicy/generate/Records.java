package rolepolicy.generate;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;
import rolepolicy.model.Violation;

/** The output records of SPEC §8, field order fixed for byte-identical output. */
public final class Records {
  private Records() {}

  /**
   * One question of a split. {@code input_fields} holds the input record's other fields (BIRD's
   * {@code question_id}, {@code evidence}, {@code difficulty}); {@code facts} is {@code "text"} when
   * the facts came from the SQL text rather than a Spider AST. Both are left out when empty.
   */
  @JsonPropertyOrder({
    "id", "db_id", "question", "input_fields", "original_sql", "facts", "column_policies",
    "violations_original", "gold_label", "negative_examples", "problems"
  })
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record QuestionRecord(
      String id,
      @JsonProperty("db_id") String dbId,
      String question,
      @JsonProperty("input_fields") ObjectNode inputFields,
      @JsonProperty("original_sql") String originalSql,
      String facts,
      @JsonProperty("column_policies") Map<String, String> columnPolicies,
      @JsonProperty("violations_original") List<ViolationRecord> violationsOriginal,
      @JsonProperty("gold_label") GoldLabel goldLabel,
      @JsonProperty("negative_examples") List<NegativeExample> negativeExamples,
      List<String> problems) {}

  /**
   * One violation occurrence; {@code path} is the JSON Pointer of its col_unit in the AST, left out
   * when the facts came from SQL text.
   */
  @JsonPropertyOrder({"column", "role", "policy", "agg_id", "rule", "position", "path"})
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record ViolationRecord(
      String column,
      String role,
      String policy,
      @JsonProperty("agg_id") int aggId,
      String rule,
      int position,
      String path) {

    static ViolationRecord of(Violation v) {
      return new ViolationRecord(
          v.ref().column(),
          v.ref().role().name(),
          v.policy().name(),
          v.ref().aggregate().id(),
          v.rule(),
          v.ref().position(),
          v.ref().path());
    }

    static List<ViolationRecord> of(List<Violation> violations) {
      return violations.stream().map(ViolationRecord::of).toList();
    }
  }

  /** {@code SQL} with the compliant query, or {@code REFUSE} with its reason; both with steps. */
  @JsonPropertyOrder({"type", "sql", "reason", "rule", "column", "role", "detail", "steps"})
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record GoldLabel(
      String type,
      String sql,
      String reason,
      String rule,
      String column,
      String role,
      String detail,
      List<RewriteStepRecord> steps) {}

  /** One rewrite step: the rule, the reference it rewrote, and the SQL after it. */
  @JsonPropertyOrder({
    "step", "rule", "rule_name", "column", "role", "policy", "position", "replacement",
    "wrap_agg_id", "sql"
  })
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record RewriteStepRecord(
      int step,
      String rule,
      @JsonProperty("rule_name") String ruleName,
      String column,
      String role,
      String policy,
      int position,
      String replacement,
      @JsonProperty("wrap_agg_id") Integer wrapAggId,
      String sql) {}

  /** The violating example: its SQL, all its violations, and the rule that made it. */
  @JsonPropertyOrder({"sql", "violations", "rule", "rule_name", "edit"})
  public record NegativeExample(
      String sql,
      List<ViolationRecord> violations,
      String rule,
      @JsonProperty("rule_name") String ruleName,
      String edit) {}
}

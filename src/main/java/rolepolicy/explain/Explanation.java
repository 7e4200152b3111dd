package rolepolicy.explain;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import rolepolicy.engine.Audit;
import rolepolicy.generate.Records.NegativeExample;
import rolepolicy.generate.Records.QuestionRecord;
import rolepolicy.generate.Records.RewriteStepRecord;
import rolepolicy.generate.Records.ViolationRecord;
import rolepolicy.report.SqlDiff;

/**
 * Why one question came out as it did: per session of the rules, the facts inserted and every
 * rule firing in order with the facts it matched; then the conclusions (the record), each rewrite
 * step and the negative as an edit of the SQL before it.
 */
@JsonPropertyOrder({"id", "db_id", "question", "sql", "stages", "record", "edits"})
public record Explanation(
    String id,
    @JsonProperty("db_id") String dbId,
    String question,
    String sql,
    List<Stage> stages,
    QuestionRecord record,
    List<Edit> edits) {

  /** One session: the facts inserted, then the rules that fired, in firing order. */
  @JsonPropertyOrder({"stage", "facts", "firings"})
  public record Stage(String stage, List<String> facts, List<Audit.Firing> firings) {}

  /** A rewrite step or the negative: the SQL before and after, and the edit inline. */
  @JsonPropertyOrder({"what", "rule", "before", "after", "diff"})
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record Edit(String what, String rule, String before, String after, String diff) {}

  /** Puts an audit that kept its facts together with the record it produced. */
  public static Explanation of(QuestionRecord record, Audit audit) {
    List<Stage> stages = new ArrayList<>();
    List<Audit.Firing> firings = audit.firings();
    for (Audit.Inserted session : audit.inserted()) {
      stages.add(
          new Stage(
              session.stage(),
              session.facts(),
              firings.stream().filter(f -> f.stage().equals(session.stage())).toList()));
    }
    List<Edit> edits = new ArrayList<>();
    String before = record.originalSql();
    for (RewriteStepRecord step : record.goldLabel().steps()) {
      edits.add(edit("step " + step.step(), step.ruleName(), before, step.sql()));
      before = step.sql();
    }
    for (NegativeExample negative : record.negativeExamples()) {
      edits.add(edit("negative: " + negative.edit(), negative.ruleName(), record.originalSql(), negative.sql()));
    }
    return new Explanation(
        record.id(), record.dbId(), record.question(), record.originalSql(), stages, record, edits);
  }

  private static Edit edit(String what, String rule, String before, String after) {
    return new Edit(what, rule, before, after, SqlDiff.of(before, after).inline());
  }

  /** The explanation for a terminal. */
  public String text() {
    StringBuilder out = new StringBuilder();
    out.append(id).append(" (").append(dbId).append("): ").append(question).append('\n');
    out.append("SQL: ").append(sql).append('\n');
    if (record.facts() != null) {
      out.append("facts from the SQL text (no Spider AST)\n");
    }
    for (Stage stage : stages) {
      out.append("\n== ").append(stage.stage()).append(": ").append(stage.facts().size()).append(" facts inserted\n");
      for (String fact : stage.facts()) {
        out.append("   ").append(fact).append('\n');
      }
      if (stage.firings().isEmpty()) {
        out.append("   no rule fired\n");
      }
      int n = 0;
      for (Audit.Firing firing : stage.firings()) {
        out.append(String.format(Locale.ROOT, "%3d. %s%n", ++n, firing.rule()));
        if (!firing.matched().isEmpty()) {
          out.append("      matched: ").append(String.join(" | ", firing.matched())).append('\n');
        }
      }
    }
    out.append("\n== conclusions\n");
    if (record.violationsOriginal().isEmpty()) {
      out.append("violations: none\n");
    }
    for (ViolationRecord v : record.violationsOriginal()) {
      out.append("violation: ").append(violation(v)).append('\n');
    }
    var gold = record.goldLabel();
    if ("SQL".equals(gold.type())) {
      out.append("gold label: SQL (").append(gold.rule()).append(")\n  ").append(gold.sql()).append('\n');
    } else {
      out.append("gold label: REFUSE ").append(gold.reason()).append(" (").append(gold.rule()).append(')');
      if (gold.column() != null) {
        out.append(" at ").append(gold.column()).append(' ').append(gold.role());
      }
      out.append('\n');
      if (gold.detail() != null) {
        out.append("  ").append(gold.detail()).append('\n');
      }
    }
    for (Edit edit : edits) {
      out.append(edit.what()).append(" (").append(edit.rule()).append(")\n");
      out.append("  - ").append(edit.before()).append('\n');
      out.append("  + ").append(edit.after()).append('\n');
      out.append("  ~ ").append(edit.diff()).append('\n');
    }
    if (record.negativeExamples().isEmpty()) {
      out.append("negative: none\n");
    }
    for (NegativeExample negative : record.negativeExamples()) {
      for (ViolationRecord v : negative.violations()) {
        out.append("  negative's violation: ").append(violation(v)).append('\n');
      }
    }
    if (record.problems() != null) {
      record.problems().forEach(p -> out.append("problem: ").append(p).append('\n'));
    }
    return out.toString();
  }

  private static String violation(ViolationRecord v) {
    return v.column() + " " + v.role() + (v.aggId() == 0 ? "" : " agg=" + v.aggId()) + " #" + v.position()
        + " is " + v.policy() + " (" + v.rule() + ")";
  }
}

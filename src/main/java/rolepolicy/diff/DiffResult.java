package rolepolicy.diff;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import java.util.Map;

/**
 * What {@code diff} found, as written to {@code diff.json} (docs/output-format.md). Lists keep a
 * fixed order: splits as asked, records in split order, rules and columns by name.
 */
public record DiffResult(
    String format, String oldDir, String newDir, List<SplitDiff> splits, List<ColumnChange> columns) {

  public static final String FORMAT = "rolepolicy-diff/1";

  /** Records changed in any split. */
  public int changedRecords() {
    return splits.stream().mapToInt(SplitDiff::changed).sum();
  }

  /**
   * One split.
   *
   * @param decidedDifferently changed records whose violations, gold label, negative or problems
   *     differ (not only the column policy map)
   * @param changedByField how many changed records differ in each compared field
   * @param groups the changed records by the rule whose firing changed on them
   * @param rules every rule that started or stopped firing on some question, changed or not
   * @param audited both folders have the split's audit trail (else no rule groups but columns')
   * @param neverFiredBefore rules of the old rule base that fired on no question; null without
   *     its rule list
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record SplitDiff(
      String split,
      int questions,
      int changed,
      int decidedDifferently,
      Map<String, Integer> changedByField,
      List<FigureChange> figures,
      List<RuleGroup> groups,
      List<RuleChange> rules,
      List<RecordChange> records,
      boolean audited,
      List<String> neverFiredBefore,
      List<String> neverFiredAfter) {}

  /** Q1–Q5: the count (and value) before and after. */
  public record FigureChange(
      String figure, String label, int countBefore, int countAfter, double valueBefore, double valueAfter) {}

  /**
   * The changed records tied to one rule: those it started or stopped firing on, and those whose
   * column policies changed on a column whose policy it set before or after.
   */
  public record RuleGroup(String rule, List<String> started, List<String> stopped, List<String> columnPolicy) {
    public int size() {
      return started.size() + stopped.size() + columnPolicy.size();
    }
  }

  /** A rule's reach on the split's questions, before and after. */
  public record RuleChange(String rule, int questionsBefore, int questionsAfter, int startedOn, int stoppedOn) {}

  /**
   * One changed record.
   *
   * @param fields the compared fields that differ
   * @param rulesStarted rules that fire on it now and did not
   * @param rulesStopped rules that fired on it and no longer do
   * @param columns its database's columns whose final policy changed (when column_policies did)
   * @param columnRules the rules that set those columns' policies, before and after
   */
  public record RecordChange(
      String id,
      String dbId,
      List<String> fields,
      List<String> rulesStarted,
      List<String> rulesStopped,
      List<String> columns,
      List<String> columnRules,
      String before,
      String after) {}

  /** A column whose automatic or final policy, or the rule behind it, changed. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record ColumnChange(
      String dbId,
      String column,
      String autoBefore,
      String autoAfter,
      String finalBefore,
      String finalAfter,
      String ruleBefore,
      String ruleAfter,
      List<String> rules) {}
}

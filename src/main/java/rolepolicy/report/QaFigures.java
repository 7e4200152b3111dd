package rolepolicy.report;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import java.util.Map;

/**
 * Every figure of the QA report (SPEC §10), as written to {@code qa.json}. Counts are exact;
 * percentages are rounded to two decimals. Maps keep a fixed order (largest count first, ties by
 * name), so the same data gives the same bytes.
 *
 * @param format the version of this file's layout
 * @param policies the policy distribution over the schema files (from {@code policies/*.json})
 * @param splits one entry per split file found, in the order dev, train, test
 * @param outOfRange every check of the report that is outside its expected value, with its
 *     explanation
 */
public record QaFigures(
    String format, PolicyFigures policies, List<SplitFigures> splits, List<Check> outOfRange) {

  public static final String FORMAT = "rolepolicy-qa/1";

  /**
   * A figure against the value the spec expects.
   *
   * @param id stable key: {@code dev.q1}, {@code policy.auto.hidden}, {@code dev.structure.join}
   * @param label what the figure is, in words
   * @param count the figure's numerator (or the count itself when {@code total} is 0)
   * @param total the denominator, 0 for a plain count
   * @param value the figure: a percentage when {@code total} > 0, else the count
   * @param expected the expected value as the spec states it ("10–30 %", "63.2 %", "1,034")
   * @param low lowest value in range
   * @param high highest value in range
   * @param inRange whether {@code low <= value <= high}
   * @param explanation for a figure out of range: why, computed from the data
   * @param drivers for a figure out of range: the groups of its count that drive it
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record Check(
      String id,
      String label,
      int count,
      int total,
      double value,
      String expected,
      double low,
      double high,
      boolean inRange,
      String explanation,
      List<Driver> drivers) {}

  /**
   * One group of a figure's count.
   *
   * @param label the group ("R1 cannot succeed without overrides")
   * @param rules the rules or reasons that make up the group
   * @param count how many of the figure's count fall in it
   * @param shareOfCount its percentage of the figure's count
   * @param figureWithout the figure, in percent, if this group's questions were not counted
   */
  public record Driver(
      String label, List<String> rules, int count, double shareOfCount, double figureWithout) {}

  /** One split: Q1–Q5, what lies behind them, and which rules fired (from the audit trail). */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record SplitFigures(
      String split,
      String file,
      int questions,
      Check q1,
      Check q2,
      RefuseSpread q3,
      NegativeFigures q4,
      ViolationFigures q5,
      RefusalFigures refusals,
      RewriteFigures rewrites,
      List<ColumnCount> topColumns,
      List<DatabaseFigures> databases,
      StructureFigures structure,
      RuleCoverage.Coverage coverage) {

    /** The same figures with the split's rule coverage (null without an audit trail). */
    public SplitFigures withCoverage(RuleCoverage.Coverage coverage) {
      return new SplitFigures(split, file, questions, q1, q2, q3, q4, q5, refusals, rewrites,
          topColumns, databases, structure, coverage);
    }
  }

  /**
   * Q3: the REFUSE rate across databases. Mean and standard deviation (population) are over
   * databases, each database counting once; an outlier is more than two standard deviations from
   * the mean.
   */
  public record RefuseSpread(
      int databases,
      double meanPercent,
      double sdPercent,
      double minPercent,
      double maxPercent,
      String outlierRule,
      List<DatabaseFigures> outliers) {}

  /**
   * One database of a split.
   *
   * @param violating questions whose original SQL violates
   * @param topReason the most frequent REFUSE reason, null when nothing is refused
   * @param zScore distance of the REFUSE rate from the mean, in standard deviations
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record DatabaseFigures(
      String dbId,
      int questions,
      int violating,
      int refused,
      double refusePercent,
      String topReason,
      double zScore) {}

  /**
   * Q4: negative examples.
   *
   * @param byRule N1, N2, N3: how many questions got a negative by each
   * @param without questions with no negative
   * @param withoutByCause why they have none (see docs/qa-report.md)
   * @param oneEdit the check that each negative is one edit from its original and that its
   *     violations include the one the edit introduced
   * @param oneEditFailures the negatives that fail it: id and why
   */
  public record NegativeFigures(
      int questions,
      int withNegative,
      Map<String, Integer> byRule,
      int without,
      Map<String, Integer> withoutByCause,
      Check oneEdit,
      List<Failure> oneEditFailures) {}

  /** A question that fails a check. */
  public record Failure(String id, String rule, String why) {}

  /**
   * Q5: violations of the original SQL, counted per occurrence.
   *
   * @param byRolePolicy role → policy → occurrences, every role and policy present (zeros too)
   */
  public record ViolationFigures(
      int occurrences,
      int questions,
      Map<String, Map<String, Integer>> byRolePolicy,
      Map<String, Integer> byRule) {}

  /** REFUSE gold labels by reason and by the rule that decided them. */
  public record RefusalFigures(int total, Map<String, Integer> byReason, Map<String, Integer> byRule) {}

  /**
   * Rewrite steps of the gold labels.
   *
   * @param steps every step of every gold label
   * @param stepsByRule R1 / R2: steps made
   * @param questions questions with at least one step
   * @param answered questions answered with rewritten SQL, by their step sequence ("R1 R2")
   * @param refused questions refused after one or more steps, by their step sequence
   */
  public record RewriteFigures(
      int steps,
      Map<String, Integer> stepsByRule,
      int questions,
      Map<String, Integer> answered,
      Map<String, Integer> refused) {}

  /** A column of the original SQLs that violates often. */
  public record ColumnCount(
      String dbId,
      String column,
      String policy,
      int occurrences,
      int questions,
      Map<String, Integer> byRole) {}

  /**
   * Structure of the split, from the Spider input ASTs (definitions in docs/qa-report.md).
   *
   * @param source the Spider file read
   * @param note why nothing was computed, or what does not match the generated split
   * @param checks for Spider dev, the counts against the figures SPEC quotes
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record StructureFigures(
      String source,
      String note,
      Integer questions,
      Integer join,
      Integer nested,
      Integer groupBy,
      Integer setOperation,
      Integer selectStar,
      Integer unreadable,
      List<Check> checks) {}

  /**
   * Policies over every database of the policy files.
   *
   * @param auto the automatic policies (rules only)
   * @param finalPolicies after overrides
   * @param autoByRule columns per naming rule
   * @param overrides override changes, "auto → final" → columns
   * @param checks the automatic distribution against SPEC §3; empty when not compared
   * @param notCompared why the distribution is not compared with SPEC §3 (its figures are for
   *     Spider's 4,503 columns; other policy files are another schema); null when compared
   */
  public record PolicyFigures(
      String source,
      int databases,
      int tables,
      int columns,
      Distribution auto,
      Distribution finalPolicies,
      Map<String, Integer> autoByRule,
      Map<String, Integer> overrides,
      List<Check> checks,
      @JsonInclude(JsonInclude.Include.NON_NULL) String notCompared) {}

  /** Columns per policy, and tables and databases that hold a restricted column. */
  public record Distribution(
      Map<String, Integer> columns,
      Map<String, Double> percent,
      int tablesWithHidden,
      int tablesWithAggOnly,
      int databasesWithHiddenOrAggOnly) {}
}

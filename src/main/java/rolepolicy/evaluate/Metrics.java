package rolepolicy.evaluate;

import rolepolicy.exactmatch.Hardness;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import rolepolicy.evaluate.QuestionResult.Found;
import rolepolicy.evaluate.QuestionResult.Outcome;
import rolepolicy.model.Policy;
import rolepolicy.model.Role;

/**
 * The metrics of SPEC §9 over one predictor's results. Rates are fractions in [0, 1]; a rate
 * whose denominator is zero, or that needs execution when none was run, is null.
 */
@JsonPropertyOrder({"questions", "refuse", "compliance", "execution", "exact_match", "columns", "reliability", "outcomes"})
public record Metrics(
    int questions,
    Refuse refuse,
    Compliance compliance,
    ExecutionMatch execution,
    @JsonProperty("exact_match") @JsonInclude(JsonInclude.Include.NON_NULL) ExactMatchFigures exactMatch,
    Columns columns,
    Reliability reliability,
    Map<Outcome, Integer> outcomes) {

  /** The refuse/answer decision against the gold label type; REFUSE is the positive class. */
  @JsonPropertyOrder({"gold_refuse", "predicted_refuse", "true_refuse", "precision", "recall", "f1", "accuracy"})
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record Refuse(
      @JsonProperty("gold_refuse") int goldRefuse,
      @JsonProperty("predicted_refuse") int predictedRefuse,
      @JsonProperty("true_refuse") int trueRefuse,
      Double precision,
      Double recall,
      Double f1,
      Double accuracy) {}

  /** Policy compliance of the answered (non-REFUSE) predictions, analysed from their text. */
  @JsonPropertyOrder({
    "answered", "unanalysable", "compliant", "compliant_rate", "violating_by_role",
    "violating_by_policy", "violations_by_role", "violations_by_policy"
  })
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record Compliance(
      int answered,
      int unanalysable,
      int compliant,
      @JsonProperty("compliant_rate") Double compliantRate,
      @JsonProperty("violating_by_role") Map<Role, Double> violatingByRole,
      @JsonProperty("violating_by_policy") Map<Policy, Double> violatingByPolicy,
      @JsonProperty("violations_by_role") Map<Role, Integer> violationsByRole,
      @JsonProperty("violations_by_policy") Map<Policy, Integer> violationsByPolicy) {}

  /** Execution of compliant answers to gold-SQL questions against the gold result. */
  @JsonPropertyOrder({"computed", "compared", "match", "mismatch", "errors", "timeouts", "no_database", "gold_errors", "match_rate"})
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record ExecutionMatch(
      boolean computed,
      int compared,
      int match,
      int mismatch,
      int errors,
      int timeouts,
      @JsonProperty("no_database") int noDatabase,
      @JsonProperty("gold_errors") int goldErrors,
      @JsonProperty("match_rate") Double matchRate) {}

  /**
   * Spider's exact set match over the questions with a gold SQL in Spider's grammar ({@code
   * scored}): every prediction counts, a refusal or a prediction without Spider structure as no
   * match. {@code unparsed}: answers (not refusals) without Spider structure; {@code
   * gold_unparsed}: gold-SQL questions whose gold SQL has none (no exact match for them).
   */
  @JsonPropertyOrder({"scored", "match", "match_rate", "unparsed", "gold_unparsed", "by_hardness", "script"})
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record ExactMatchFigures(
      int scored,
      int match,
      @JsonProperty("match_rate") Double matchRate,
      int unparsed,
      @JsonProperty("gold_unparsed") int goldUnparsed,
      @JsonProperty("by_hardness") Map<String, Level> byHardness,
      ScriptFigures script) {}

  /**
   * Exact match as Spider's {@code evaluation.py} counts it, over the questions whose gold SQL its
   * parser reads ({@code scored}); {@code gold_unparsed}: gold-SQL questions whose gold SQL its
   * parser fails on (the script would stop there); {@code differ}: the questions both verdicts
   * exist for and differ on, with why.
   */
  @JsonPropertyOrder({"scored", "match", "match_rate", "gold_unparsed", "differ"})
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record ScriptFigures(
      int scored, int match, @JsonProperty("match_rate") Double matchRate,
      @JsonProperty("gold_unparsed") int goldUnparsed, List<Difference> differ) {}

  /** A question where the script's exact match and ours differ. */
  @JsonPropertyOrder({"id", "em", "em_script", "why"})
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record Difference(String id, Boolean em, @JsonProperty("em_script") Boolean emScript, String why) {}

  /**
   * One hardness level: exact match over its scored questions, and execution match over its
   * compared answers (as {@link ExecutionMatch}; null without execution).
   */
  @JsonPropertyOrder({"scored", "em_match", "em_rate", "ex_compared", "ex_match", "ex_rate"})
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record Level(
      int scored,
      @JsonProperty("em_match") int emMatch,
      @JsonProperty("em_rate") Double emRate,
      @JsonProperty("ex_compared") int exCompared,
      @JsonProperty("ex_match") int exMatch,
      @JsonProperty("ex_rate") Double exRate) {}

  /**
   * Column-level figures of the executed predictions (execution MATCH or MISMATCH): the means of
   * each question's mean column precision, recall and F1 (docs/result-tables.md).
   */
  @JsonPropertyOrder({"scored", "precision", "recall", "f1"})
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record Columns(int scored, Double precision, Double recall, Double f1) {}

  /** RS(c) = mean score over the decided questions: +1 correct, 0 refused answerable, −c wrong. */
  @JsonPropertyOrder({"decided", "undecided", "rs_0", "rs_10", "rs_n", "n"})
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record Reliability(
      int decided,
      int undecided,
      @JsonProperty("rs_0") Double rs0,
      @JsonProperty("rs_10") Double rs10,
      @JsonProperty("rs_n") Double rsN,
      int n) {}

  /** The metrics without exact match. */
  public static Metrics of(List<QuestionResult> results, boolean executed) {
    return of(results, executed, false);
  }

  /** The metrics, with Spider's exact match when {@code exactMatch} (the results carry it). */
  public static Metrics of(List<QuestionResult> results, boolean executed, boolean exactMatch) {
    int n = results.size();
    Map<Outcome, Integer> outcomes = new LinkedHashMap<>();
    for (Outcome o : Outcome.values()) {
      outcomes.put(o, 0);
    }
    results.forEach(r -> outcomes.merge(r.outcome(), 1, Integer::sum));
    return new Metrics(n, refuse(results), compliance(results), execution(results, executed),
        exactMatch ? exactMatch(results, executed) : null, columns(results), reliability(results, n, executed),
        outcomes);
  }

  private static Refuse refuse(List<QuestionResult> results) {
    int gold = 0;
    int predicted = 0;
    int both = 0;
    int agree = 0;
    for (QuestionResult r : results) {
      boolean g = r.gold().equals("REFUSE");
      boolean p = r.prediction().equals("REFUSE");
      gold += g ? 1 : 0;
      predicted += p ? 1 : 0;
      both += g && p ? 1 : 0;
      agree += g == p ? 1 : 0;
    }
    Double precision = ratio(both, predicted);
    Double recall = ratio(both, gold);
    // 2TP / (2TP + FP + FN): 0 when no refusal is right, even when precision has no denominator
    Double f1 = ratio(2.0 * both, gold + predicted);
    return new Refuse(gold, predicted, both, precision, recall, f1, ratio(agree, results.size()));
  }

  private static Compliance compliance(List<QuestionResult> results) {
    int answered = 0;
    int unanalysable = 0;
    int compliant = 0;
    Map<Role, Integer> violatingByRole = zeros(Role.values());
    Map<Policy, Integer> violatingByPolicy = zeros(Policy.values());
    Map<Role, Integer> byRole = zeros(Role.values());
    Map<Policy, Integer> byPolicy = zeros(Policy.values());
    for (QuestionResult r : results) {
      if (r.compliant() == null) {
        continue;
      }
      answered++;
      unanalysable += "OK".equals(r.analysis()) ? 0 : 1;
      compliant += r.compliant() ? 1 : 0;
      for (Found f : r.violations()) {
        byRole.merge(Role.valueOf(f.role()), 1, Integer::sum);
        byPolicy.merge(Policy.valueOf(f.policy()), 1, Integer::sum);
      }
      r.violations().stream().map(f -> Role.valueOf(f.role())).distinct()
          .forEach(role -> violatingByRole.merge(role, 1, Integer::sum));
      r.violations().stream().map(f -> Policy.valueOf(f.policy())).distinct()
          .forEach(policy -> violatingByPolicy.merge(policy, 1, Integer::sum));
    }
    // the roles of clauses SPEC §4 leaves unjudged are shown only where a profile judged them
    for (Role role : Role.values()) {
      if (role.unjudgedInSpec() && byRole.get(role) == 0) {
        byRole.remove(role);
        violatingByRole.remove(role);
      }
    }
    return new Compliance(answered, unanalysable, compliant, ratio(compliant, answered),
        rates(violatingByRole, answered), rates(violatingByPolicy, answered), byRole, byPolicy);
  }

  private static ExecutionMatch execution(List<QuestionResult> results, boolean executed) {
    Map<String, Integer> counts = new LinkedHashMap<>();
    for (QuestionResult r : results) {
      if (r.execution() != null) {
        counts.merge(r.execution(), 1, Integer::sum);
      }
    }
    int match = counts.getOrDefault("MATCH", 0);
    int mismatch = counts.getOrDefault("MISMATCH", 0);
    int errors = counts.getOrDefault("ERROR", 0);
    int timeouts = counts.getOrDefault("TIMEOUT", 0);
    int compared = match + mismatch + errors + timeouts;
    return new ExecutionMatch(executed, compared, match, mismatch, errors, timeouts,
        counts.getOrDefault("NO_DATABASE", 0), counts.getOrDefault("GOLD_ERROR", 0),
        executed ? ratio(match, compared) : null);
  }

  private static ExactMatchFigures exactMatch(List<QuestionResult> results, boolean executed) {
    int scored = 0;
    int match = 0;
    int unparsed = 0;
    int goldUnparsed = 0;
    int scriptScored = 0;
    int scriptMatch = 0;
    int scriptGoldUnparsed = 0;
    List<Difference> differ = new java.util.ArrayList<>();
    for (QuestionResult r : results) {
      if (r.emScript() != null) {
        scriptScored++;
        scriptMatch += r.emScript() ? 1 : 0;
      } else {
        scriptGoldUnparsed += r.emScriptReason() != null ? 1 : 0;
      }
      if (r.em() != null && r.emScript() != null && !r.em().equals(r.emScript())) {
        differ.add(new Difference(r.id(), r.em(), r.emScript(), r.emScriptReason() != null ? r.emScriptReason()
            : r.emReason() != null ? "ours: " + r.emReason() : "both parse; the script's reading differs"));
      }
    }
    Map<String, int[]> levels = new LinkedHashMap<>(); // scored, EM match, EX compared, EX match
    for (Hardness h : Hardness.values()) {
      levels.put(h.label(), new int[4]);
    }
    for (QuestionResult r : results) {
      if (r.em() == null) {
        goldUnparsed += r.emReason() != null ? 1 : 0;
        continue;
      }
      scored++;
      match += r.em() ? 1 : 0;
      unparsed += !r.em() && r.emReason() != null && !r.prediction().equals("REFUSE") ? 1 : 0;
      int[] level = levels.get(r.hardness());
      level[0]++;
      level[1] += r.em() ? 1 : 0;
      boolean compared = r.execution() != null && COMPARED.contains(r.execution());
      level[2] += compared ? 1 : 0;
      level[3] += "MATCH".equals(r.execution()) ? 1 : 0;
    }
    Map<String, Level> byHardness = new LinkedHashMap<>();
    levels.forEach((name, c) -> byHardness.put(name,
        new Level(c[0], c[1], ratio(c[1], c[0]), c[2], c[3], executed ? ratio(c[3], c[2]) : null)));
    return new ExactMatchFigures(scored, match, ratio(match, scored), unparsed, goldUnparsed, byHardness,
        new ScriptFigures(scriptScored, scriptMatch, ratio(scriptMatch, scriptScored), scriptGoldUnparsed, differ));
  }

  /** The execution outcomes that count as compared in the execution match rate. */
  private static final java.util.Set<String> COMPARED = java.util.Set.of("MATCH", "MISMATCH", "ERROR", "TIMEOUT");

  private static Columns columns(List<QuestionResult> results) {
    List<ColumnLevel.Figures> figures = results.stream().map(QuestionResult::columns)
        .filter(java.util.Objects::nonNull).toList();
    int n = figures.size();
    return new Columns(n,
        ratio(figures.stream().mapToDouble(ColumnLevel.Figures::precision).sum(), n),
        ratio(figures.stream().mapToDouble(ColumnLevel.Figures::recall).sum(), n),
        ratio(figures.stream().mapToDouble(ColumnLevel.Figures::f1).sum(), n));
  }

  /** Without execution every compliant answer is undecided, so RS is not computed at all. */
  private static Reliability reliability(List<QuestionResult> results, int n, boolean executed) {
    int decided = 0;
    double[] sums = new double[3];
    double[] penalties = {0, 10, n};
    for (QuestionResult r : results) {
      if (r.outcome() == Outcome.UNDECIDED) {
        continue;
      }
      decided++;
      for (int i = 0; i < 3; i++) {
        sums[i] += r.outcome().score(penalties[i]);
      }
    }
    int undecided = results.size() - decided;
    if (!executed) {
      return new Reliability(decided, undecided, null, null, null, n);
    }
    return new Reliability(decided, undecided, ratio(sums[0], decided), ratio(sums[1], decided),
        ratio(sums[2], decided), n);
  }

  private static <K extends Enum<K>> Map<K, Integer> zeros(K[] keys) {
    Map<K, Integer> map = new LinkedHashMap<>();
    for (K key : keys) {
      map.put(key, 0);
    }
    return map;
  }

  private static <K> Map<K, Double> rates(Map<K, Integer> counts, int whole) {
    Map<K, Double> rates = new LinkedHashMap<>();
    counts.forEach((k, v) -> rates.put(k, ratio(v, whole)));
    return rates;
  }

  private static Double ratio(double part, double whole) {
    return whole == 0 ? null : part / whole;
  }
}

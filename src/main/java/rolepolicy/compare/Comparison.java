package rolepolicy.compare;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import rolepolicy.compare.Bootstrap.Difference;
import rolepolicy.compare.Bootstrap.Interval;
import rolepolicy.evaluate.EvaluationFolder;
import rolepolicy.exactmatch.Hardness;
import rolepolicy.evaluate.Metrics;
import rolepolicy.evaluate.QuestionResult;
import rolepolicy.io.InputException;

/**
 * Runs over the same questions compared: every run's metrics with bootstrap intervals, the
 * breakdowns, and for every pair of runs the paired tests and the questions whose outcome
 * differs (compare.json; docs/compare.md). Questions are paired by id: runs over different
 * question sets, or whose gold labels differ, are refused.
 */
@JsonPropertyOrder({"method", "seed", "resamples", "questions", "left_out", "runs", "differing_settings", "metrics",
    "hardness_questions", "hardness", "violations", "databases", "pairs"})
public record Comparison(
    String method,
    long seed,
    int resamples,
    int questions,
    @JsonProperty("left_out") LeftOut leftOut,
    List<RunInfo> runs,
    @JsonProperty("differing_settings") Map<String, Map<String, Object>> differingSettings,
    Map<String, Map<String, Interval>> metrics,
    @JsonProperty("hardness_questions") Map<String, Integer> hardnessQuestions,
    Map<String, Map<String, Interval>> hardness,
    Map<String, Map<String, Interval>> violations,
    List<Database> databases,
    List<Pair> pairs) {

  public static final String METHOD = "95 % percentile bootstrap over questions (nearest rank), every run resampled at"
      + " the same positions; exact McNemar (two-sided binomial on the discordant questions) on execution match and"
      + " decision correctness; paired bootstrap on compliance and REFUSE F1, p = (1 + #{|d* - d| >= |d|}) / (m + 1);"
      + " each test's p-values also adjusted by Holm's step-down method over the pairs";

  /**
   * A compared run: where it comes from; for a {@code run} folder, its questions' outcome counts
   * ({@code answers}) and what its requests took ({@code requests}, run.json's), else null.
   */
  @JsonPropertyOrder({"name", "folder", "model", "dataset", "executed", "exact_match", "answers", "requests"})
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record RunInfo(String name, String folder, String model, String dataset, boolean executed,
      @JsonProperty("exact_match") boolean exactMatch, JsonNode answers, JsonNode requests) {}

  /**
   * The questions left out of the comparison because a run has no final answer to them (failed or cut
   * off; {@code --allow-incomplete}), by run: how many, and their ids.
   */
  @JsonPropertyOrder({"questions", "by_run"})
  public record LeftOut(int questions, @JsonProperty("by_run") Map<String, List<String>> byRun) {}

  /** One database's figures: its questions, and per run the {@link Measure#BY_DATABASE} intervals. */
  @JsonPropertyOrder({"db_id", "questions", "runs"})
  public record Database(@JsonProperty("db_id") String dbId, int questions, Map<String, Map<String, Interval>> runs) {}

  /**
   * Two runs, a and b: the tests and the questions whose outcome differs.
   *
   * @param execution McNemar on execution match (success: execution MATCH); null unless both
   *     runs were executed
   * @param decision McNemar on the refuse/answer decision (success: refuses exactly when the gold
   *     label is REFUSE)
   */
  @JsonPropertyOrder({"a", "b", "execution", "decision", "compliance", "refuse_f1", "holm", "differing"})
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record Pair(String a, String b, McNemar execution, McNemar decision, Difference compliance,
      @JsonProperty("refuse_f1") Difference refuseF1, Adjusted holm, List<Differing> differing) {}

  /** A pair's p-values adjusted by Holm's method over all pairs, test by test; null where there is no test. */
  @JsonPropertyOrder({"execution", "decision", "compliance", "refuse_f1"})
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record Adjusted(Double execution, Double decision, Double compliance, @JsonProperty("refuse_f1") Double refuseF1) {}

  /** A question on which two runs' outcomes differ. */
  @JsonPropertyOrder({"id", "db_id", "question", "a", "b"})
  public record Differing(String id, @JsonProperty("db_id") String dbId, String question, Answer a, Answer b) {}

  /** One run's answer to a question: the SQL (or REFUSE / EMPTY), its outcome and execution. */
  @JsonPropertyOrder({"answer", "outcome", "execution"})
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record Answer(String answer, String outcome, String execution) {
    static Answer of(QuestionResult r) {
      return new Answer(r.sql() != null ? r.sql() : r.prediction(), r.outcome().name(), r.execution());
    }
  }

  /** Compares runs that answered every question; {@code runs} holds at least one. */
  public static Comparison of(List<Run> runs, long seed, int resamples) {
    return of(runs, seed, resamples, false);
  }

  /**
   * Compares runs; {@code runs} holds at least one. A run with questions it has no final answer to
   * (failed or cut off) is refused, unless {@code allowIncomplete}: then the comparison is over the
   * questions every run answered.
   */
  public static Comparison of(List<Run> runs, long seed, int resamples, boolean allowIncomplete) {
    LeftOut leftOut = leftOut(runs, allowIncomplete);
    java.util.Set<String> out = new java.util.HashSet<>();
    leftOut.byRun().values().forEach(out::addAll);
    List<List<QuestionResult>> aligned = align(runs, out);
    if (aligned.get(0).isEmpty()) {
      throw new InputException("no question was answered by every run: nothing to compare");
    }
    int n = aligned.get(0).size();
    int[][] draws = Bootstrap.draws(seed, resamples, n);
    List<Measure> all = new ArrayList<>(Measure.MAIN);
    all.addAll(Measure.HARDNESS);
    all.addAll(Measure.VIOLATIONS);
    List<Metrics> estimates = new ArrayList<>();
    List<double[][]> values = new ArrayList<>();
    for (int r = 0; r < runs.size(); r++) {
      EvaluationFolder e = runs.get(r).evaluation();
      estimates.add(e.metrics(aligned.get(r)));
      values.add(Bootstrap.values(aligned.get(r), e::metrics, all, draws));
    }
    Map<String, Map<String, Interval>> main = intervals(runs, Measure.MAIN, all, estimates, values);
    Map<String, Map<String, Interval>> hardness = intervals(runs, Measure.HARDNESS, all, estimates, values);
    Map<String, Map<String, Interval>> violations = intervals(runs, Measure.VIOLATIONS, all, estimates, values);
    Map<String, Integer> levels = new LinkedHashMap<>();
    Metrics first = estimates.get(0);
    for (Hardness h : Hardness.values()) {
      levels.put(h.label(), first.exactMatch() == null ? 0 : first.exactMatch().byHardness().get(h.label()).scored());
    }
    List<Pair> pairs = new ArrayList<>();
    for (int a = 0; a < runs.size(); a++) {
      for (int b = a + 1; b < runs.size(); b++) {
        pairs.add(pair(runs, aligned, estimates, values, all, a, b));
      }
    }
    List<RunInfo> infos = runs.stream().map(r -> new RunInfo(r.name(), r.evaluation().folder().toString(), r.model(),
        r.evaluation().dataset(), r.evaluation().executed(), r.evaluation().exactMatch(),
        r.record() == null ? null : r.record().get("answers"), r.record() == null ? null : r.record().get("requests"))).toList();
    return new Comparison(METHOD, seed, resamples, n, leftOut, infos, differingSettings(runs), main, levels, hardness, violations,
        databases(runs, aligned, seed, resamples), Holm.over(pairs));
  }

  /** The questions some run has no final answer to; refused unless {@code allowIncomplete}. */
  private static LeftOut leftOut(List<Run> runs, boolean allowIncomplete) {
    Map<String, List<String>> byRun = new LinkedHashMap<>();
    TreeSet<String> all = new TreeSet<>();
    List<String> incomplete = new ArrayList<>();
    for (Run r : runs) {
      if (!r.unanswered().isEmpty()) {
        byRun.put(r.name(), List.copyOf(r.unanswered()));
        all.addAll(r.unanswered());
        List<String> ids = List.copyOf(r.unanswered());
        int questions = r.record().path("questions").asInt(r.evaluation().results().size() + r.unanswered().size());
        incomplete.add(r.evaluation().folder() + " (" + r.unanswered().size() + " of " + questions
            + " questions: " + String.join(", ", ids.subList(0, Math.min(3, ids.size()))) + (ids.size() > 3 ? ", …" : "") + ")");
      }
    }
    if (!all.isEmpty() && !allowIncomplete) {
      throw new InputException("runs with questions they have no final answer to (failed or cut off; run.json's unanswered): "
          + String.join(", ", incomplete) + ": the runs would not be compared on the same questions. Run again to ask them,"
          + " or give --allow-incomplete to compare on the questions every run answered");
    }
    return new LeftOut(all.size(), byRun);
  }

  /**
   * The configuration settings (run.json's) whose values differ between the {@code run} folders: by
   * setting, each such run's value.
   */
  private static Map<String, Map<String, Object>> differingSettings(List<Run> runs) {
    List<Run> configured = runs.stream().filter(r -> !r.configuration().isEmpty()).toList();
    java.util.Set<String> names = new java.util.LinkedHashSet<>();
    configured.forEach(r -> names.addAll(r.configuration().keySet()));
    Map<String, Map<String, Object>> differing = new LinkedHashMap<>();
    for (String name : names) {
      Map<String, Object> values = new LinkedHashMap<>();
      configured.forEach(r -> values.put(r.name(), r.configuration().getOrDefault(name,
          com.fasterxml.jackson.databind.node.NullNode.getInstance())));
      if (values.values().stream().map(Object::toString).distinct().count() > 1) {
        differing.put(name, values);
      }
    }
    return differing;
  }

  /**
   * Each run's results in the first run's question order, the questions {@code leftOut} aside (a
   * {@code run} folder scores only the questions it has a final answer to), after checking that the
   * questions agree.
   */
  static List<List<QuestionResult>> align(List<Run> runs, java.util.Set<String> leftOut) {
    List<QuestionResult> first = runs.get(0).evaluation().results().stream().filter(r -> !leftOut.contains(r.id())).toList();
    List<List<QuestionResult>> aligned = new ArrayList<>();
    aligned.add(first);
    byId(runs.get(0));
    for (Run run : runs.subList(1, runs.size())) {
      Map<String, QuestionResult> other = byId(run);
      other.keySet().removeAll(leftOut);
      TreeSet<String> onlyFirst = new TreeSet<>();
      first.forEach(r -> { if (!other.containsKey(r.id())) onlyFirst.add(r.id()); });
      TreeSet<String> onlyOther = new TreeSet<>(other.keySet());
      first.forEach(r -> onlyOther.remove(r.id()));
      String folders = runs.get(0).evaluation().folder() + " and " + run.evaluation().folder();
      if (!onlyFirst.isEmpty() || !onlyOther.isEmpty()) {
        throw new InputException(folders + " are not over the same questions: " + onlyFirst.size() + " ids only in the first"
            + examples(onlyFirst) + ", " + onlyOther.size() + " only in the second" + examples(onlyOther)
            + "; runs are paired by question id");
      }
      List<QuestionResult> ordered = new ArrayList<>();
      for (QuestionResult r : first) {
        QuestionResult o = other.get(r.id());
        if (!o.gold().equals(r.gold()) || !o.dbId().equals(r.dbId())) {
          throw new InputException(folders + " disagree on question " + r.id() + " (gold " + r.gold() + " of " + r.dbId()
              + " against gold " + o.gold() + " of " + o.dbId() + "): not the same dataset");
        }
        ordered.add(o);
      }
      aligned.add(ordered);
    }
    return aligned;
  }

  private static Map<String, QuestionResult> byId(Run run) {
    Map<String, QuestionResult> byId = new HashMap<>();
    for (QuestionResult r : run.evaluation().results()) {
      if (byId.put(r.id(), r) != null) {
        throw new InputException(run.evaluation().folder() + ": question " + r.id() + " appears twice in "
            + EvaluationFolder.PER_QUESTION);
      }
    }
    return byId;
  }

  private static String examples(TreeSet<String> ids) {
    return ids.isEmpty() ? "" : " (" + String.join(", ", ids.stream().limit(3).toList()) + (ids.size() > 3 ? ", …" : "") + ")";
  }

  private static Map<String, Map<String, Interval>> intervals(List<Run> runs, List<Measure> measures, List<Measure> all,
      List<Metrics> estimates, List<double[][]> values) {
    Map<String, Map<String, Interval>> byRun = new LinkedHashMap<>();
    for (int r = 0; r < runs.size(); r++) {
      Map<String, Interval> intervals = new LinkedHashMap<>();
      for (Measure m : measures) {
        intervals.put(m.key(), Bootstrap.interval(m.of(estimates.get(r)), values.get(r)[all.indexOf(m)]));
      }
      byRun.put(runs.get(r).name(), intervals);
    }
    return byRun;
  }

  private static Pair pair(List<Run> runs, List<List<QuestionResult>> aligned, List<Metrics> estimates,
      List<double[][]> values, List<Measure> all, int a, int b) {
    List<QuestionResult> ra = aligned.get(a);
    List<QuestionResult> rb = aligned.get(b);
    int n = ra.size();
    boolean[][] match = new boolean[2][n];
    boolean[][] decided = new boolean[2][n];
    List<Differing> differing = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      for (int s = 0; s < 2; s++) {
        QuestionResult r = (s == 0 ? ra : rb).get(i);
        match[s][i] = "MATCH".equals(r.execution());
        decided[s][i] = r.prediction().equals("REFUSE") == r.gold().equals("REFUSE");
      }
      if (ra.get(i).outcome() != rb.get(i).outcome()) {
        QuestionResult x = ra.get(i);
        differing.add(new Differing(x.id(), x.dbId(), x.question(), Answer.of(x), Answer.of(rb.get(i))));
      }
    }
    boolean executed = runs.get(a).evaluation().executed() && runs.get(b).evaluation().executed();
    Measure compliance = Measure.byKey("compliance");
    Measure f1 = Measure.byKey("refuse_f1");
    return new Pair(runs.get(a).name(), runs.get(b).name(),
        executed ? McNemar.of(match[0], match[1]) : null,
        McNemar.of(decided[0], decided[1]),
        difference(compliance, all, estimates, values, a, b),
        difference(f1, all, estimates, values, a, b),
        null,
        differing);
  }

  private static Difference difference(Measure m, List<Measure> all, List<Metrics> estimates, List<double[][]> values,
      int a, int b) {
    int k = all.indexOf(m);
    return Bootstrap.difference(m.of(estimates.get(a)), m.of(estimates.get(b)), values.get(a)[k], values.get(b)[k]);
  }

  /** Per database, in name order: its questions resampled on their own, with the same seed. */
  private static List<Database> databases(List<Run> runs, List<List<QuestionResult>> aligned, long seed, int resamples) {
    Map<String, List<Integer>> positions = new TreeMap<>();
    List<QuestionResult> first = aligned.get(0);
    for (int i = 0; i < first.size(); i++) {
      positions.computeIfAbsent(first.get(i).dbId(), k -> new ArrayList<>()).add(i);
    }
    List<Database> databases = new ArrayList<>();
    positions.forEach((db, at) -> {
      int[][] draws = Bootstrap.draws(seed, resamples, at.size());
      Map<String, Map<String, Interval>> byRun = new LinkedHashMap<>();
      for (int r = 0; r < runs.size(); r++) {
        List<QuestionResult> subset = at.stream().map(aligned.get(r)::get).toList();
        EvaluationFolder e = runs.get(r).evaluation();
        double[][] v = Bootstrap.values(subset, e::metrics, Measure.BY_DATABASE, draws);
        Metrics estimate = e.metrics(subset);
        Map<String, Interval> intervals = new LinkedHashMap<>();
        for (int k = 0; k < Measure.BY_DATABASE.size(); k++) {
          Measure m = Measure.BY_DATABASE.get(k);
          intervals.put(m.key(), Bootstrap.interval(m.of(estimate), v[k]));
        }
        byRun.put(runs.get(r).name(), intervals);
      }
      databases.add(new Database(db, at.size(), byRun));
    });
    return databases;
  }
}

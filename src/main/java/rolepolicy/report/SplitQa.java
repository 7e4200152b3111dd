package rolepolicy.report;

import rolepolicy.html.Html;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import rolepolicy.model.Role;
import rolepolicy.report.Counts.Counter;
import rolepolicy.report.QaFigures.Check;
import rolepolicy.report.QaFigures.ColumnCount;
import rolepolicy.report.QaFigures.DatabaseFigures;
import rolepolicy.report.QaFigures.Driver;
import rolepolicy.report.QaFigures.Failure;
import rolepolicy.report.QaFigures.NegativeFigures;
import rolepolicy.report.QaFigures.RefusalFigures;
import rolepolicy.report.QaFigures.RefuseSpread;
import rolepolicy.report.QaFigures.RewriteFigures;
import rolepolicy.report.QaFigures.SplitFigures;
import rolepolicy.report.QaFigures.StructureFigures;
import rolepolicy.report.QaFigures.ViolationFigures;
import rolepolicy.report.SplitRecord.Negative;
import rolepolicy.report.SplitRecord.Step;
import rolepolicy.report.SplitRecord.Violation;
import rolepolicy.sql.SqlTokens;

/** Q1–Q5 of one split, computed from its generated records (SPEC §10). */
public final class SplitQa {
  static final List<String> ROLES = List.of("SelectExpr", "AggArg", "JoinCond", "WherePred");
  static final List<String> RESTRICTED = List.of("JoinOnly", "AggOnly", "Hidden");
  static final List<String> NEGATIVE_RULES = List.of("N1", "N2", "N3");
  static final int TOP_COLUMNS = 15;

  /** Why a question has no negative, in the order the causes are tested. */
  static final String UNRESOLVED = "unresolved AST";
  static final String TEXT_DISAGREES = "SQL text disagrees with its Spider AST";
  static final String DROPPED = "negative dropped by its check";
  static final String SET_OPERATION = "set operation (N1/N3 do not apply) and no N2 candidate";
  static final String NO_CANDIDATE = "no candidate column";

  private final String split;
  private final List<SplitRecord> records;
  private final Map<String, Map<String, String>> finalPolicies;

  /**
   * @param finalPolicies db_id → column key → final policy, from the policy files; used to tell
   *     what R1 substituted
   */
  public SplitQa(String split, List<SplitRecord> records, Map<String, Map<String, String>> finalPolicies) {
    this.split = split;
    this.records = List.copyOf(records);
    this.finalPolicies = finalPolicies;
  }

  public SplitFigures figures(String file, StructureFigures structure) {
    List<DatabaseFigures> databases = databases();
    return new SplitFigures(
        split,
        file,
        records.size(),
        q1(),
        q2(),
        spread(databases),
        negatives(),
        violations(),
        refusals(),
        rewrites(),
        topColumns(),
        databases,
        structure,
        null);
  }

  // ---- Q1 ---------------------------------------------------------------------------------

  Check q1() {
    List<SplitRecord> violating = records.stream().filter(r -> !r.violations().isEmpty()).toList();
    Check check = check(split + ".q1", "questions whose original SQL violates", violating.size(), "10–30 %", 10, 30);
    if (check.inRange()) {
      return check;
    }
    List<Driver> drivers = drivers(violating, r -> kind(r.violations().get(0)), r -> r.violations().get(0).rule());
    String explanation =
        String.format(
            Locale.ROOT,
            "Q1 = %s (%s of %s) is %s the expected 10–30 %%. By the first violation of each violating question: %s.",
            Html.pct(check.value()),
            Html.number(check.count()),
            Html.number(check.total()),
            check.value() > check.high() ? "above" : "below",
            listDrivers(drivers));
    return withExplanation(check, explanation, drivers);
  }

  /** The kind of a violating reference: "JoinOnly column selected". */
  static String kind(Violation v) {
    Role role = Role.named(v.role());
    String where = role == null ? "as " + v.role() : role.kind(v.aggId());
    return v.policy() + " column " + where;
  }

  // ---- Q2 ---------------------------------------------------------------------------------

  Check q2() {
    List<SplitRecord> refused = records.stream().filter(SplitRecord::refused).toList();
    Check check = check(split + ".q2", "REFUSE gold labels", refused.size(), "5–15 %", 5, 15);
    if (check.inRange()) {
      return check;
    }
    List<Driver> drivers = drivers(refused, SplitQa::refuseCause, r -> r.gold().rule());
    StringBuilder text = new StringBuilder();
    text.append(
        String.format(
            Locale.ROOT,
            "Q2 = %s (%s of %s) is %s the expected 5–15 %%. By cause: %s.",
            Html.pct(check.value()),
            Html.number(check.count()),
            Html.number(check.total()),
            check.value() > check.high() ? "above" : "below",
            listDrivers(drivers)));
    List<SplitRecord> r1 = refused.stream().filter(r -> R1_CAUSE.equals(refuseCause(r))).toList();
    if (!r1.isEmpty()) {
      long joinOnlySubstitute =
          r1.stream().filter(r -> r.gold().steps().stream().anyMatch(s -> "R1".equals(s.rule()) && "JoinOnly".equals(policyOf(r.dbId(), s.replacement())))).count();
      long noCandidate = r1.stream().filter(r -> r.gold().steps().stream().noneMatch(s -> "R1".equals(s.rule()))).count();
      Counter kinds = new Counter();
      r1.forEach(r -> kinds.add(r.violations().isEmpty() ? "no violation" : kind(r.violations().get(0))));
      text.append(
          String.format(
              Locale.ROOT,
              " %s: in %s of these %s questions R1 substituted an _id column that is itself JoinOnly,"
                  + " and %s had no _id column to substitute. Their first violation: %s. Without them Q2 would be %s.",
              R1_CAUSE,
              Html.number(joinOnlySubstitute),
              Html.number(r1.size()),
              Html.number(noCandidate),
              kinds.byCount().entrySet().stream()
                  .limit(3)
                  .map(e -> e.getKey() + " (" + Html.number(e.getValue()) + ")")
                  .reduce((a, b) -> a + ", " + b)
                  .orElse(""),
              Html.pct(Counts.percent(refused.size() - r1.size(), records.size()))));
    }
    return withExplanation(check, text.toString(), drivers);
  }

  static final String R1_CAUSE = "R1 cannot succeed without overrides";

  /** What {@link #R1_CAUSE} means, said once on the page rather than in each split's explanation. */
  static final String R1_CAUSE_MEANING =
      R1_CAUSE + ": R1 shows another _id column of the table instead, and can only succeed where an override"
          + " makes that substitute selectable.";

  /** The cause of a REFUSE, grouping the reasons that share one. */
  static String refuseCause(SplitRecord r) {
    String reason = r.gold().reason() == null ? "(no reason)" : r.gold().reason();
    boolean r1Step = r.gold().steps().stream().anyMatch(s -> "R1".equals(s.rule()));
    return switch (reason) {
      case "R1_NO_CANDIDATE" -> R1_CAUSE;
      case "MAX_STEPS" -> r1Step ? R1_CAUSE : "MAX_STEPS after R2 only";
      case "SELECT_STAR" -> "SELECT *";
      case "R3", "R4", "NO_RULE" -> byRule(reason, r.gold().rule());
      default -> reason;
    };
  }

  /** A reason told by the rule that concluded it: the rule's name says what it means. */
  private static String byRule(String reason, String rule) {
    if (rule == null) {
      return reason;
    }
    return rule.startsWith(reason) ? rule : reason + ": " + rule;
  }

  private String policyOf(String dbId, String column) {
    if (column == null) {
      return null;
    }
    return finalPolicies.getOrDefault(dbId, Map.of()).get(column);
  }

  // ---- Q3 ---------------------------------------------------------------------------------

  private record DbTally(Counter reasons, int[] counts) {}

  List<DatabaseFigures> databases() {
    Map<String, DbTally> tallies = new TreeMap<>();
    for (SplitRecord r : records) {
      DbTally t = tallies.computeIfAbsent(r.dbId(), k -> new DbTally(new Counter(), new int[3]));
      t.counts()[0]++;
      t.counts()[1] += r.violations().isEmpty() ? 0 : 1;
      if (r.refused()) {
        t.counts()[2]++;
        t.reasons().add(r.gold().reason());
      }
    }
    double[] rates = tallies.values().stream().mapToDouble(t -> 100.0 * t.counts()[2] / t.counts()[0]).toArray();
    double mean = mean(rates);
    double sd = sd(rates, mean);
    List<DatabaseFigures> result = new ArrayList<>();
    tallies.forEach(
        (db, t) -> {
          double rate = 100.0 * t.counts()[2] / t.counts()[0];
          result.add(
              new DatabaseFigures(
                  db,
                  t.counts()[0],
                  t.counts()[1],
                  t.counts()[2],
                  Counts.percent(t.counts()[2], t.counts()[0]),
                  t.reasons().top(),
                  sd == 0 ? 0 : Counts.round2((rate - mean) / sd)));
        });
    result.sort(
        java.util.Comparator.comparingDouble(DatabaseFigures::refusePercent).reversed().thenComparing(DatabaseFigures::dbId));
    return result;
  }

  static RefuseSpread spread(List<DatabaseFigures> databases) {
    double[] rates = databases.stream().mapToDouble(d -> 100.0 * d.refused() / d.questions()).toArray();
    double mean = mean(rates);
    double sd = sd(rates, mean);
    return new RefuseSpread(
        databases.size(),
        Counts.round2(mean),
        Counts.round2(sd),
        Counts.round2(java.util.Arrays.stream(rates).min().orElse(0)),
        Counts.round2(java.util.Arrays.stream(rates).max().orElse(0)),
        "REFUSE rate more than 2 standard deviations from the mean over databases",
        databases.stream().filter(d -> Math.abs(d.zScore()) > 2).toList());
  }

  private static double mean(double[] values) {
    return values.length == 0 ? 0 : java.util.Arrays.stream(values).sum() / values.length;
  }

  /** Population standard deviation. */
  private static double sd(double[] values, double mean) {
    if (values.length == 0) {
      return 0;
    }
    double squares = 0;
    for (double v : values) {
      squares += (v - mean) * (v - mean);
    }
    return Math.sqrt(squares / values.length);
  }

  // ---- Q4 ---------------------------------------------------------------------------------

  NegativeFigures negatives() {
    Counter byRule = new Counter();
    NEGATIVE_RULES.forEach(rule -> byRule.add(rule, 0));
    Counter causes = new Counter();
    List.of(SET_OPERATION, NO_CANDIDATE, UNRESOLVED, TEXT_DISAGREES, DROPPED).forEach(c -> causes.add(c, 0));
    List<Failure> failures = new ArrayList<>();
    int negatives = 0;
    int with = 0;
    for (SplitRecord r : records) {
      if (r.negatives().isEmpty()) {
        causes.add(noNegativeCause(r));
        continue;
      }
      with++;
      for (Negative n : r.negatives()) {
        negatives++;
        byRule.add(n.rule());
        String why = NegativeCheck.failure(r.originalSql(), n, r.violations(), r.columnPolicies());
        if (why != null) {
          failures.add(new Failure(r.id(), n.rule(), why));
        }
      }
    }
    int passed = negatives - failures.size();
    Check oneEdit =
        new Check(
            split + ".q4",
            "negatives one edit from their original, with the introduced violation",
            passed,
            negatives,
            negatives == 0 ? 100 : Counts.percent(passed, negatives),
            "100 %",
            100,
            100,
            failures.isEmpty(),
            null,
            null);
    if (!failures.isEmpty()) {
      Counter byWhy = new Counter();
      failures.forEach(f -> byWhy.add(f.rule() + ": " + f.why()));
      oneEdit =
          withExplanation(
              oneEdit,
              String.format(
                  Locale.ROOT,
                  "%s of %s negatives fail the check: %s. First: %s.",
                  Html.number(failures.size()),
                  Html.number(negatives),
                  byWhy.byCount().entrySet().stream().map(e -> e.getKey() + " (" + e.getValue() + ")").reduce((a, b) -> a + "; " + b).orElse(""),
                  failures.stream().limit(5).map(Failure::id).reduce((a, b) -> a + ", " + b).orElse("")),
              null);
    }
    return new NegativeFigures(
        records.size(), with, byRule.byCount(), records.size() - with, causes.byCount(), oneEdit, failures);
  }

  /** Why a question has no negative example, from its record alone. */
  static String noNegativeCause(SplitRecord r) {
    if ("UNRESOLVED".equals(r.gold().reason())) {
      return UNRESOLVED;
    }
    if (r.problems().stream().anyMatch(p -> p.contains("negative dropped"))) {
      return DROPPED;
    }
    if (r.problems().stream().anyMatch(p -> p.contains("disagrees with its Spider AST"))) {
      return TEXT_DISAGREES;
    }
    if (!r.problems().isEmpty()) {
      return UNRESOLVED;
    }
    return SqlTokens.hasTopLevelSetOperation(r.originalSql()) ? SET_OPERATION : NO_CANDIDATE;
  }

  // ---- Q5 and the rest --------------------------------------------------------------------

  ViolationFigures violations() {
    Map<String, Map<String, Integer>> grid = new LinkedHashMap<>();
    ROLES.forEach(role -> grid.put(role, zeroPolicies()));
    Counter byRule = new Counter();
    int occurrences = 0;
    int questions = 0;
    for (SplitRecord r : records) {
      questions += r.violations().isEmpty() ? 0 : 1;
      for (Violation v : r.violations()) {
        occurrences++;
        grid.computeIfAbsent(v.role(), k -> zeroPolicies()).merge(v.policy(), 1, Integer::sum);
        byRule.add(v.rule());
      }
    }
    // a policy seen in one row only (not one of the restricted three) gets a zero in the others
    Set<String> policies = new java.util.LinkedHashSet<>();
    grid.values().forEach(row -> policies.addAll(row.keySet()));
    grid.values().forEach(row -> policies.forEach(p -> row.putIfAbsent(p, 0)));
    return new ViolationFigures(occurrences, questions, grid, byRule.byCount());
  }

  private static Map<String, Integer> zeroPolicies() {
    Map<String, Integer> row = new LinkedHashMap<>();
    RESTRICTED.forEach(p -> row.put(p, 0));
    return row;
  }

  RefusalFigures refusals() {
    Counter reasons = new Counter();
    Counter rules = new Counter();
    int total = 0;
    for (SplitRecord r : records) {
      if (r.refused()) {
        total++;
        reasons.add(r.gold().reason());
        rules.add(r.gold().rule());
      }
    }
    return new RefusalFigures(total, reasons.byCount(), rules.byCount());
  }

  RewriteFigures rewrites() {
    Counter byRule = new Counter();
    Counter answered = new Counter();
    Counter refused = new Counter();
    int steps = 0;
    int questions = 0;
    for (SplitRecord r : records) {
      List<Step> s = r.gold().steps();
      if (s.isEmpty()) {
        continue;
      }
      questions++;
      steps += s.size();
      s.forEach(step -> byRule.add(step.rule()));
      String sequence = String.join(" ", s.stream().map(Step::rule).toList());
      (r.refused() ? refused : answered).add(sequence);
    }
    return new RewriteFigures(steps, byRule.byCount(), questions, answered.byCount(), refused.byCount());
  }

  List<ColumnCount> topColumns() {
    record Key(String db, String column) {}
    Map<Key, Counter> roles = new TreeMap<>(java.util.Comparator.comparing(Key::db).thenComparing(Key::column));
    Map<Key, String> policies = new LinkedHashMap<>();
    Map<Key, Set<String>> questions = new LinkedHashMap<>();
    for (SplitRecord r : records) {
      for (Violation v : r.violations()) {
        Key key = new Key(r.dbId(), v.column());
        roles.computeIfAbsent(key, k -> new Counter()).add(v.role());
        policies.putIfAbsent(key, v.policy());
        questions.computeIfAbsent(key, k -> new HashSet<>()).add(r.id());
      }
    }
    List<ColumnCount> all = new ArrayList<>();
    roles.forEach(
        (key, counter) ->
            all.add(
                new ColumnCount(
                    key.db(),
                    key.column(),
                    policies.get(key),
                    counter.byCount().values().stream().mapToInt(Integer::intValue).sum(),
                    questions.get(key).size(),
                    counter.byCount())));
    all.sort(
        java.util.Comparator.comparingInt(ColumnCount::occurrences).reversed()
            .thenComparing(java.util.Comparator.comparingInt(ColumnCount::questions).reversed())
            .thenComparing(ColumnCount::dbId)
            .thenComparing(ColumnCount::column));
    return List.copyOf(all.subList(0, Math.min(TOP_COLUMNS, all.size())));
  }

  // ---- shared -----------------------------------------------------------------------------

  private Check check(String id, String label, int count, String expected, double low, double high) {
    double value = Counts.percent(count, records.size());
    return new Check(id, label, count, records.size(), value, expected, low, high, value >= low && value <= high, null, null);
  }

  static Check withExplanation(Check c, String explanation, List<Driver> drivers) {
    return new Check(
        c.id(), c.label(), c.count(), c.total(), c.value(), c.expected(), c.low(), c.high(), c.inRange(), explanation, drivers);
  }

  /** The figure's questions grouped by {@code group}, largest group first. */
  private List<Driver> drivers(
      List<SplitRecord> counted, Function<SplitRecord, String> group, Function<SplitRecord, String> rule) {
    Map<String, List<SplitRecord>> groups = new TreeMap<>();
    counted.forEach(r -> groups.computeIfAbsent(group.apply(r), k -> new ArrayList<>()).add(r));
    List<Driver> drivers = new ArrayList<>();
    groups.forEach(
        (label, members) -> {
          Counter rules = new Counter();
          members.forEach(r -> rules.add(rule.apply(r)));
          drivers.add(
              new Driver(
                  label,
                  List.copyOf(rules.byCount().keySet()),
                  members.size(),
                  Counts.percent(members.size(), counted.size()),
                  Counts.percent(counted.size() - members.size(), records.size())));
        });
    drivers.sort(java.util.Comparator.comparingInt(Driver::count).reversed().thenComparing(Driver::label));
    return drivers;
  }

  private static String listDrivers(List<Driver> drivers) {
    return drivers.stream()
        .limit(4)
        .map(d -> d.label() + " " + Html.number(d.count()) + " (" + Html.pct(d.shareOfCount()) + ")")
        .reduce((a, b) -> a + ", " + b)
        .orElse("none")
        + (drivers.size() > 4 ? ", and " + (drivers.size() - 4) + " smaller groups" : "");
  }
}

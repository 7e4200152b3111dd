package rolepolicy.compare;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import rolepolicy.exactmatch.Hardness;
import rolepolicy.evaluate.Metrics;
import rolepolicy.model.Policy;
import rolepolicy.model.Role;

/**
 * One figure of {@link Metrics}, read from the metrics that the evaluate package computes (never
 * recomputed here).
 *
 * @param key its name in compare.json
 * @param label its name on the page and in the terminal
 * @param percent a rate, shown in percent; else a score, shown with three decimals
 */
public record Measure(String key, String label, boolean percent, Function<Metrics, Double> value) {

  /** The figures of evaluate's table that get an interval. */
  public static final List<Measure> MAIN = List.of(
      new Measure("refuse_precision", "REFUSE precision", true, m -> m.refuse().precision()),
      new Measure("refuse_recall", "REFUSE recall", true, m -> m.refuse().recall()),
      new Measure("refuse_f1", "REFUSE F1", true, m -> m.refuse().f1()),
      new Measure("decision_accuracy", "decision accuracy", true, m -> m.refuse().accuracy()),
      new Measure("compliance", "compliant", true, m -> m.compliance().compliantRate()),
      new Measure("execution_match", "execution match (EX)", true, m -> m.execution().matchRate()),
      new Measure("exact_match", "exact set match (EM)", true, m -> m.exactMatch() == null ? null : m.exactMatch().matchRate()),
      new Measure("column_f1", "column F1", true, m -> m.columns().f1()),
      new Measure("rs_0", "RS(0)", false, m -> m.reliability().rs0()),
      new Measure("rs_10", "RS(10)", false, m -> m.reliability().rs10()),
      new Measure("rs_n", "RS(N)", false, m -> m.reliability().rsN()));

  /** EM and EX per Spider hardness level. */
  public static final List<Measure> HARDNESS = hardness();

  /** The share of answers violating in each role and on each policy. */
  public static final List<Measure> VIOLATIONS = violations();

  /** The figures of the per-database table. */
  public static final List<Measure> BY_DATABASE = List.of(
      byKey("decision_accuracy"), byKey("compliance"), byKey("execution_match"), byKey("exact_match"));

  /** The measure of {@link #MAIN} named {@code key}. */
  public static Measure byKey(String key) {
    return MAIN.stream().filter(m -> m.key().equals(key)).findFirst().orElseThrow();
  }

  /** This measure's value, or null when the metrics leave it undefined. */
  public Double of(Metrics metrics) {
    return value.apply(metrics);
  }

  private static List<Measure> hardness() {
    List<Measure> list = new ArrayList<>();
    for (Hardness h : Hardness.values()) {
      String level = h.label();
      list.add(new Measure("em_" + level, "EM " + level, true,
          m -> m.exactMatch() == null ? null : m.exactMatch().byHardness().get(level).emRate()));
    }
    for (Hardness h : Hardness.values()) {
      String level = h.label();
      list.add(new Measure("ex_" + level, "EX " + level, true,
          m -> m.exactMatch() == null ? null : m.exactMatch().byHardness().get(level).exRate()));
    }
    return List.copyOf(list);
  }

  private static List<Measure> violations() {
    List<Measure> list = new ArrayList<>();
    for (Role role : Role.values()) {
      if (role.unjudgedInSpec()) {
        continue; // compare shows SPEC §4's roles
      }
      list.add(new Measure("violating_" + role, "violating in " + role, true, m -> m.compliance().violatingByRole().get(role)));
    }
    for (Policy policy : Policy.values()) {
      list.add(new Measure("violating_" + policy, "violating " + policy + " columns", true,
          m -> m.compliance().violatingByPolicy().get(policy)));
    }
    return List.copyOf(list);
  }
}

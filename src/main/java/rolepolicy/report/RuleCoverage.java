package rolepolicy.report;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import rolepolicy.engine.Audit;
import rolepolicy.engine.RuleBase.RuleName;
import rolepolicy.generate.AuditTrail;

/**
 * Which rules fired on how many questions of a split, and which never fired. A rule that fires
 * per question (permissions, rewrites, negatives) counts the questions of the audit trail it fired
 * on; a naming or override rule, which fires once per column, counts the columns of the split's
 * databases whose policy it set.
 */
public final class RuleCoverage {
  private RuleCoverage() {}

  /**
   * One rule's reach.
   *
   * @param unit {@code questions} or {@code columns}
   */
  public record RuleCount(String file, String rule, String unit, int count) {}

  /**
   * @param questions questions of the split with an audit line
   * @param fired every rule that fired, in rule-file order (rules not in the rule list last)
   * @param neverFired the rules of the rule list that did not fire; null without a rule list
   */
  public record Coverage(int questions, List<RuleCount> fired, List<RuleCount> neverFired) {}

  /**
   * @param rules the rule base of the folder ({@code audit/rules.json}), or null
   * @param lines the split's audit lines
   * @param columns the policy files' columns
   * @param databases the split's databases
   */
  public static Coverage of(
      List<RuleName> rules,
      Map<String, AuditTrail.Line> lines,
      List<PolicyQa.Column> columns,
      Set<String> databases) {
    Map<String, Integer> questions = questionsPerRule(lines);
    Map<String, Integer> columnCounts = new TreeMap<>();
    for (PolicyQa.Column c : columns) {
      if (!databases.contains(c.db())) {
        continue;
      }
      columnCounts.merge(c.autoRule(), 1, Integer::sum);
      if (!c.overrideRule().isEmpty()) {
        columnCounts.merge(c.overrideRule(), 1, Integer::sum);
      }
    }
    columnCounts.remove("");
    List<RuleCount> fired = new ArrayList<>();
    List<RuleCount> never = rules == null ? null : new ArrayList<>();
    Set<String> listed = new HashSet<>();
    for (RuleName rule : rules == null ? List.<RuleName>of() : rules) {
      listed.add(rule.rule());
      RuleCount count = count(rule.file(), rule.rule(), questions, columnCounts);
      if (count == null) {
        never.add(new RuleCount(rule.file(), rule.rule(), "questions", 0));
      } else {
        fired.add(count);
      }
    }
    Set<String> others = new java.util.TreeSet<>(questions.keySet());
    others.addAll(columnCounts.keySet());
    others.removeAll(listed);
    for (String rule : others) {
      fired.add(count("", rule, questions, columnCounts));
    }
    return new Coverage(lines.size(), fired, never);
  }

  private static RuleCount count(
      String file, String rule, Map<String, Integer> questions, Map<String, Integer> columns) {
    if (questions.containsKey(rule)) {
      return new RuleCount(file, rule, "questions", questions.get(rule));
    } else if (columns.containsKey(rule)) {
      return new RuleCount(file, rule, "columns", columns.get(rule));
    }
    return null;
  }

  /** Rule → questions it fired on (each question once). */
  public static Map<String, Integer> questionsPerRule(Map<String, AuditTrail.Line> lines) {
    Map<String, Integer> counts = new LinkedHashMap<>();
    for (AuditTrail.Line line : lines.values()) {
      for (String rule : rulesOf(line)) {
        counts.merge(rule, 1, Integer::sum);
      }
    }
    return counts;
  }

  /** The rules that fired on one question, each once, in first-firing order. */
  public static Set<String> rulesOf(AuditTrail.Line line) {
    Set<String> rules = new java.util.LinkedHashSet<>();
    for (Audit.Firing f : line.firings()) {
      rules.add(f.rule());
    }
    return rules;
  }
}

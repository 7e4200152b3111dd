package rolepolicy.diff;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import rolepolicy.diff.DiffResult.ColumnChange;
import rolepolicy.diff.DiffResult.FigureChange;
import rolepolicy.diff.DiffResult.RecordChange;
import rolepolicy.diff.DiffResult.RuleChange;
import rolepolicy.diff.DiffResult.RuleGroup;
import rolepolicy.diff.DiffResult.SplitDiff;
import rolepolicy.engine.RuleBase.RuleName;
import rolepolicy.generate.AuditTrail;
import rolepolicy.io.DatasetWriter;
import rolepolicy.report.PolicyQa;
import rolepolicy.report.QaFigures.SplitFigures;
import rolepolicy.report.QaReport;
import rolepolicy.report.RuleCoverage;
import rolepolicy.report.SplitQa;
import rolepolicy.report.SplitRecord;
import rolepolicy.io.InputException;

/**
 * What changed between two generated folders: per split, the records whose rule-derived fields
 * differ, grouped by the rules whose firing changed on them; the columns whose policy changed;
 * Q1–Q5 before and after; and each side's rule coverage.
 */
public final class DatasetDiff {
  /** The fields of a record that the rules decide, compared field by field. */
  public static final List<String> FIELDS =
      List.of("column_policies", "violations_original", "gold_label", "negative_examples", "problems");

  /** The fields that say which question a record is: they must agree on both sides. */
  private static final List<String> IDENTITY = List.of("db_id", "question", "original_sql");

  /** The group of a changed record on which no rule's firing changed (only the policy map did). */
  public static final String NO_FIRING_CHANGE = "(no rule's firing changed)";

  private DatasetDiff() {}

  /** Compares the named splits of two folders; none named: those of train, dev, test in both. */
  public static DiffResult compare(Path oldDir, Path newDir, List<String> splits) {
    for (Path dir : List.of(oldDir, newDir)) {
      if (!Files.isDirectory(dir)) {
        throw new InputException(dir + ": folder not found (a folder written by generate --out)");
      }
    }
    PolicyQa oldPolicies = PolicyQa.read(oldDir.resolve("policies"));
    PolicyQa newPolicies = PolicyQa.read(newDir.resolve("policies"));
    Map<String, ColumnChange> columnChanges = columnChanges(oldPolicies, newPolicies);
    List<String> names = splits.isEmpty() ? common(oldDir, newDir) : splits;
    if (names.isEmpty()) {
      throw new InputException(oldDir + " and " + newDir + ": no split file (train, dev, test) in both");
    }
    List<RuleName> oldRules = AuditTrail.readRules(oldDir);
    List<RuleName> newRules = AuditTrail.readRules(newDir);
    List<SplitDiff> result = new ArrayList<>();
    for (String split : names) {
      result.add(
          split(split, oldDir, newDir, oldPolicies, newPolicies, oldRules, newRules, columnChanges));
    }
    return new DiffResult(
        DiffResult.FORMAT, oldDir.toString(), newDir.toString(), result,
        List.copyOf(columnChanges.values()));
  }

  private static List<String> common(Path oldDir, Path newDir) {
    return QaReport.SPLITS.stream()
        .filter(s -> Files.isRegularFile(oldDir.resolve(s + ".json")) && Files.isRegularFile(newDir.resolve(s + ".json")))
        .toList();
  }

  private static SplitDiff split(
      String split,
      Path oldDir,
      Path newDir,
      PolicyQa oldPolicies,
      PolicyQa newPolicies,
      List<RuleName> oldRules,
      List<RuleName> newRules,
      Map<String, ColumnChange> columnChanges) {
    Path oldFile = file(oldDir, split);
    Path newFile = file(newDir, split);
    Map<String, JsonNode> before = byId(oldFile);
    Map<String, JsonNode> after = byId(newFile);
    if (!before.keySet().equals(after.keySet())) {
      Set<String> only = new TreeSet<>(before.keySet());
      only.removeAll(after.keySet());
      Set<String> added = new TreeSet<>(after.keySet());
      added.removeAll(before.keySet());
      throw new InputException(
          oldFile + " and " + newFile + ": not the same questions (only in the first: "
              + preview(only) + "; only in the second: " + preview(added) + ")");
    }
    Map<String, AuditTrail.Line> oldAudit = AuditTrail.read(oldDir, split);
    Map<String, AuditTrail.Line> newAudit = AuditTrail.read(newDir, split);
    boolean audited = !oldAudit.isEmpty() && !newAudit.isEmpty();

    List<RecordChange> records = new ArrayList<>();
    Map<String, List<String>> startedOn = new TreeMap<>();
    Map<String, List<String>> stoppedOn = new TreeMap<>();
    Map<String, List<String>> columnsOn = new TreeMap<>();
    List<String> unattributed = new ArrayList<>();
    for (Map.Entry<String, JsonNode> entry : before.entrySet()) {
      String id = entry.getKey();
      JsonNode a = entry.getValue();
      JsonNode b = after.get(id);
      for (String field : IDENTITY) {
        if (!Objects.equals(a.get(field), b.get(field))) {
          throw new InputException(
              oldFile + " and " + newFile + ": " + id + " is another question on each side (" + field + " differs)");
        }
      }
      List<String> fields = FIELDS.stream().filter(f -> !Objects.equals(a.get(f), b.get(f))).toList();
      if (fields.isEmpty()) {
        continue;
      }
      Set<String> was = audited ? RuleCoverage.rulesOf(oldAudit.getOrDefault(id, EMPTY)) : Set.of();
      Set<String> is = audited ? RuleCoverage.rulesOf(newAudit.getOrDefault(id, EMPTY)) : Set.of();
      List<String> started = is.stream().filter(r -> !was.contains(r)).sorted().toList();
      List<String> stopped = was.stream().filter(r -> !is.contains(r)).sorted().toList();
      String db = a.path("db_id").asText();
      List<String> columnRules = new ArrayList<>();
      List<String> columns = new ArrayList<>();
      if (fields.contains("column_policies")) {
        for (ColumnChange c : columnChanges.values()) {
          if (c.dbId().equals(db) && !Objects.equals(c.finalBefore(), c.finalAfter())) {
            columns.add(c.column());
            for (String rule : c.rules()) {
              if (!columnRules.contains(rule)) {
                columnRules.add(rule);
              }
            }
          }
        }
      }
      started.forEach(r -> startedOn.computeIfAbsent(r, k -> new ArrayList<>()).add(id));
      stopped.forEach(r -> stoppedOn.computeIfAbsent(r, k -> new ArrayList<>()).add(id));
      columnRules.forEach(r -> columnsOn.computeIfAbsent(r, k -> new ArrayList<>()).add(id));
      if (started.isEmpty() && stopped.isEmpty() && columnRules.isEmpty()) {
        unattributed.add(id);
      }
      records.add(
          new RecordChange(
              id, db, fields, started, stopped, columns, columnRules,
              outcome(a), outcome(b)));
    }

    Set<String> groupRules = new TreeSet<>(startedOn.keySet());
    groupRules.addAll(stoppedOn.keySet());
    groupRules.addAll(columnsOn.keySet());
    List<RuleGroup> groups = new ArrayList<>();
    for (String rule : groupRules) {
      groups.add(
          new RuleGroup(
              rule,
              startedOn.getOrDefault(rule, List.of()),
              stoppedOn.getOrDefault(rule, List.of()),
              columnsOn.getOrDefault(rule, List.of())));
    }
    if (!unattributed.isEmpty()) {
      groups.add(new RuleGroup(NO_FIRING_CHANGE, List.of(), List.of(), unattributed));
    }

    List<RuleChange> ruleChanges = audited ? ruleChanges(oldAudit, newAudit) : List.of();
    List<SplitRecord> oldRecords = SplitRecord.read(oldFile);
    List<SplitRecord> newRecords = SplitRecord.read(newFile);
    SplitFigures figuresBefore = new SplitQa(split, oldRecords, oldPolicies.finalPolicies()).figures(oldFile.toString(), null);
    SplitFigures figuresAfter = new SplitQa(split, newRecords, newPolicies.finalPolicies()).figures(newFile.toString(), null);
    Set<String> databases = new TreeSet<>();
    oldRecords.forEach(r -> databases.add(r.dbId()));
    RuleCoverage.Coverage coverageBefore = RuleCoverage.of(oldRules, oldAudit, oldPolicies.columns(), databases);
    RuleCoverage.Coverage coverageAfter = RuleCoverage.of(newRules, newAudit, newPolicies.columns(), databases);
    return new SplitDiff(
        split,
        before.size(),
        records.size(),
        (int) records.stream().filter(r -> !r.fields().equals(List.of("column_policies"))).count(),
        countFields(records),
        figures(figuresBefore, figuresAfter),
        groups,
        ruleChanges,
        records,
        audited,
        names(coverageBefore.neverFired()),
        names(coverageAfter.neverFired()));
  }

  private static final AuditTrail.Line EMPTY = new AuditTrail.Line(null, null, List.of());

  private static List<String> names(List<RuleCoverage.RuleCount> rules) {
    return rules == null ? null : rules.stream().map(RuleCoverage.RuleCount::rule).toList();
  }

  private static Map<String, Integer> countFields(List<RecordChange> records) {
    Map<String, Integer> counts = new LinkedHashMap<>();
    FIELDS.forEach(f -> counts.put(f, 0));
    records.forEach(r -> r.fields().forEach(f -> counts.merge(f, 1, Integer::sum)));
    return counts;
  }

  /** Every rule whose number of questions changed, or that started or stopped on some question. */
  private static List<RuleChange> ruleChanges(
      Map<String, AuditTrail.Line> oldAudit, Map<String, AuditTrail.Line> newAudit) {
    Map<String, int[]> tally = new TreeMap<>(); // before, after, started on, stopped on
    for (Map.Entry<String, AuditTrail.Line> entry : oldAudit.entrySet()) {
      Set<String> was = RuleCoverage.rulesOf(entry.getValue());
      Set<String> is = RuleCoverage.rulesOf(newAudit.getOrDefault(entry.getKey(), EMPTY));
      for (String r : was) {
        int[] t = tally.computeIfAbsent(r, k -> new int[4]);
        t[0]++;
        if (!is.contains(r)) {
          t[3]++;
        }
      }
      for (String r : is) {
        int[] t = tally.computeIfAbsent(r, k -> new int[4]);
        t[1]++;
        if (!was.contains(r)) {
          t[2]++;
        }
      }
    }
    List<RuleChange> changes = new ArrayList<>();
    tally.forEach((rule, t) -> {
      if (t[2] > 0 || t[3] > 0) {
        changes.add(new RuleChange(rule, t[0], t[1], t[2], t[3]));
      }
    });
    return changes;
  }

  private static List<FigureChange> figures(SplitFigures a, SplitFigures b) {
    return List.of(
        new FigureChange("Q1", "questions whose original SQL violates", a.q1().count(), b.q1().count(), a.q1().value(), b.q1().value()),
        new FigureChange("Q2", "REFUSE gold labels", a.q2().count(), b.q2().count(), a.q2().value(), b.q2().value()),
        new FigureChange("Q3", "sd of the REFUSE rate over databases (%)", a.q3().databases(), b.q3().databases(), a.q3().sdPercent(), b.q3().sdPercent()),
        new FigureChange("Q4", "negatives of one edit", a.q4().oneEdit().count(), b.q4().oneEdit().count(), a.q4().oneEdit().value(), b.q4().oneEdit().value()),
        new FigureChange("Q5", "violations of the original SQL (occurrences)", a.q5().occurrences(), b.q5().occurrences(), a.q5().occurrences(), b.q5().occurrences()));
  }

  /** A record's gold label in a few words: {@code SQL}, {@code SQL after R1}, {@code REFUSE R3}. */
  static String outcome(JsonNode record) {
    JsonNode gold = record.path("gold_label");
    List<String> steps = new ArrayList<>();
    gold.path("steps").forEach(s -> steps.add(s.path("rule").asText()));
    String after = steps.isEmpty() ? "" : " after " + String.join(" ", steps);
    if ("REFUSE".equals(gold.path("type").asText())) {
      return "REFUSE " + gold.path("reason").asText() + after;
    }
    return gold.path("type").asText() + after;
  }

  /** The columns whose automatic or final policy, or the rule behind it, changed. */
  private static Map<String, ColumnChange> columnChanges(PolicyQa oldPolicies, PolicyQa newPolicies) {
    Map<String, PolicyQa.Column> was = new TreeMap<>();
    oldPolicies.columns().forEach(c -> was.put(c.db() + "\u0000" + c.key(), c));
    Map<String, PolicyQa.Column> is = new TreeMap<>();
    newPolicies.columns().forEach(c -> is.put(c.db() + "\u0000" + c.key(), c));
    Set<String> keys = new TreeSet<>(was.keySet());
    keys.addAll(is.keySet());
    Map<String, ColumnChange> changes = new LinkedHashMap<>();
    for (String key : keys) {
      PolicyQa.Column a = was.get(key);
      PolicyQa.Column b = is.get(key);
      if (a != null && b != null
          && a.auto().equals(b.auto()) && a.fin().equals(b.fin())
          && a.autoRule().equals(b.autoRule()) && a.overrideRule().equals(b.overrideRule())) {
        continue;
      }
      PolicyQa.Column any = a != null ? a : b;
      List<String> rules = new ArrayList<>();
      for (PolicyQa.Column c : java.util.Arrays.asList(a, b)) {
        if (c != null) {
          for (String rule : List.of(c.autoRule(), c.overrideRule())) {
            if (!rule.isEmpty() && !rules.contains(rule)) {
              rules.add(rule);
            }
          }
        }
      }
      changes.put(key, new ColumnChange(
          any.db(), any.key(),
          a == null ? null : a.auto(), b == null ? null : b.auto(),
          a == null ? null : a.fin(), b == null ? null : b.fin(),
          a == null ? null : a.autoRule(), b == null ? null : b.autoRule(),
          rules));
    }
    return changes;
  }

  private static Path file(Path dir, String split) {
    Path file = dir.resolve(split + ".json");
    InputException.requireFile(file, false, " (split " + split + ")");
    return file;
  }

  private static Map<String, JsonNode> byId(Path file) {
    JsonNode array;
    try {
      array = DatasetWriter.JSON.readTree(file.toFile());
    } catch (IOException e) {
      throw new InputException(file + ": cannot read as JSON (" + InputException.reason(e) + ")", e);
    }
    if (array == null || !array.isArray()) {
      throw new InputException(file + ": not a generated split (a JSON array of records)");
    }
    Map<String, JsonNode> records = new LinkedHashMap<>();
    int number = 0;
    for (JsonNode record : array) {
      number++;
      String id = record.path("id").asText(null);
      if (id == null) {
        throw new InputException(file + ": record #" + number + " has no id");
      }
      if (records.put(id, record) != null) {
        throw new InputException(file + ": id " + id + " appears twice");
      }
    }
    return records;
  }

  private static String preview(Set<String> ids) {
    if (ids.isEmpty()) {
      return "none";
    }
    List<String> first = ids.stream().limit(5).toList();
    return String.join(", ", first) + (ids.size() > 5 ? " and " + (ids.size() - 5) + " more" : "");
  }
}

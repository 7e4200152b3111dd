package rolepolicy.engine;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.kie.api.KieBase;
import rolepolicy.model.AssignedPolicy;
import rolepolicy.model.OverriddenPolicy;
import rolepolicy.model.OverrideProblem;
import rolepolicy.model.PolicyOverride;
import rolepolicy.model.SchemaColumn;
import rolepolicy.spider.InputException;
import rolepolicy.spider.Schema;

/** Runs the policy and override rules over each database's columns (SPEC §3). */
public final class PolicyAssigner {
  private final Sessions sessions;

  public PolicyAssigner(KieBase rules) {
    this.sessions = new Sessions(rules);
  }

  /**
   * The policies of every database. Fails, naming each bad entry, when an override cannot be
   * applied.
   */
  public Map<String, DatabasePolicies> assign(
      Map<String, Schema> schemas, List<PolicyOverride> overrides, String overridesSource) {
    List<String> problems = new ArrayList<>();
    Map<String, List<PolicyOverride>> byDb = new HashMap<>();
    Map<String, PolicyOverride> seen = new HashMap<>();
    for (PolicyOverride o : overrides) {
      if (!schemas.containsKey(o.dbId())) {
        problems.add(o.describe() + ": names no database of the schema file");
      } else if (seen.putIfAbsent(o.dbId() + " " + o.key(), o) != null) {
        problems.add(o.describe() + ": repeats " + seen.get(o.dbId() + " " + o.key()).describe());
      } else {
        byDb.computeIfAbsent(o.dbId(), d -> new ArrayList<>()).add(o);
      }
    }
    Map<String, DatabasePolicies> result = new LinkedHashMap<>();
    for (Schema schema : schemas.values()) {
      result.put(
          schema.dbId(),
          assign(schema, byDb.getOrDefault(schema.dbId(), List.of()), problems));
    }
    if (!problems.isEmpty()) {
      problems.sort(Comparator.naturalOrder());
      throw new InputException(overridesSource + ":\n  " + String.join("\n  ", problems));
    }
    return result;
  }

  private DatabasePolicies assign(
      Schema schema, List<PolicyOverride> overrides, List<String> problems) {
    List<Object> facts = new ArrayList<>(schema.realColumns());
    facts.addAll(overrides);
    List<Object> after = sessions.fire(facts, null, "policy");
    Map<SchemaColumn, AssignedPolicy> assigned = new HashMap<>();
    for (AssignedPolicy a : Sessions.only(after, AssignedPolicy.class)) {
      if (assigned.putIfAbsent(a.column(), a) != null) {
        throw new IllegalStateException(
            "the policy rules assign two policies to " + schema.dbId() + " " + a.column().key());
      }
    }
    Map<SchemaColumn, OverriddenPolicy> overridden = new HashMap<>();
    Sessions.only(after, OverriddenPolicy.class).forEach(o -> overridden.put(o.column(), o));
    Sessions.only(after, OverrideProblem.class)
        .forEach(p -> problems.add(p.override().describe() + ": " + p.problem() + " [" + p.rule() + "]"));

    List<ColumnPolicy> columns = new ArrayList<>();
    for (SchemaColumn column : schema.realColumns()) {
      AssignedPolicy auto = assigned.get(column);
      if (auto == null) {
        throw new IllegalStateException(
            "the policy rules assign no policy to " + schema.dbId() + " " + column.key());
      }
      OverriddenPolicy o = overridden.get(column);
      columns.add(
          new ColumnPolicy(
              column,
              auto.policy(),
              auto.rule(),
              o == null ? auto.policy() : o.override().finalPolicy(),
              o == null ? null : o.override().reason(),
              o == null ? null : o.rule()));
    }
    return new DatabasePolicies(schema.dbId(), columns);
  }
}

package rolepolicy.engine;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.kie.api.KieBase;
import rolepolicy.model.AssignedPolicy;
import rolepolicy.model.LayeredPolicy;
import rolepolicy.model.OverriddenPolicy;
import rolepolicy.model.OverrideProblem;
import rolepolicy.model.PolicyOverride;
import rolepolicy.model.SchemaColumn;
import rolepolicy.io.Futures;
import rolepolicy.io.InputException;
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
    return assign(schemas, overrides, overridesSource, List.of());
  }

  /**
   * The policies of every database, with facts the policy rules read beside the columns (a
   * profile's inputs: the grants profile's {@code Grant} and {@code GrantRole}).
   */
  public Map<String, DatabasePolicies> assign(
      Map<String, Schema> schemas,
      List<PolicyOverride> overrides,
      String overridesSource,
      List<?> policyFacts) {
    return assign(schemas, overrides, overridesSource, db -> policyFacts);
  }

  /**
   * As {@link #assign(Map, List, String, List)}, each database's session given its own facts ({@code
   * factsOf} by db_id): records that carry each database's GRANTs and role give each database those,
   * and a session does not join its columns with every other database's grants.
   */
  public Map<String, DatabasePolicies> assign(
      Map<String, Schema> schemas,
      List<PolicyOverride> overrides,
      String overridesSource,
      java.util.function.Function<String, List<?>> factsOf) {
    List<String> problems = java.util.Collections.synchronizedList(new ArrayList<>());
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
    // Databases are independent: one task each, on one thread per core, collected in schema order
    // (so that the first failure in schema order is the one reported).
    ExecutorService pool = Executors.newFixedThreadPool(Runtime.getRuntime().availableProcessors(), PolicyAssigner::worker);
    Map<String, DatabasePolicies> result = new LinkedHashMap<>();
    try {
      List<Future<DatabasePolicies>> assigned = new ArrayList<>();
      for (Schema schema : schemas.values()) {
        List<PolicyOverride> own = byDb.getOrDefault(schema.dbId(), List.of());
        assigned.add(pool.submit(() -> assign(schema, own, factsOf.apply(schema.dbId()), problems)));
      }
      for (Future<DatabasePolicies> db : assigned) {
        DatabasePolicies policies = Futures.await(db, "assigning policies");
        result.put(policies.dbId(), policies);
      }
    } finally {
      pool.shutdownNow();
    }
    if (!problems.isEmpty()) {
      problems.sort(Comparator.naturalOrder());
      throw new InputException(overridesSource + ":\n  " + String.join("\n  ", problems));
    }
    return result;
  }


  private static Thread worker(Runnable task) {
    Thread thread = new Thread(task, "policy-worker");
    thread.setDaemon(true);
    return thread;
  }

  private DatabasePolicies assign(
      Schema schema, List<PolicyOverride> overrides, List<?> policyFacts, List<String> problems) {
    List<Object> facts = new ArrayList<>(schema.realColumns());
    facts.addAll(overrides);
    facts.addAll(policyFacts);
    RuleLimits.subject("database " + schema.dbId());
    List<Object> after;
    try {
      after = sessions.fire(facts, null, "policy");
    } finally {
      RuleLimits.subject(null);
    }
    Map<SchemaColumn, AssignedPolicy> assigned = new HashMap<>();
    for (AssignedPolicy a : Sessions.only(after, AssignedPolicy.class)) {
      if (assigned.putIfAbsent(a.column(), a) != null) {
        throw sessions.lacking("policy.drl", "the policy rules assign two policies to column " + a.column().key()
            + " of database " + schema.dbId() + "; each column needs exactly one AssignedPolicy");
      }
    }
    Map<SchemaColumn, OverriddenPolicy> overridden = new HashMap<>();
    Sessions.only(after, OverriddenPolicy.class).forEach(o -> overridden.put(o.column(), o));
    Map<SchemaColumn, LayeredPolicy> layered = new HashMap<>();
    for (LayeredPolicy l : Sessions.only(after, LayeredPolicy.class)) {
      if (layered.putIfAbsent(l.column(), l) != null) {
        throw new IllegalStateException("the policy layer's rules set two policies of " + schema.dbId() + " "
            + l.column().key() + ": " + layered.get(l.column()).rule() + "; " + l.rule());
      }
    }
    Sessions.only(after, OverrideProblem.class)
        .forEach(p -> problems.add(p.override().describe() + ": " + p.problem() + " [" + p.rule() + "]"));

    List<ColumnPolicy> columns = new ArrayList<>();
    for (SchemaColumn column : schema.realColumns()) {
      AssignedPolicy auto = assigned.get(column);
      if (auto == null) {
        throw sessions.lacking("policy.drl", "the policy rules assign no policy to column " + column.key()
            + " of database " + schema.dbId() + "; each column needs exactly one AssignedPolicy (agenda-group \"policy\")");
      }
      OverriddenPolicy o = overridden.get(column);
      LayeredPolicy layer = layered.get(column);
      if (layer != null) {
        // a tier's layer comes last: it replaces the automatic policy and any override
        columns.add(new ColumnPolicy(column, auto.policy(), auto.rule(), layer.policy(),
            "policy layer of the profile", layer.rule()));
        continue;
      }
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

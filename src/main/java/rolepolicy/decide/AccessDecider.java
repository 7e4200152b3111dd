package rolepolicy.decide;

import rolepolicy.spider.AccessRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.kie.api.KieBase;
import rolepolicy.engine.DatabasePolicies;
import rolepolicy.engine.PolicyAssigner;
import rolepolicy.engine.QuestionEngine;
import rolepolicy.io.InputException;
import rolepolicy.model.Grant;
import rolepolicy.model.GrantRole;
import rolepolicy.model.QueryFacts;
import rolepolicy.model.ReadViolation;
import rolepolicy.model.Violation;
import rolepolicy.spider.Schema;
import rolepolicy.sql.GrantStatements;
import rolepolicy.sql.SqlAnalysisException;
import rolepolicy.sql.SqlAnalyzer;
import rolepolicy.sql.TableDefinitions;

/**
 * Decides Spider-AC records with a rule base (the grants profile's): the policies of role {@code
 * <db_id>_<user>} from the record's GRANT statements, the schema from its CREATE TABLE statements,
 * and the permission rules' judgement of its query. Thread-safe; schemas and policies are made once
 * per database and role.
 */
public final class AccessDecider {
  private final PolicyAssigner assigner;
  private final QuestionEngine engine;
  private final Map<String, Schema> schemas = new ConcurrentHashMap<>();
  private final Map<String, List<Grant>> grants = new ConcurrentHashMap<>();
  private final Map<String, DatabasePolicies> policies = new ConcurrentHashMap<>();

  public AccessDecider(KieBase rules) {
    this.assigner = new PolicyAssigner(rules);
    this.engine = new QuestionEngine(rules);
  }

  /** The decision on one record; a record whose statements or query cannot be read is an error. */
  public AccessDecision decide(AccessRecord record, String source) {
    String where = source + ":" + record.line();
    Schema schema =
        schemas.computeIfAbsent(
            record.dbId() + "\n" + record.schemaDdl(),
            k -> schemaOf(record, where));
    return decide(record, schema, policiesOf(record, schema, where), where);
  }

  /**
   * The decision on a record's query under given policies (a profile's, not the record's GRANTs);
   * {@code where} names the record in errors.
   */
  public AccessDecision decide(AccessRecord record, Schema schema, DatabasePolicies roles, String where) {
    QueryFacts facts;
    try {
      facts = new SqlAnalyzer(schema).analyse(record.query()).facts();
    } catch (SqlAnalysisException e) {
      throw new InputException(where + ": query: " + e.getMessage(), e);
    }
    QuestionEngine.Judgement judgement =
        engine.judge(
            facts,
            roles.policed(QuestionEngine.touchedTables(facts.refs(), facts.tables())),
            null,
            "decide");
    if (!judgement.violations().isEmpty()) {
      Violation first = judgement.violations().get(0);
      String key = first.ref().column();
      int dot = key.indexOf('.');
      return new AccessDecision(record.line(), record.dbId(), record.user(), AccessDecision.DENY,
          first.rule(), key.substring(dot + 1), key.substring(0, dot));
    }
    if (!judgement.readViolations().isEmpty()) {
      ReadViolation first = judgement.readViolations().get(0);
      return new AccessDecision(record.line(), record.dbId(), record.user(), AccessDecision.DENY,
          first.rule(), first.column(), first.table());
    }
    if (!judgement.queryViolations().isEmpty()) {
      // a profile judging the query as a whole (spec-v1's SELECT *): no column or table to name
      return new AccessDecision(record.line(), record.dbId(), record.user(), AccessDecision.DENY,
          judgement.queryViolations().get(0).rule(), null, null);
    }
    return new AccessDecision(record.line(), record.dbId(), record.user(), AccessDecision.PERMIT, null, null, null);
  }

  private DatabasePolicies policiesOf(AccessRecord record, Schema schema, String where) {
    String role = record.role().toLowerCase(Locale.ROOT);
    String key = record.dbId() + "\n" + role + "\n" + record.schemaDdl() + "\n" + record.accessPolicySql();
    DatabasePolicies known = policies.get(key);
    if (known != null) {
      return known;
    }
    List<Grant> statements =
        grants.computeIfAbsent(
            record.accessPolicySql(),
            text -> parse(text, where + " (access_policy_sql)"));
    List<Object> facts = new ArrayList<>(statements);
    facts.add(new GrantRole(role));
    DatabasePolicies made =
        assigner.assign(Map.of(schema.dbId(), schema), List.of(), "no overrides", facts).get(schema.dbId());
    policies.putIfAbsent(key, made);
    return made;
  }

  private static Schema schemaOf(AccessRecord record, String where) {
    try {
      return TableDefinitions.schema(record.dbId(), record.schemaDdl(), where + " (schema_ddl)");
    } catch (SqlAnalysisException e) {
      throw new InputException(e.getMessage(), e);
    }
  }

  private static List<Grant> parse(String text, String where) {
    try {
      return GrantStatements.parse(text, where);
    } catch (SqlAnalysisException e) {
      throw new InputException(e.getMessage(), e);
    }
  }
}

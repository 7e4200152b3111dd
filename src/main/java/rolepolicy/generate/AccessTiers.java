package rolepolicy.generate;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.kie.api.KieBase;
import rolepolicy.engine.DatabasePolicies;
import rolepolicy.engine.PolicyAssigner;
import rolepolicy.io.InputException;
import rolepolicy.io.PlainName;
import rolepolicy.model.GrantRole;
import rolepolicy.spider.AccessRecord;
import rolepolicy.spider.Question;
import rolepolicy.spider.Schema;
import rolepolicy.sql.GrantStatements;
import rolepolicy.sql.SqlAnalysisException;
import rolepolicy.sql.TableDefinitions;

/**
 * Spider-AC's records as one dataset per user tier (User_1 … User_4): each tier's questions, the
 * schemas of their databases (schema_ddl) and the policies of the tier's role in each database
 * ({@code <db_id>_<user>}'s grants in access_policy_sql), as the rules of a profile assign them.
 */
public final class AccessTiers {
  /**
   * One tier.
   *
   * @param user the user, e.g. {@code User_3}
   * @param places where each question stands ({@code file:line}), for errors
   */
  public record Tier(
      String user,
      Map<String, Schema> schemas,
      Map<String, DatabasePolicies> policies,
      List<Question> questions,
      List<String> places) {}

  private AccessTiers() {}

  /** The tiers in user order; a database must have one schema and one set of GRANTs in all its records. */
  public static List<Tier> of(List<AccessRecord> records, String source, KieBase rules) {
    Map<String, Schema> schemas = new LinkedHashMap<>();
    Map<String, List<Object>> grants = new LinkedHashMap<>();
    Map<String, AccessRecord> first = new LinkedHashMap<>();
    Map<String, List<AccessRecord>> byUser = new TreeMap<>();
    for (AccessRecord r : records) {
      String where = source + ":" + r.line();
      PlainName.check(r.dbId(), "db_id", where); // a folder's and a file's name
      PlainName.check(r.user(), "user", where);
      AccessRecord known = first.putIfAbsent(r.dbId(), r);
      if (known == null) {
        try {
          schemas.put(r.dbId(), TableDefinitions.schema(r.dbId(), r.schemaDdl(), where + " (schema_ddl)"));
          grants.put(r.dbId(), List.copyOf(GrantStatements.parse(r.accessPolicySql(), where + " (access_policy_sql)")));
        } catch (SqlAnalysisException e) {
          throw new InputException(e.getMessage(), e);
        }
      } else if (!known.schemaDdl().equals(r.schemaDdl()) || !known.accessPolicySql().equals(r.accessPolicySql())) {
        throw new InputException(where + ": database " + r.dbId() + " has another schema_ddl or access_policy_sql than at line "
            + known.line());
      }
      byUser.computeIfAbsent(r.user(), u -> new ArrayList<>()).add(r);
    }
    PolicyAssigner assigner = new PolicyAssigner(rules);
    List<Tier> tiers = new ArrayList<>();
    for (Map.Entry<String, List<AccessRecord>> user : byUser.entrySet()) {
      Map<String, Schema> own = new LinkedHashMap<>();
      Map<String, List<?>> facts = new LinkedHashMap<>(); // a database's GRANTs and this user's role in it
      List<Question> questions = new ArrayList<>();
      List<String> places = new ArrayList<>();
      for (AccessRecord r : user.getValue()) {
        if (own.put(r.dbId(), schemas.get(r.dbId())) == null) {
          List<Object> its = new ArrayList<>(grants.get(r.dbId()));
          its.add(new GrantRole(r.role().toLowerCase(Locale.ROOT)));
          facts.put(r.dbId(), its);
        }
        questions.add(new Question(questions.size(), r.dbId(), r.question(), r.query(), null));
        places.add(source + ":" + r.line());
      }
      tiers.add(new Tier(user.getKey(), own, assigner.assign(own, List.of(), "no overrides", facts::get), questions, places));
    }
    return tiers;
  }
}

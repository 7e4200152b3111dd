package rolepolicy.decide;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.kie.api.KieBase;
import rolepolicy.db.Postgres;
import rolepolicy.engine.ColumnPolicy;
import rolepolicy.engine.PermissionMetadata;
import rolepolicy.model.Role;
import rolepolicy.engine.DatabasePolicies;
import rolepolicy.model.Policy;

/**
 * A profile's policies as PostgreSQL GRANT statements for one role: USAGE on each database's schema
 * (named after the database) and SELECT on its Public columns. A GRANT can say only "may read" or
 * "may not": Hidden is not granted; JoinOnly and AggOnly, which allow a column in some clauses only,
 * are not granted either (the safe side) and are listed as not expressible.
 */
public final class GrantExport {
  /** A column whose policy no GRANT expresses. */
  public record NotExpressible(String dbId, String key, Policy policy, String rule) {}

  /** The statements, and what they could not say. */
  public record Export(String statements, List<NotExpressible> notExpressible, int granted, int hidden) {}

  private GrantExport() {}

  public static Export of(Map<String, DatabasePolicies> policies, String role) {
    StringBuilder out = new StringBuilder();
    List<NotExpressible> lost = new ArrayList<>();
    int granted = 0;
    int hidden = 0;
    String to = Postgres.quote(role);
    for (DatabasePolicies db : policies.values()) {
      String schema = Postgres.quote(db.dbId());
      out.append("GRANT USAGE ON SCHEMA ").append(schema).append(" TO ").append(to).append(";\n");
      Map<String, List<String>> byTable = new java.util.LinkedHashMap<>();
      for (ColumnPolicy c : db.columns()) {
        List<String> publicColumns = byTable.computeIfAbsent(c.column().table(), t -> new ArrayList<>());
        switch (c.finalPolicy()) {
          case Public -> {
            publicColumns.add(Postgres.quote(c.column().name()));
            granted++;
          }
          case Hidden -> hidden++;
          default -> lost.add(new NotExpressible(db.dbId(), c.column().key(), c.finalPolicy(),
              c.overrideRule() != null ? c.overrideRule() : c.autoRule()));
        }
      }
      byTable.forEach((table, columns) -> {
        if (!columns.isEmpty()) {
          out.append("GRANT SELECT (").append(String.join(", ", columns)).append(") ON ")
              .append(schema).append('.').append(Postgres.quote(table)).append(" TO ").append(to).append(";\n");
        }
      });
    }
    return new Export(out.toString(), List.copyOf(lost), granted, hidden);
  }


  /**
   * The permission rules of a rule base that no GRANT expresses: each whose metadata forbids a
   * policy other than Hidden, or Hidden in only some roles (PostgreSQL's SELECT privilege holds in
   * every clause or in none), as {@code rule: what it forbids}.
   */
  public static List<String> roleSensitiveRules(KieBase rules) {
    List<String> out = new ArrayList<>();
    for (PermissionMetadata.Statement s : PermissionMetadata.of(rules)) {
      if (s.forbids() != null && (s.forbids() != Policy.Hidden || !s.roles().containsAll(List.of(Role.values())))) {
        out.add(s.rule() + ": " + s.forbids() + " in "
            + String.join(" ", s.roles().stream().sorted().map(Role::name).toList()));
      }
    }
    return out;
  }

}

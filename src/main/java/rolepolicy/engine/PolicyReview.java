package rolepolicy.engine;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.kie.api.KieBase;
import rolepolicy.model.ReviewFlag;
import rolepolicy.model.ReviewedColumn;
import rolepolicy.model.SchemaColumn;
import rolepolicy.model.TableName;
import rolepolicy.spider.Schema;

/** Runs the review rules ({@code rules/review.drl}) over one database's final policies. */
public final class PolicyReview {
  private final Sessions sessions;

  public PolicyReview(KieBase rules) {
    this.sessions = new Sessions(rules);
  }

  /** The review rules' flags, by column key; each column's in the order its rules fired. */
  public Map<String, List<ReviewFlag>> flags(Schema schema, DatabasePolicies policies) {
    List<ReviewedColumn> columns = new ArrayList<>();
    for (ColumnPolicy c : policies.columns()) {
      SchemaColumn column = c.column();
      columns.add(new ReviewedColumn(column.key(), column.table(), column.name(), c.finalPolicy(),
          isKey(schema, column), keyRole(schema, column)));
    }
    return flags(columns);
  }

  /** The review rules' flags of these columns, by column key; their tables' names are facts too. */
  public Map<String, List<ReviewFlag>> flags(List<ReviewedColumn> columns) {
    List<Object> facts = new ArrayList<>(columns);
    Set<String> tables = new LinkedHashSet<>();
    columns.forEach(c -> tables.add(c.table()));
    tables.forEach(t -> facts.add(new TableName(t, words(t))));
    Map<String, List<ReviewFlag>> flags = new LinkedHashMap<>();
    for (ReviewFlag flag : Sessions.only(sessions.fire(facts, null, "review"), ReviewFlag.class)) {
      flags.computeIfAbsent(flag.column(), k -> new ArrayList<>()).add(flag);
    }
    return flags;
  }

  /** PK, FK -> the column it references, referenced (by a foreign key), or "-". */
  public static String keyRole(Schema schema, SchemaColumn column) {
    List<String> roles = new ArrayList<>();
    if (column.primaryKey()) {
      roles.add("PK");
    }
    for (Schema.ForeignKey fk : schema.foreignKeys()) {
      if (fk.column() == column.index()) {
        SchemaColumn target = schema.column(fk.references());
        roles.add("FK->" + target.table() + "." + target.name());
      }
    }
    if (schema.foreignKeys().stream().anyMatch(fk -> fk.references() == column.index())) {
      roles.add("referenced");
    }
    return roles.isEmpty() ? "-" : String.join(",", roles);
  }

  private static boolean isKey(Schema schema, SchemaColumn column) {
    return column.primaryKey() || schema.inForeignKey(column.index());
  }

  /** A name's words, lower-cased: split at non-letters and at lower-to-upper case changes. */
  static List<String> words(String name) {
    List<String> words = new ArrayList<>();
    for (String part : name.split("[^A-Za-z]+|(?<=[a-z])(?=[A-Z])")) {
      if (!part.isEmpty()) {
        words.add(part.toLowerCase(Locale.ROOT));
      }
    }
    return List.copyOf(words);
  }
}

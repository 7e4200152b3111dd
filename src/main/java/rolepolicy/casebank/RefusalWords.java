package rolepolicy.casebank;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.UnaryOperator;
import rolepolicy.model.Aggregate;
import rolepolicy.model.Role;

/**
 * Why a case is REFUSE, in words a model can follow: the columns whose policy forbids what its
 * question needs, where it needs them, and the policy ({@code it needs head.age in a WHERE filter,
 * which is Hidden}), from the record's violations of the original SQL.
 */
final class RefusalWords {
  private RefusalWords() {}

  /**
   * The reason, each column named by {@code name} (its key, {@code head.age}, or a placeholder);
   * {@code code} (the gold label's reason) speaks when there is no violation.
   */
  static String explain(String code, JsonNode violations, UnaryOperator<String> name) {
    Set<String> parts = new LinkedHashSet<>();
    for (JsonNode v : violations == null ? List.<JsonNode>of() : iterable(violations)) {
      String column = v.path("column").asText();
      String policy = v.path("policy").asText();
      if (!column.isEmpty() && !policy.isEmpty()) {
        parts.add(name.apply(column) + " " + where(v.path("role").asText(), v.path("agg_id").asInt()) + ", which is " + policy);
      }
    }
    if (!parts.isEmpty()) {
      return "it needs " + String.join(", and ", parts);
    }
    return switch (code == null ? "" : code) {
      case "SELECT_STAR" -> "it needs SELECT *, which reads every column, whatever its policy";
      case "UNRESOLVED" -> "its query names a table or column the schema does not have";
      default -> "no query answers it within the policies";
    };
  }

  private static String where(String role, int agg) {
    Role named = Role.named(role);
    if (named == null) {
      return "as " + role.toLowerCase(Locale.ROOT);
    }
    return named.place(agg > 0 && agg <= Aggregate.AVG.id() ? Aggregate.of(agg) : Aggregate.NONE);
  }

  private static List<JsonNode> iterable(JsonNode array) {
    List<JsonNode> all = new ArrayList<>();
    array.forEach(all::add);
    return all;
  }
}

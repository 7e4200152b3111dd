package rolepolicy.evaluate;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.LinkedHashMap;
import java.util.Map;
import rolepolicy.io.InputException;

/**
 * What the evaluator needs of one dataset record.
 *
 * @param goldSql the gold SQL, or null when the gold label is REFUSE
 * @param policies the record's {@code column_policies}: column key → final policy name
 * @param question the question text, or null when the record has none
 */
public record GoldRecord(
    String id, String dbId, boolean refuse, String goldSql, String originalSql, Map<String, String> policies,
    String question) {

  /** A record without question text. */
  public GoldRecord(String id, String dbId, boolean refuse, String goldSql, String originalSql, Map<String, String> policies) {
    this(id, dbId, refuse, goldSql, originalSql, policies, null);
  }

  static GoldRecord of(JsonNode record, String where) {
    String id = text(record, "id", where);
    where = where + " (" + id + ")";
    String type = record.at("/gold_label/type").asText("");
    if (!type.equals("SQL") && !type.equals("REFUSE")) {
      throw new InputException(where + ": gold_label.type must be SQL or REFUSE");
    }
    JsonNode policies = record.get("column_policies");
    if (policies == null || !policies.isObject()) {
      throw new InputException(where + ": missing object field 'column_policies'");
    }
    Map<String, String> map = new LinkedHashMap<>();
    policies.fields().forEachRemaining(e -> map.put(e.getKey(), e.getValue().asText()));
    return new GoldRecord(
        id,
        text(record, "db_id", where),
        type.equals("REFUSE"),
        type.equals("SQL") ? text(record.get("gold_label"), "sql", where + " gold_label") : null,
        text(record, "original_sql", where),
        map,
        record.path("question").isTextual() ? record.get("question").asText() : null);
  }

  private static String text(JsonNode node, String field, String where) {
    JsonNode value = node.get(field);
    if (value == null || !value.isTextual()) {
      throw new InputException(where + ": missing text field '" + field + "'");
    }
    return value.asText();
  }
}

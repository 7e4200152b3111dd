package rolepolicy.casebank;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import rolepolicy.skeleton.Skeletonizer;
import rolepolicy.spider.InputException;
import rolepolicy.spider.Schema;
import rolepolicy.spider.JsonFiles;

/** Reads the cases of a generated train split; dev and test questions are never cases. */
public final class CaseReader {
  private CaseReader() {}

  /** The split a record belongs to, from its id ({@code train_0042} → {@code train}). */
  static String splitOf(String id) {
    int underscore = id.lastIndexOf('_');
    return underscore < 0 ? "" : id.substring(0, underscore);
  }

  public static List<Case> read(Path dataset, Map<String, Schema> schemas) {
    JsonNode root = JsonFiles.readArray(dataset, "dataset records");
    Skeletonizer skeletonizer = new Skeletonizer();
    List<Case> cases = new ArrayList<>(root.size());
    for (int i = 0; i < root.size(); i++) {
      JsonNode r = root.get(i);
      String where = dataset + ": record #" + (i + 1);
      String id = text(r, "id", where);
      String split = splitOf(id);
      if (split.equals("dev") || split.equals("test") || split.endsWith("dev") || split.endsWith("test")) {
        throw new InputException(where + " (" + id + ") is a " + split
            + " question: cases come from a train split only, so that no evaluated question is its own example");
      }
      String dbId = text(r, "db_id", where);
      Schema schema = schemas.get(dbId);
      if (schema == null) {
        throw new InputException(where + " (" + id + "): database '" + dbId + "' is not in the schema file");
      }
      String sql = text(r, "original_sql", where);
      JsonNode gold = r.get("gold_label");
      String type = gold == null ? "" : gold.path("type").asText();
      if (!type.equals("SQL") && !type.equals("REFUSE")) {
        throw new InputException(where + " (" + id + "): gold_label.type must be SQL or REFUSE");
      }
      // the shape a prompt shows is the compliant gold SQL's; a REFUSE case shows the original's
      String shown = type.equals("SQL") ? gold.path("sql").asText() : sql;
      var skeleton = skeletonizer.skeletonize(shown);
      JsonNode policies = r.get("column_policies");
      // the columns its SQL touches, as the skeletonizer resolved them (table.column → _colN), with their policies
      Map<String, String> touched = new LinkedHashMap<>();
      Map<String, String> shapePolicies = new LinkedHashMap<>();
      skeleton.columns().forEach((column, placeholder) -> {
        JsonNode policy = policies == null ? null : policies.get(column.toLowerCase(Locale.ROOT));
        if (policy != null) {
          touched.put(column.toLowerCase(Locale.ROOT), policy.asText());
          shapePolicies.put(placeholder, policy.asText());
        }
      });
      boolean refuse = type.equals("REFUSE");
      String reason = refuse ? gold.path("reason").asText() : null;
      JsonNode violations = r.get("violations_original");
      cases.add(new Case(id, dbId, text(r, "question", where), type,
          refuse ? null : shown,
          reason,
          refuse ? Refusal.explain(reason, violations, column -> column) : null,
          touched,
          QuestionMasker.mask(text(r, "question", where), schema, sql),
          skeleton.sql(), skeleton.opSignature(),
          refuse ? Refusal.explain(reason, violations,
              column -> skeleton.columns().getOrDefault(column, "a column")) : null,
          shapePolicies, sql));
    }
    return cases;
  }

  private static String text(JsonNode record, String field, String where) {
    JsonNode value = record.get(field);
    if (value == null || !value.isTextual()) {
      throw new InputException(where + ": missing text field '" + field + "'");
    }
    return value.asText();
  }
}

package rolepolicy.casebank;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import rolepolicy.skeleton.Skeleton;
import rolepolicy.skeleton.Skeletonizer;
import rolepolicy.io.InputException;
import rolepolicy.spider.Schema;
import rolepolicy.io.JsonFiles;

/** Reads the cases of a generated train split; dev and test questions are never cases. */
public final class CaseReader {
  private CaseReader() {}

  /** The split a record belongs to, from its id ({@code train_0042} → {@code train}). */
  static String splitOf(String id) {
    int underscore = id.lastIndexOf('_');
    return underscore < 0 ? "" : id.substring(0, underscore);
  }

  /** A record whose fields were checked, in the order of the file. */
  private record Checked(JsonNode record, String where, String id, String dbId, Schema schema, String sql, String type) {}

  /**
   * The cases of a train split, in its order. The records are checked one after another (the first
   * bad one is the one named), then made into cases on every core.
   */
  public static List<Case> read(Path dataset, Map<String, Schema> schemas) {
    return read(dataset, schemas, null);
  }

  /** {@link #read(Path, Map)}, the skeletons of the SQL kept in {@code cacheFolder} by text (null: none). */
  public static List<Case> read(Path dataset, Map<String, Schema> schemas, Path cacheFolder) {
    JsonNode root = JsonFiles.readArray(dataset, "dataset records");
    List<Checked> checked = new ArrayList<>(root.size());
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
      text(r, "question", where);
      checked.add(new Checked(r, where, id, dbId, schema, sql, type));
    }
    SqlSkeletonCache cache = cacheFolder == null ? null : new SqlSkeletonCache(cacheFolder);
    Map<String, Skeleton> cached = cache == null ? Map.of() : cache.read();
    Map<String, Skeleton> used = new java.util.concurrent.ConcurrentHashMap<>();
    Skeletonizer skeletonizer = new Skeletonizer(); // holds no state: shared by the threads
    Function<String, Skeleton> skeletonOf = sql -> used.computeIfAbsent(sql,
        s -> cached.containsKey(s) ? cached.get(s) : skeletonizer.skeletonize(s));
    List<Case> cases = checked.parallelStream().map(c -> toCase(c, skeletonOf)).toList();
    if (cache != null) {
      cache.write(used);
    }
    return cases;
  }

  private static Case toCase(Checked c, Function<String, Skeleton> skeletonOf) {
    JsonNode r = c.record();
    JsonNode gold = r.get("gold_label");
    String sql = c.sql();
    String type = c.type();
    String question = r.get("question").asText();
    // the shape a prompt shows is the compliant gold SQL's; a REFUSE case shows the original's
    String shown = type.equals("SQL") ? gold.path("sql").asText() : sql;
    Skeleton skeleton = skeletonOf.apply(shown);
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
    return new Case(c.id(), c.dbId(), question, type,
        refuse ? null : shown,
        reason,
        refuse ? RefusalWords.explain(reason, violations, column -> column) : null,
        touched,
        QuestionMasker.mask(question, c.schema(), sql),
        skeleton.sql(), skeleton.opSignature(),
        refuse ? RefusalWords.explain(reason, violations,
            column -> skeleton.columns().getOrDefault(column, "a column")) : null,
        shapePolicies, sql);
  }

  private static String text(JsonNode record, String field, String where) {
    JsonNode value = record.get(field);
    if (value == null || !value.isTextual()) {
      throw new InputException(where + ": missing text field '" + field + "'");
    }
    return value.asText();
  }
}

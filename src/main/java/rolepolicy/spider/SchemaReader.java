package rolepolicy.spider;

import rolepolicy.io.InputException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import rolepolicy.model.SchemaColumn;

/**
 * Reads Spider's {@code tables.json} into schemas keyed by {@code db_id}, in file order. Names are
 * taken as written, spaces, parentheses and any case included (BIRD's {@code Free Meal Count
 * (K-12)}); a table named twice in one database, or a column named twice in one table, ignoring
 * case, is refused: SQLite allows neither, and the {@code table.column} keys would collide.
 */
public final class SchemaReader {
  private static final ObjectMapper JSON = new ObjectMapper();

  private SchemaReader() {}

  public static Map<String, Schema> read(Path file) {
    JsonNode root;
    try {
      root = JSON.readTree(file.toFile());
    } catch (IOException e) {
      throw new InputException(InputException.describe(file, e), e);
    }
    if (root == null || !root.isArray()) {
      throw new InputException(file + ": expected a JSON array of database schemas");
    }
    Map<String, Schema> schemas = new LinkedHashMap<>();
    for (int i = 0; i < root.size(); i++) {
      String where = file + ": database #" + (i + 1);
      Schema schema = schema(root.get(i), where);
      if (schemas.putIfAbsent(schema.dbId(), schema) != null) {
        throw new InputException(where + ": duplicate db_id '" + schema.dbId() + "'");
      }
    }
    return schemas;
  }

  private static Schema schema(JsonNode db, String where) {
    String dbId = text(db, "db_id", where);
    where = where + " (" + dbId + ")";
    List<String> tables = new ArrayList<>();
    Map<String, Integer> tableIndexes = new HashMap<>();
    for (JsonNode t : array(db, "table_names_original", where)) {
      Integer earlier = tableIndexes.putIfAbsent(t.asText().toLowerCase(Locale.ROOT), tables.size());
      if (earlier != null) {
        throw new InputException(
            String.format(
                Locale.ROOT,
                "%s: table_names_original[%d] '%s' repeats table_names_original[%d] '%s'"
                    + " (names are compared ignoring case)",
                where, tables.size(), t.asText(), earlier, tables.get(earlier)));
      }
      tables.add(t.asText());
    }
    JsonNode names = array(db, "column_names_original", where);
    JsonNode types = db.path("column_types");
    Set<Integer> primaryKeys = new HashSet<>();
    for (JsonNode pk : db.path("primary_keys")) {
      if (pk.isInt()) {
        primaryKeys.add(pk.asInt());
      } else if (pk.isArray()) { // composite keys in newer releases
        pk.forEach(p -> primaryKeys.add(p.asInt()));
      }
    }
    List<SchemaColumn> columns = new ArrayList<>();
    Map<String, Integer> columnIndexes = new HashMap<>();
    for (int i = 0; i < names.size(); i++) {
      JsonNode pair = names.get(i);
      if (!pair.isArray() || pair.size() != 2 || !pair.get(0).isInt()) {
        throw new InputException(where + ": column_names_original[" + i + "] is not [table, name]");
      }
      int tableIndex = pair.get(0).asInt();
      String table = tableIndex < 0 ? "" : tableAt(tables, tableIndex, where, i);
      if (tableIndex >= 0) {
        String key = table.toLowerCase(Locale.ROOT) + "." + pair.get(1).asText().toLowerCase(Locale.ROOT);
        Integer earlier = columnIndexes.putIfAbsent(key, i);
        if (earlier != null) {
          throw new InputException(
              String.format(
                  Locale.ROOT,
                  "%s: column_names_original[%d] '%s' repeats column_names_original[%d] '%s' of"
                      + " table %s (names are compared ignoring case)",
                  where, i, pair.get(1).asText(), earlier, names.get(earlier).get(1).asText(), table));
        }
      }
      columns.add(
          new SchemaColumn(
              dbId, i, table, pair.get(1).asText(), types.path(i).asText(""), primaryKeys.contains(i)));
    }
    return new Schema(dbId, tables, columns, foreignKeys(db, columns.size()));
  }

  /** Spider's {@code foreign_keys} pairs; pairs that are not two column indexes in range are skipped. */
  private static List<Schema.ForeignKey> foreignKeys(JsonNode db, int columnCount) {
    List<Schema.ForeignKey> keys = new ArrayList<>();
    for (JsonNode pair : db.path("foreign_keys")) {
      if (pair.isArray() && pair.size() == 2 && pair.get(0).isInt() && pair.get(1).isInt()
          && inRange(pair.get(0).asInt(), columnCount) && inRange(pair.get(1).asInt(), columnCount)) {
        keys.add(new Schema.ForeignKey(pair.get(0).asInt(), pair.get(1).asInt()));
      }
    }
    return keys;
  }

  private static boolean inRange(int index, int columnCount) {
    return index > 0 && index < columnCount;
  }

  private static String tableAt(List<String> tables, int index, String where, int column) {
    if (index >= tables.size()) {
      throw new InputException(
          where + ": column_names_original[" + column + "] names table " + index + " of " + tables.size());
    }
    return tables.get(index);
  }

  private static String text(JsonNode node, String field, String where) {
    JsonNode value = node.get(field);
    if (value == null || !value.isTextual()) {
      throw new InputException(where + ": missing text field '" + field + "'");
    }
    return value.asText();
  }

  private static JsonNode array(JsonNode node, String field, String where) {
    JsonNode value = node.get(field);
    if (value == null || !value.isArray()) {
      throw new InputException(where + ": missing array field '" + field + "'");
    }
    return value;
  }
}

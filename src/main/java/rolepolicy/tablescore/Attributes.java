package rolepolicy.tablescore;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import rolepolicy.io.InputException;

/**
 * A dataset's attribute file ({@code <Dataset>_attributes.json}): per table and attribute its
 * {@code value_type} and {@code description}. Names are looked up without regard to case.
 */
public final class Attributes {
  /** The value types a ground-truth column is cast to. */
  public static final java.util.Set<String> VALUE_TYPES = java.util.Set.of("str", "int", "float", "multi_str");

  /** One attribute. */
  public record Attribute(String table, String name, String valueType, String description) {}

  private final Path file;
  private final Map<String, Map<String, Attribute>> tables = new LinkedHashMap<>();

  private Attributes(Path file) {
    this.file = file;
  }

  public static Attributes read(Path file) {
    JsonNode root;
    try {
      root = new ObjectMapper().readTree(file.toFile());
    } catch (IOException e) {
      throw new InputException(InputException.describe(file, e), e);
    }
    if (root == null || !root.isObject()) {
      throw new InputException(file + ": expected a JSON object of tables");
    }
    Attributes attributes = new Attributes(file);
    for (Iterator<Map.Entry<String, JsonNode>> t = root.fields(); t.hasNext(); ) {
      Map.Entry<String, JsonNode> table = t.next();
      if (!table.getValue().isObject()) {
        throw new InputException(file + ": table '" + table.getKey() + "': expected an object of attributes");
      }
      Map<String, Attribute> byName = new LinkedHashMap<>();
      for (Iterator<Map.Entry<String, JsonNode>> a = table.getValue().fields(); a.hasNext(); ) {
        Map.Entry<String, JsonNode> attribute = a.next();
        JsonNode node = attribute.getValue();
        String where = file + ": " + table.getKey() + "." + attribute.getKey();
        String type = node.path("value_type").asText("");
        if (!VALUE_TYPES.contains(type)) {
          throw new InputException(where + ": value_type '" + type + "'; expected one of str, int, float, multi_str");
        }
        JsonNode description = node.get("description");
        byName.put(lower(attribute.getKey()), new Attribute(table.getKey(), attribute.getKey(), type,
            description == null || description.isNull() ? null : description.asText()));
      }
      attributes.tables.put(lower(table.getKey()), byName);
    }
    return attributes;
  }

  public Path file() {
    return file;
  }

  /** The attribute tables' names as written in the file. */
  public java.util.List<String> tableNames() {
    return tables.values().stream()
        .map(m -> m.values().stream().findFirst().map(Attribute::table).orElse(""))
        .toList();
  }

  /** The attributes of a table; a one-table file answers for any name. Null when unknown. */
  public Map<String, Attribute> table(String name) {
    if (tables.size() == 1) {
      return tables.values().iterator().next();
    }
    return tables.get(lower(name));
  }

  public Attribute get(String table, String attribute) {
    Map<String, Attribute> t = table(table);
    return t == null ? null : t.get(lower(attribute));
  }

  static String lower(String s) {
    return s.toLowerCase(Locale.ROOT);
  }
}

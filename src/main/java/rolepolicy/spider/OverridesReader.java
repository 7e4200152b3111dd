package rolepolicy.spider;

import rolepolicy.io.InputException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import rolepolicy.model.Policy;
import rolepolicy.model.PolicyOverride;

/** Reads {@code overrides.json}: a list of {db_id, table, column, auto_policy, final_policy, reason}. */
public final class OverridesReader {
  private static final ObjectMapper JSON = new ObjectMapper();

  private OverridesReader() {}

  public static List<PolicyOverride> read(Path file) {
    JsonNode root;
    try {
      root = JSON.readTree(file.toFile());
    } catch (IOException e) {
      throw new InputException(InputException.describe(file, e), e);
    }
    if (root == null || !root.isArray()) {
      throw new InputException(file + ": expected a JSON array of overrides");
    }
    List<PolicyOverride> overrides = new ArrayList<>();
    for (int i = 0; i < root.size(); i++) {
      String where = file + ": override #" + (i + 1);
      JsonNode entry = root.get(i);
      if (!entry.isObject()) {
        throw new InputException(where + ": expected an object");
      }
      overrides.add(
          new PolicyOverride(
              i + 1,
              text(entry, "db_id", where),
              text(entry, "table", where),
              text(entry, "column", where),
              policy(entry, "auto_policy", where),
              policy(entry, "final_policy", where),
              text(entry, "reason", where)));
    }
    return overrides;
  }

  private static String text(JsonNode entry, String field, String where) {
    JsonNode value = entry.get(field);
    if (value == null || !value.isTextual() || value.asText().isBlank()) {
      throw new InputException(where + ": missing text field '" + field + "'");
    }
    return value.asText();
  }

  private static Policy policy(JsonNode entry, String field, String where) {
    String name = text(entry, field, where);
    for (Policy p : Policy.values()) {
      if (p.name().equals(name)) {
        return p;
      }
    }
    throw new InputException(
        where + ": " + field + " '" + name + "' is not one of Public, JoinOnly, AggOnly, Hidden");
  }
}

package rolepolicy.spider;

import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;

/** The edits that rewrites and negatives make, on a copy of a Spider AST; the input is untouched. */
public final class AstEdits {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private AstEdits() {}

  /** R1: the {@code col_unit} at {@code colUnitPath} refers to another column. */
  public static JsonNode replaceColumn(JsonNode sql, String colUnitPath, int columnId) {
    JsonNode copy = sql.deepCopy();
    array(copy, colUnitPath).set(1, NODES.numberNode(columnId));
    return copy;
  }

  /** R2: the SELECT item at {@code itemPath} is wrapped in an aggregate. */
  public static JsonNode wrapItem(JsonNode sql, String itemPath, rolepolicy.model.Aggregate aggregate) {
    JsonNode copy = sql.deepCopy();
    array(copy, itemPath).set(0, NODES.numberNode(aggregate.id()));
    return copy;
  }

  /**
   * R6 of the extended profile: {@code SELECT COUNT(DISTINCT k) FROM ... WHERE ...} becomes {@code
   * SELECT COUNT(*) FROM (SELECT COUNT(*) FROM ... WHERE ... GROUP BY k)}; {@code colUnitPath} is
   * the counted column's {@code col_unit} in the one top-level SELECT item.
   */
  public static JsonNode countGroups(JsonNode sql, String colUnitPath) {
    if (!colUnitPath.startsWith("/select/1/0/") || sql.path("select").path(1).size() != 1) {
      throw new IllegalArgumentException("the count is not the one top-level SELECT item: " + colUnitPath);
    }
    for (String clause : new String[] {"groupBy", "having", "orderBy"}) {
      if (sql.path(clause).size() > 0) {
        throw new IllegalArgumentException("the query has " + clause);
      }
    }
    for (String part : new String[] {"limit", "intersect", "union", "except"}) {
      if (!sql.path(part).isNull() && !sql.path(part).isMissingNode()) {
        throw new IllegalArgumentException("the query has " + part);
      }
    }
    ArrayNode counted = array(sql.deepCopy(), colUnitPath);
    int itemAggregate = sql.path("select").path(1).path(0).path(0).asInt();
    if (!((itemAggregate == 3 || counted.get(0).asInt() == 3) && counted.get(2).asBoolean())) {
      throw new IllegalArgumentException("the one SELECT item is not COUNT(DISTINCT column): " + colUnitPath);
    }
    int key = counted.get(1).asInt();
    com.fasterxml.jackson.databind.node.ObjectNode inner = (com.fasterxml.jackson.databind.node.ObjectNode) sql.deepCopy();
    inner.set("select", countStar());
    ArrayNode group = NODES.arrayNode();
    group.add(NODES.arrayNode().add(0).add(key).add(false));
    inner.set("groupBy", group);
    com.fasterxml.jackson.databind.node.ObjectNode outer = (com.fasterxml.jackson.databind.node.ObjectNode) sql.deepCopy();
    outer.set("select", countStar());
    com.fasterxml.jackson.databind.node.ObjectNode from = NODES.objectNode();
    from.set("table_units", NODES.arrayNode().add(NODES.arrayNode().add("sql").add(inner)));
    from.set("conds", NODES.arrayNode());
    outer.set("from", from);
    outer.set("where", NODES.arrayNode());
    return outer;
  }

  /** {@code [false, [[3, [0, [0, 0, false], null]]]]}: a SELECT list of {@code COUNT(*)}. */
  private static ArrayNode countStar() {
    ArrayNode colUnit = NODES.arrayNode().add(0).add(0).add(false);
    ArrayNode valUnit = NODES.arrayNode().add(0).add(colUnit).addNull();
    return NODES.arrayNode().add(false).add(NODES.arrayNode().add(NODES.arrayNode().add(3).add(valUnit)));
  }

  /** N2: the SELECT item at {@code itemPath} loses its aggregate and the aggregate's DISTINCT. */
  public static JsonNode dropAggregate(JsonNode sql, String itemPath) {
    JsonNode copy = sql.deepCopy();
    ArrayNode item = array(copy, itemPath);
    item.set(0, NODES.numberNode(0));
    ArrayNode colUnit = (ArrayNode) item.get(1).get(1);
    colUnit.set(0, NODES.numberNode(0));
    colUnit.set(2, NODES.booleanNode(false));
    return copy;
  }

  /** N1, N3: a bare column is appended to the top-level SELECT list. */
  public static JsonNode appendColumn(JsonNode sql, int columnId) {
    JsonNode copy = sql.deepCopy();
    ArrayNode colUnit = NODES.arrayNode().add(0).add(columnId).add(false);
    ArrayNode valUnit = NODES.arrayNode().add(0).add(colUnit).addNull();
    array(copy, "/select/1").add(NODES.arrayNode().add(0).add(valUnit));
    return copy;
  }

  private static ArrayNode array(JsonNode root, String path) {
    JsonNode node = root.at(JsonPointer.compile(path));
    if (!node.isArray()) {
      throw new IllegalArgumentException("AST " + path + " is not an array");
    }
    return (ArrayNode) node;
  }
}

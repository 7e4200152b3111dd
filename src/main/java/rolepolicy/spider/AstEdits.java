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

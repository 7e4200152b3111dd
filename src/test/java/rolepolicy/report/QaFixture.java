package rolepolicy.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * A hand-made generated dataset of eight dev records over two databases, with its policy files
 * and a Spider dev file whose ASTs are built here. Every figure a test expects is counted by hand
 * in the comments of {@link #records}.
 */
final class QaFixture {
  static final ObjectMapper JSON = new ObjectMapper();

  private QaFixture() {}

  /** Writes {@code data/dev.json}, {@code data/policies/*.json} and {@code spider/dev.json}. */
  static void write(Path data, Path spider) throws IOException {
    Files.createDirectories(data.resolve("policies"));
    Files.createDirectories(spider);
    JSON.writeValue(data.resolve("dev.json").toFile(), records());
    JSON.writeValue(
        data.resolve("policies/shop.json").toFile(),
        policyFile("shop", List.of(
            column("item", "item_id", "JoinOnly", "JoinOnly"),
            column("item", "name", "Public", "Public"),
            column("item", "price", "AggOnly", "AggOnly"),
            column("buyer", "buyer_id", "JoinOnly", "JoinOnly"),
            column("buyer", "email", "Hidden", "Hidden"))));
    JSON.writeValue(
        data.resolve("policies/zoo.json").toFile(),
        policyFile("zoo", List.of(
            column("animal", "animal_id", "JoinOnly", "JoinOnly"),
            column("animal", "name", "Public", "Public"),
            column("animal", "age", "Hidden", "Hidden"),
            column("keeper", "height", "Hidden", "Public"), // an override
            column("keeper", "name", "Public", "Public"))));
    JSON.writeValue(spider.resolve("dev.json").toFile(), spiderDev());
  }

  // Q1 violating: 2, 3, 4, 8 → 4 of 8. Q2 REFUSE: 2, 3, 4, 7 → 4 of 8.
  // shop (1–3): 2 REFUSE of 3; zoo (4–8): 2 REFUSE of 5.
  // Negatives: N1 on 1, 4, 8; N2 on 3; N3 on 2. None: 5 set operation, 6 no candidate, 7 unresolved.
  // One-edit check fails on 4 (two places edited) and 8 (introduced violation missing).
  // Violations: SelectExpr/JoinOnly 1 (2), AggArg/AggOnly 1 (3), WherePred/Hidden 1 (4),
  // SelectExpr/Hidden 2 (4, 8).
  static ArrayNode records() {
    ArrayNode records = JSON.createArrayNode();
    records.add(record("dev_0001", "shop", "SELECT name FROM item", List.of(), sql("SELECT name FROM item"),
        List.of(negative("SELECT name, buyer.email FROM item", "N1", List.of(v("buyer.email", "SelectExpr", "Hidden", 0)))), null));
    records.add(record("dev_0002", "shop", "SELECT item_id FROM item", List.of(v("item.item_id", "SelectExpr", "JoinOnly", 0)),
        refuse("R1_NO_CANDIDATE", "R1: refuse when the table has no other _id column", List.of()),
        List.of(negative("SELECT item_id, item.item_id FROM item", "N3",
            List.of(v("item.item_id", "SelectExpr", "JoinOnly", 0), v("item.item_id", "SelectExpr", "JoinOnly", 0)))), null));
    records.add(record("dev_0003", "shop", "SELECT max(price) FROM item", List.of(v("item.price", "AggArg", "AggOnly", 1)),
        refuse("R4", "R4: an AggOnly column under MAX, MIN or SUM cannot be rewritten", List.of()),
        List.of(negative("SELECT price FROM item", "N2", List.of(v("item.price", "SelectExpr", "AggOnly", 0)))), null));
    records.add(record("dev_0004", "zoo", "SELECT age FROM animal WHERE age > 3",
        List.of(v("animal.age", "SelectExpr", "Hidden", 0), v("animal.age", "WherePred", "Hidden", 0)),
        refuse("R3", "R3: a Hidden or AggOnly column in a join or filter cannot be rewritten", List.of()),
        List.of(negative("SELECT age, animal.age FROM animal WHERE age > 4", "N1",
            List.of(v("animal.age", "SelectExpr", "Hidden", 0), v("animal.age", "SelectExpr", "Hidden", 0)))), null));
    records.add(record("dev_0005", "zoo", "SELECT name FROM animal UNION SELECT name FROM keeper", List.of(),
        sql("SELECT name FROM animal UNION SELECT name FROM keeper"), List.of(), null));
    records.add(record("dev_0006", "zoo", "SELECT name FROM keeper", List.of(), sql("SELECT name FROM keeper"), List.of(), null));
    records.add(record("dev_0007", "zoo", "SELECT name FROM animal", List.of(),
        refuse("UNRESOLVED", "Refuse an unresolved query", List.of()), List.of(), List.of("column id 99 out of range at /select/1/0/1/1/1")));
    ObjectNode step = JSON.createObjectNode().put("step", 1).put("rule", "R1").put("column", "animal.age").put("replacement", "animal.animal_id");
    records.add(record("dev_0008", "zoo", "SELECT age FROM animal", List.of(v("animal.age", "SelectExpr", "Hidden", 0)),
        JSON.createObjectNode().put("type", "SQL").put("sql", "SELECT animal_id FROM animal").put("rule", "Answer when no violation is left")
            .set("steps", JSON.createArrayNode().add(step)),
        List.of(negative("SELECT age, animal.name FROM animal", "N1", List.of(v("animal.age", "SelectExpr", "Hidden", 0)))), null));
    return records;
  }

  private static ObjectNode record(
      String id, String db, String original, List<ObjectNode> violations, ObjectNode gold, List<ObjectNode> negatives, List<String> problems) {
    ObjectNode r = JSON.createObjectNode().put("id", id).put("db_id", db).put("question", "q").put("original_sql", original);
    // the final policies of the policy files below
    r.set("column_policies", db.equals("shop")
        ? JSON.createObjectNode().put("item.item_id", "JoinOnly").put("item.name", "Public").put("item.price", "AggOnly")
            .put("buyer.buyer_id", "JoinOnly").put("buyer.email", "Hidden")
        : JSON.createObjectNode().put("animal.animal_id", "JoinOnly").put("animal.name", "Public").put("animal.age", "Hidden")
            .put("keeper.height", "Public").put("keeper.name", "Public"));
    r.set("violations_original", JSON.valueToTree(violations));
    r.set("gold_label", gold);
    r.set("negative_examples", JSON.valueToTree(negatives));
    if (problems != null) {
      r.set("problems", JSON.valueToTree(problems));
    }
    return r;
  }

  static ObjectNode v(String column, String role, String policy, int agg) {
    return JSON.createObjectNode().put("column", column).put("role", role).put("policy", policy).put("agg_id", agg)
        .put("rule", role.equals("SelectExpr") ? policy + " columns may not be selected" : policy + " columns may not be used")
        .put("position", 0).put("path", "/select/1/0/1/1");
  }

  private static ObjectNode sql(String text) {
    ObjectNode gold = JSON.createObjectNode().put("type", "SQL").put("sql", text).put("rule", "Answer when no violation is left");
    gold.set("steps", JSON.createArrayNode());
    return gold;
  }

  private static ObjectNode refuse(String reason, String rule, List<ObjectNode> steps) {
    ObjectNode gold = JSON.createObjectNode().put("type", "REFUSE").put("reason", reason).put("rule", rule);
    gold.set("steps", JSON.valueToTree(steps));
    return gold;
  }

  private static ObjectNode negative(String sql, String rule, List<ObjectNode> violations) {
    ObjectNode n = JSON.createObjectNode().put("sql", sql);
    n.set("violations", JSON.valueToTree(violations));
    return n.put("rule", rule).put("rule_name", rule + ": ...").put("edit", "...");
  }

  private static ObjectNode column(String table, String name, String auto, String fin) {
    ObjectNode c = JSON.createObjectNode().put("column", table + "." + name).put("table", table).put("name", name)
        .put("type", "text").put("primary_key", false).put("auto_policy", auto).put("auto_rule", "rule for " + auto)
        .put("final_policy", fin);
    if (!auto.equals(fin)) {
      c.put("override_reason", "test").put("override_rule", "An override replaces the automatic policy");
    }
    return c;
  }

  private static ObjectNode policyFile(String db, List<ObjectNode> columns) {
    ObjectNode file = JSON.createObjectNode().put("db_id", db);
    file.set("columns", JSON.valueToTree(columns));
    return file;
  }

  // ---- Spider ASTs: 8 questions; JOIN 2 (2: two tables, 4: in a nested query), nested 2 (4, 5),
  // GROUP BY 1 (6), set operation 1 (5), SELECT * 1 (7), question 8 has no AST (unreadable).

  static ArrayNode spiderDev() {
    ArrayNode dev = JSON.createArrayNode();
    dev.add(spider("shop", query(List.of(0), Map.of())));
    dev.add(spider("shop", query(List.of(0, 1), Map.of())));
    dev.add(spider("shop", query(List.of(0), Map.of())));
    dev.add(spider("zoo", query(List.of(0), Map.of("whereNested", query(List.of(0, 1), Map.of())))));
    dev.add(spider("zoo", query(List.of(0), Map.of("union", query(List.of(1), Map.of())))));
    dev.add(spider("zoo", query(List.of(1), Map.of("groupBy", true))));
    dev.add(spider("zoo", query(List.of(0), Map.of("star", true))));
    ObjectNode broken = spider("zoo", null);
    broken.remove("sql");
    dev.add(broken);
    return dev;
  }

  private static ObjectNode spider(String db, ObjectNode sql) {
    ObjectNode q = JSON.createObjectNode().put("db_id", db).put("question", "q").put("query", "SELECT 1");
    q.set("sql", sql);
    return q;
  }

  /** A Spider AST over the given tables, selecting column 1 (or *), with optional parts. */
  static ObjectNode query(List<Integer> tables, Map<String, Object> parts) {
    ObjectNode q = JSON.createObjectNode();
    ObjectNode from = q.putObject("from");
    ArrayNode units = from.putArray("table_units");
    tables.forEach(t -> units.addArray().add("table_unit").add(t));
    ArrayNode conds = from.putArray("conds");
    if (tables.size() > 1) {
      conds.add(cond(colUnit(1)));
    }
    int col = Boolean.TRUE.equals(parts.get("star")) ? 0 : 1;
    ArrayNode select = q.putArray("select").add(false);
    select.addArray().addArray().add(0).add(valUnit(col));
    ArrayNode where = q.putArray("where");
    if (parts.get("whereNested") instanceof ObjectNode nested) {
      where.add(cond(nested));
    }
    ArrayNode groupBy = q.putArray("groupBy");
    if (Boolean.TRUE.equals(parts.get("groupBy"))) {
      groupBy.add(colUnit(1));
    }
    q.putArray("having");
    q.putArray("orderBy");
    q.putNull("limit");
    q.putNull("intersect");
    q.putNull("except");
    if (parts.get("union") instanceof ObjectNode union) {
      q.set("union", union);
    } else {
      q.putNull("union");
    }
    return q;
  }

  private static ArrayNode valUnit(int col) {
    ArrayNode vu = JSON.createArrayNode().add(0);
    vu.add(colUnit(col));
    vu.addNull();
    return vu;
  }

  private static ArrayNode colUnit(int col) {
    return JSON.createArrayNode().add(0).add(col).add(false);
  }

  /** {@code [not, op, val_unit, val1, val2]}: column 1 compared with {@code val1}. */
  private static ArrayNode cond(com.fasterxml.jackson.databind.JsonNode val1) {
    ArrayNode c = JSON.createArrayNode().add(false).add(2);
    c.add(valUnit(1));
    c.add(val1);
    c.addNull();
    return c;
  }
}

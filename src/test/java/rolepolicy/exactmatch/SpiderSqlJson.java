package rolepolicy.exactmatch;

import rolepolicy.exactmatch.SpiderSql;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import rolepolicy.exactmatch.SpiderSql.ColUnit;
import rolepolicy.exactmatch.SpiderSql.CondUnit;
import rolepolicy.exactmatch.SpiderSql.Condition;
import rolepolicy.exactmatch.SpiderSql.Literal;
import rolepolicy.exactmatch.SpiderSql.OrderBy;
import rolepolicy.exactmatch.SpiderSql.SelectItem;
import rolepolicy.exactmatch.SpiderSql.TableUnit;
import rolepolicy.exactmatch.SpiderSql.ValUnit;
import rolepolicy.exactmatch.SpiderSql.Value;

/**
 * Spider's own parsed {@code sql} object (the field of {@code dev.json}, made by {@code
 * process_sql.py}) read into {@link SpiderSql}, to compare with what the builder makes of the
 * query text. String values lose the double quotes Spider keeps around them.
 */
public final class SpiderSqlJson {
  private SpiderSqlJson() {}

  public static SpiderSql of(JsonNode sql) {
    if (sql == null || sql.isNull()) {
      return null;
    }
    JsonNode select = sql.get("select");
    List<SelectItem> items = new ArrayList<>();
    for (JsonNode item : select.get(1)) {
      items.add(new SelectItem(item.get(0).asInt(), valUnit(item.get(1))));
    }
    List<TableUnit> tables = new ArrayList<>();
    for (JsonNode unit : sql.at("/from/table_units")) {
      tables.add(unit.get(0).asText().equals("sql")
          ? new TableUnit(null, of(unit.get(1))) : new TableUnit(unit.get(1).asInt(), null));
    }
    List<ColUnit> groupBy = new ArrayList<>();
    sql.get("groupBy").forEach(c -> groupBy.add(colUnit(c)));
    JsonNode order = sql.get("orderBy");
    OrderBy orderBy = null;
    if (order.size() > 0) {
      List<ValUnit> units = new ArrayList<>();
      order.get(1).forEach(v -> units.add(valUnit(v)));
      orderBy = new OrderBy(order.get(0).asText(), units);
    }
    JsonNode limit = sql.get("limit");
    return new SpiderSql(
        select.get(0).asBoolean(), items, tables, condition(sql.at("/from/conds")), condition(sql.get("where")),
        groupBy, condition(sql.get("having")), orderBy, limit == null || limit.isNull() ? null : limit.asInt(),
        of(sql.get("intersect")), of(sql.get("union")), of(sql.get("except")));
  }

  private static Condition condition(JsonNode list) {
    if (list.isEmpty()) {
      return Condition.NONE;
    }
    List<CondUnit> units = new ArrayList<>();
    List<String> connectors = new ArrayList<>();
    for (JsonNode element : list) {
      if (element.isTextual()) {
        connectors.add(element.asText());
      } else {
        units.add(new CondUnit(element.get(0).asBoolean(), element.get(1).asInt(), valUnit(element.get(2)),
            value(element.get(3)), value(element.get(4))));
      }
    }
    return new Condition(units, connectors);
  }

  private static Value value(JsonNode v) {
    if (v == null || v.isNull()) {
      return null;
    }
    if (v.isObject()) {
      return new SpiderSql.Nested(of(v));
    }
    if (v.isArray()) {
      return colUnit(v);
    }
    if (v.isNumber()) {
      return new Literal(v.asDouble());
    }
    String text = v.asText(); // Spider keeps a string's quotes, as double quotes
    return new Literal(text.length() >= 2 && text.startsWith("\"") && text.endsWith("\"")
        ? text.substring(1, text.length() - 1) : text);
  }

  private static ValUnit valUnit(JsonNode v) {
    return new ValUnit(v.get(0).asInt(), colUnit(v.get(1)), v.get(2).isNull() ? null : colUnit(v.get(2)));
  }

  private static ColUnit colUnit(JsonNode c) {
    return new ColUnit(c.get(0).asInt(), c.get(1).asInt(), c.get(2).asBoolean());
  }

  /** The query with every literal replaced by null, at any depth: values aside. */
  public static SpiderSql withoutLiterals(SpiderSql sql) {
    if (sql == null) {
      return null;
    }
    List<TableUnit> tables = sql.tables().stream()
        .map(t -> t.query() == null ? t : new TableUnit(null, withoutLiterals(t.query()))).toList();
    return new SpiderSql(sql.distinct(), sql.select(), tables, withoutLiterals(sql.joinConditions()),
        withoutLiterals(sql.where()), sql.groupBy(), withoutLiterals(sql.having()), sql.orderBy(), sql.limit(),
        withoutLiterals(sql.intersect()), withoutLiterals(sql.union()), withoutLiterals(sql.except()));
  }

  private static Condition withoutLiterals(Condition condition) {
    return new Condition(condition.units().stream()
        .map(u -> new CondUnit(u.not(), u.op(), u.left(), withoutLiteral(u.first()), withoutLiteral(u.second())))
        .toList(), condition.connectors());
  }

  private static Value withoutLiteral(Value value) {
    return value instanceof SpiderSql.Nested nested ? new SpiderSql.Nested(withoutLiterals(nested.query()))
        : value instanceof Literal ? null : value;
  }
}

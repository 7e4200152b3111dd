package rolepolicy.spider;

import rolepolicy.model.QueryFacts;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import rolepolicy.model.Aggregate;
import rolepolicy.model.ColumnRef;
import rolepolicy.model.FromTable;
import rolepolicy.model.QueryShape;
import rolepolicy.model.Role;
import rolepolicy.model.SelectItem;

/**
 * Lists the column references of a Spider AST with role and effective aggregate, in the walk order
 * of SPEC §4. Never throws on a bad AST: what it cannot resolve is reported in {@link
 * QueryFacts#problems()}.
 */
public final class AstWalker {
  private static final String[] SET_OPERATIONS = {"intersect", "union", "except"};

  private final Schema schema;

  public AstWalker(Schema schema) {
    this.schema = schema;
  }

  public QueryFacts walk(JsonNode sql) {
    Walk walk = new Walk();
    if (sql == null || sql.isNull() || sql.isMissingNode()) {
      walk.problems.add("the record has no 'sql' AST");
    } else {
      try {
        walk.query(sql, "", null, true);
      } catch (MalformedAst e) {
        walk.problems.add(e.getMessage());
      }
    }
    List<ColumnRef> refs = new ArrayList<>(walk.refs);
    for (ColumnRef r : walk.clauseRefs) {
      refs.add(new ColumnRef(refs.size(), r.column(), r.role(), r.aggregate(), -1, r.path(), null));
    }
    return new QueryFacts(
        List.copyOf(refs),
        new QueryShape(walk.selectStar, !walk.problems.isEmpty(), walk.setOperation),
        List.copyOf(walk.problems),
        List.copyOf(walk.fromTables),
        List.copyOf(walk.selectItems),
        List.copyOf(walk.tables),
        List.copyOf(walk.starTables));
  }

  private static final class MalformedAst extends RuntimeException {
    MalformedAst(String path, String expected) {
      super("AST " + (path.isEmpty() ? "/" : path) + ": expected " + expected);
    }
  }

  private final class Walk {
    final List<ColumnRef> refs = new ArrayList<>();
    /** References in GROUP BY, HAVING and ORDER BY, which follow SPEC §4's; positions set at the end. */
    final List<ColumnRef> clauseRefs = new ArrayList<>();
    final List<String> problems = new ArrayList<>();
    final List<FromTable> fromTables = new ArrayList<>();
    final List<SelectItem> selectItems = new ArrayList<>();
    final Set<String> tables = new LinkedHashSet<>();
    /** The tables whose every column a {@code *} reads: the schema tables of its query's FROM. */
    final Set<String> starTables = new LinkedHashSet<>();
    boolean selectStar;
    boolean setOperation;

    /** predicateRole is the role of a query that is a condition operand, else null. */
    void query(JsonNode sql, String path, Role predicateRole, boolean topLevel) {
      object(sql, path);
      boolean starBefore = selectStar;
      selectStar = false;
      select(field(sql, "select", path), path + "/select", predicateRole, topLevel);
      boolean star = selectStar;
      selectStar |= starBefore;
      JsonNode from = object(field(sql, "from", path), path + "/from");
      conditions(field(from, "conds", path + "/from"), path + "/from/conds", Role.JoinCond, Role.JoinCond);
      List<String> read = tableUnits(field(from, "table_units", path + "/from"), path + "/from/table_units", topLevel);
      if (star) {
        starTables.addAll(read);
      }
      conditions(field(sql, "where", path), path + "/where", Role.WherePred, Role.WherePred);
      groupBy(sql.get("groupBy"), path + "/groupBy");
      conditions(field(sql, "having", path), path + "/having", Role.WherePred, Role.HavingPred);
      orderBy(sql.get("orderBy"), path + "/orderBy");
      for (String op : SET_OPERATIONS) {
        JsonNode part = sql.get(op);
        if (part != null && !part.isNull()) {
          setOperation |= topLevel;
          query(part, path + "/" + op, predicateRole, false);
        }
      }
    }

    void select(JsonNode select, String path, Role predicateRole, boolean topLevel) {
      JsonNode items = array(element(array(select, path), 1, path), path + "/1");
      for (int i = 0; i < items.size(); i++) {
        String itemPath = path + "/1/" + i;
        JsonNode item = array(items.get(i), itemPath);
        Aggregate itemAgg = aggregate(element(item, 0, itemPath), itemPath + "/0");
        String unitPath = itemPath + "/1";
        JsonNode valUnit = array(element(item, 1, itemPath), unitPath);
        String single = null;
        Aggregate firstAgg = Aggregate.NONE;
        for (int c = 1; c <= 2; c++) {
          JsonNode colUnit = valUnit.get(c);
          if (c == 2 && (colUnit == null || colUnit.isNull())) {
            break;
          }
          String cuPath = unitPath + "/" + c;
          Aggregate cuAgg = aggregate(element(array(colUnit, cuPath), 0, cuPath), cuPath + "/0");
          Aggregate agg = !itemAgg.none() ? itemAgg : cuAgg;
          if (c == 1) {
            firstAgg = agg;
          }
          int columnId = columnId(colUnit, cuPath);
          if (columnId == 0) {
            selectStar |= agg.none();
            continue;
          }
          Role role = !agg.none() ? Role.AggArg : predicateRole != null ? predicateRole : Role.SelectExpr;
          String key = columnKey(columnId, cuPath);
          if (key != null) {
            refs.add(new ColumnRef(refs.size(), key, role, agg, topLevel ? i : -1, cuPath, itemPath));
            single = c == 1 ? key : null;
          }
        }
        if (topLevel) {
          selectItems.add(new SelectItem(i, firstAgg, single, itemPath));
        }
      }
    }

    /**
     * Walks a condition list: its columns take {@code columnRole}; a nested query operand is walked
     * with the predicate role {@code role}.
     */
    void conditions(JsonNode conds, String path, Role role, Role columnRole) {
      array(conds, path);
      for (int k = 0; k < conds.size(); k++) {
        JsonNode cond = conds.get(k);
        if (cond.isTextual()) {
          continue; // "and" / "or"
        }
        String condPath = path + "/" + k;
        array(cond, condPath);
        valUnit(element(cond, 2, condPath), condPath + "/2", columnRole);
        for (int v = 3; v <= 4; v++) {
          JsonNode value = cond.get(v);
          String valuePath = condPath + "/" + v;
          if (value == null) {
            continue;
          } else if (value.isObject()) {
            query(value, valuePath, role, false);
          } else if (value.isArray()) {
            columnOperand(value, valuePath, columnRole);
          }
        }
      }
    }

    /** The columns of a {@code val_unit}, in the role given. */
    void valUnit(JsonNode valUnit, String path, Role role) {
      array(valUnit, path);
      for (int c = 1; c <= 2; c++) {
        JsonNode colUnit = valUnit.get(c);
        if (colUnit != null && !colUnit.isNull()) {
          columnOperand(colUnit, path + "/" + c, role);
        }
      }
    }

    /** {@code groupBy}: a list of {@code col_unit}s, GROUP BY keys. */
    void groupBy(JsonNode groupBy, String path) {
      if (groupBy == null || groupBy.isNull()) {
        return;
      }
      array(groupBy, path);
      for (int k = 0; k < groupBy.size(); k++) {
        columnOperand(groupBy.get(k), path + "/" + k, Role.GroupKey);
      }
    }

    /** {@code orderBy}: empty, or {@code [direction, [val_unit, ...]]}, ORDER BY keys. */
    void orderBy(JsonNode orderBy, String path) {
      if (orderBy == null || orderBy.isNull() || (orderBy.isArray() && orderBy.isEmpty())) {
        return;
      }
      JsonNode units = array(element(array(orderBy, path), 1, path), path + "/1");
      for (int k = 0; k < units.size(); k++) {
        valUnit(units.get(k), path + "/1/" + k, Role.OrderKey);
      }
    }

    void columnOperand(JsonNode colUnit, String path, Role role) {
      array(colUnit, path);
      Aggregate agg = aggregate(element(colUnit, 0, path), path + "/0");
      int columnId = columnId(colUnit, path);
      if (columnId == 0) {
        return; // COUNT(*) and the like: always allowed
      }
      String key = columnKey(columnId, path);
      if (key != null && role.unjudgedInSpec()) {
        clauseRefs.add(new ColumnRef(-1, key, role, agg, -1, path, null));
      } else if (key != null) {
        refs.add(new ColumnRef(refs.size(), key, role, agg, -1, path, null));
      }
    }

    /** Walks a FROM list; returns the schema tables it names (not those of nested queries). */
    List<String> tableUnits(JsonNode units, String path, boolean topLevel) {
      array(units, path);
      List<String> named = new ArrayList<>();
      for (int j = 0; j < units.size(); j++) {
        String unitPath = path + "/" + j;
        JsonNode unit = array(units.get(j), unitPath);
        String kind = element(unit, 0, unitPath).asText();
        JsonNode target = element(unit, 1, unitPath);
        if ("sql".equals(kind)) {
          query(target, unitPath + "/1", null, false);
        } else if ("table_unit".equals(kind)) {
          int table = integer(target, unitPath + "/1");
          if (table < 0 || table >= schema.tables().size()) {
            problems.add("AST " + unitPath + "/1: table " + table + " is not in " + schema.dbId());
            continue;
          }
          String name = schema.tables().get(table);
          tables.add(name);
          named.add(name);
          if (topLevel) {
            fromTables.add(new FromTable(name, fromTables.size()));
          }
        } else {
          throw new MalformedAst(unitPath + "/0", "\"table_unit\" or \"sql\"");
        }
      }
      return named;
    }

    int columnId(JsonNode colUnit, String path) {
      return integer(element(colUnit, 1, path), path + "/1");
    }

    /** The key of a column id, or null (and a problem noted) when the id is out of range. */
    String columnKey(int columnId, String path) {
      if (!schema.hasColumnIndex(columnId)) {
        problems.add(
            "AST " + path + "/1: column id " + columnId + " is out of range for " + schema.dbId());
        return null;
      }
      return schema.key(columnId);
    }
  }

  private static JsonNode field(JsonNode node, String name, String path) {
    JsonNode value = node.get(name);
    if (value == null) {
      throw new MalformedAst(path + "/" + name, "a field '" + name + "'");
    }
    return value;
  }

  private static JsonNode element(JsonNode array, int index, String path) {
    JsonNode value = array.get(index);
    if (value == null) {
      throw new MalformedAst(path + "/" + index, "an element");
    }
    return value;
  }

  private static JsonNode object(JsonNode node, String path) {
    if (node == null || !node.isObject()) {
      throw new MalformedAst(path, "an object");
    }
    return node;
  }

  private static JsonNode array(JsonNode node, String path) {
    if (node == null || !node.isArray()) {
      throw new MalformedAst(path, "an array");
    }
    return node;
  }

  private static Aggregate aggregate(JsonNode node, String path) {
    int id = integer(node, path);
    if (id < 0 || id > Aggregate.AVG.id()) {
      throw new MalformedAst(path, "an aggregate id from 0 to " + Aggregate.AVG.id());
    }
    return Aggregate.of(id);
  }

  private static int integer(JsonNode node, String path) {
    if (node == null || !node.isIntegralNumber() || !node.canConvertToInt()) {
      throw new MalformedAst(path, "an integer");
    }
    return node.asInt();
  }
}

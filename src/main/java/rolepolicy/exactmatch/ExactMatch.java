package rolepolicy.exactmatch;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Function;
import rolepolicy.exactmatch.SpiderSql.ColUnit;
import rolepolicy.exactmatch.SpiderSql.CondUnit;
import rolepolicy.exactmatch.SpiderSql.Condition;
import rolepolicy.exactmatch.SpiderSql.OrderBy;
import rolepolicy.exactmatch.SpiderSql.SelectItem;
import rolepolicy.exactmatch.SpiderSql.TableUnit;
import rolepolicy.exactmatch.SpiderSql.ValUnit;
import rolepolicy.spider.Schema;

/**
 * Spider's exact set match ({@code evaluation.py}, {@code eval_exact_match}) on one schema: both
 * queries lose their values ({@code rebuild_sql_val}) and have foreign-key columns replaced by the
 * first column of their key group ({@code rebuild_sql_col}, DISTINCT dropped), then ten components
 * are compared as sets, and the FROM table units as a multiset; the queries match when all agree.
 */
public final class ExactMatch {
  /** The components Spider compares, named as Spider's partial scores. */
  public enum Component {
    SELECT("select"),
    SELECT_NO_AGG("select(no AGG)"),
    WHERE("where"),
    WHERE_NO_OP("where(no OP)"),
    GROUP_NO_HAVING("group(no Having)"),
    GROUP("group"),
    ORDER("order"),
    AND_OR("and/or"),
    IUEN("IUEN"),
    KEYWORDS("keywords"),
    /** The FROM table units, which Spider compares after the ten partial scores. */
    TABLES("table units");

    private final String label;

    Component(String label) {
      this.label = label;
    }

    public String label() {
      return label;
    }
  }

  private final Schema schema;
  /** Each column's replacement: the first column of its foreign-key group, or -1. */
  private final int[] foreignKeyMap;

  public ExactMatch(Schema schema) {
    this.schema = schema;
    this.foreignKeyMap = foreignKeyMap(schema);
  }

  /** Whether the prediction matches the gold query exactly. */
  public boolean matches(SpiderSql predicted, SpiderSql gold) {
    return differences(predicted, gold).isEmpty();
  }

  /** The components in which the prediction differs from the gold query; empty when they match. */
  public List<Component> differences(SpiderSql predicted, SpiderSql gold) {
    return compare(normalise(predicted), normalise(gold));
  }

  /**
   * Spider's {@code build_foreign_key_map}: foreign-key pairs are grouped (a pair joins the first
   * group holding either column, else starts one) and every column of a group maps to the group's
   * lowest column index.
   */
  static int[] foreignKeyMap(Schema schema) {
    List<Set<Integer>> groups = new ArrayList<>();
    for (Schema.ForeignKey key : schema.foreignKeys()) {
      Set<Integer> group = null;
      for (Set<Integer> g : groups) {
        if (g.contains(key.column()) || g.contains(key.references())) {
          group = g;
          break;
        }
      }
      if (group == null) {
        group = new HashSet<>();
        groups.add(group);
      }
      group.add(key.column());
      group.add(key.references());
    }
    int[] map = new int[schema.columns().size()];
    Arrays.fill(map, -1);
    for (Set<Integer> group : groups) {
      int first = Collections.min(group);
      for (int column : group) {
        map[column] = first;
      }
    }
    return map;
  }

  /** {@code rebuild_sql_val}, then {@code rebuild_sql_col} with the top-level FROM's tables. */
  SpiderSql normalise(SpiderSql sql) {
    Set<String> tables = new HashSet<>();
    for (TableUnit unit : sql.tables()) {
      if (unit.table() != null) {
        tables.add(schema.tables().get(unit.table()));
      }
    }
    return withColumnsMapped(withoutValues(sql), tables);
  }

  /**
   * Spider's {@code rebuild_sql_val}: the values of FROM's, WHERE's and HAVING's conditions are
   * dropped; nested queries there keep their structure, rebuilt the same way, as do the
   * set-operation parts. FROM's nested queries are left as they are.
   */
  static SpiderSql withoutValues(SpiderSql sql) {
    if (sql == null) {
      return null;
    }
    return new SpiderSql(
        sql.distinct(), sql.select(), sql.tables(),
        withoutValues(sql.joinConditions()), withoutValues(sql.where()), sql.groupBy(), withoutValues(sql.having()),
        sql.orderBy(), sql.limit(),
        withoutValues(sql.intersect()), withoutValues(sql.union()), withoutValues(sql.except()));
  }

  private static Condition withoutValues(Condition condition) {
    List<CondUnit> units = new ArrayList<>();
    for (CondUnit u : condition.units()) {
      units.add(new CondUnit(u.not(), u.op(), u.left(), nestedOnly(u.first()), nestedOnly(u.second())));
    }
    return new Condition(units, condition.connectors());
  }

  private static SpiderSql.Nested nestedOnly(SpiderSql.Value value) {
    return value instanceof SpiderSql.Nested nested ? new SpiderSql.Nested(withoutValues(nested.query())) : null;
  }

  /**
   * Spider's {@code rebuild_sql_col}: every column unit of SELECT, of the left side of FROM's,
   * WHERE's and HAVING's conditions, of GROUP BY and ORDER BY — of this query and its set-operation
   * parts — loses DISTINCT and, when its table is in the top-level FROM, stands for its foreign-key
   * group's first column. Nested queries in conditions and in FROM are left as they are.
   */
  private SpiderSql withColumnsMapped(SpiderSql sql, Set<String> tables) {
    if (sql == null) {
      return null;
    }
    List<SelectItem> select = new ArrayList<>();
    for (SelectItem item : sql.select()) {
      select.add(new SelectItem(item.agg(), mapped(item.value(), tables)));
    }
    List<ColUnit> groupBy = new ArrayList<>();
    for (ColUnit unit : sql.groupBy()) {
      groupBy.add(mapped(unit, tables));
    }
    OrderBy orderBy = null;
    if (sql.orderBy() != null) {
      List<ValUnit> items = new ArrayList<>();
      for (ValUnit item : sql.orderBy().items()) {
        items.add(mapped(item, tables));
      }
      orderBy = new OrderBy(sql.orderBy().direction(), items);
    }
    return new SpiderSql(
        false, select, sql.tables(),
        mapped(sql.joinConditions(), tables), mapped(sql.where(), tables), groupBy, mapped(sql.having(), tables),
        orderBy, sql.limit(),
        withColumnsMapped(sql.intersect(), tables), withColumnsMapped(sql.union(), tables),
        withColumnsMapped(sql.except(), tables));
  }

  private Condition mapped(Condition condition, Set<String> tables) {
    List<CondUnit> units = new ArrayList<>();
    for (CondUnit u : condition.units()) {
      units.add(new CondUnit(u.not(), u.op(), mapped(u.left(), tables), u.first(), u.second()));
    }
    return new Condition(units, condition.connectors());
  }

  private ValUnit mapped(ValUnit value, Set<String> tables) {
    return new ValUnit(
        value.op(), mapped(value.left(), tables), value.right() == null ? null : mapped(value.right(), tables));
  }

  private ColUnit mapped(ColUnit unit, Set<String> tables) {
    int column = unit.column();
    if (foreignKeyMap[column] >= 0 && tables.contains(schema.column(column).table())) {
      column = foreignKeyMap[column];
    }
    return new ColUnit(unit.agg(), column, false);
  }

  /** {@code eval_exact_match} on two normalised queries: the components that differ. */
  private List<Component> compare(SpiderSql pred, SpiderSql gold) {
    List<Component> differ = new ArrayList<>();
    check(differ, Component.SELECT, sameMultiset(pred.select(), gold.select(), x -> x));
    check(differ, Component.SELECT_NO_AGG, sameMultiset(pred.select(), gold.select(), SelectItem::value));
    check(differ, Component.WHERE, sameMultiset(pred.where().units(), gold.where().units(), x -> x));
    check(differ, Component.WHERE_NO_OP, sameMultiset(pred.where().units(), gold.where().units(), CondUnit::left));
    check(differ, Component.GROUP_NO_HAVING, sameMultiset(pred.groupBy(), gold.groupBy(), this::columnName));
    check(differ, Component.GROUP, sameGroup(pred, gold));
    check(differ, Component.ORDER, sameOrder(pred, gold));
    check(differ, Component.AND_OR,
        new HashSet<>(pred.where().connectors()).equals(new HashSet<>(gold.where().connectors())));
    check(differ, Component.IUEN, sameSetOperations(pred, gold));
    check(differ, Component.KEYWORDS, keywords(pred).equals(keywords(gold)));
    check(differ, Component.TABLES, gold.tables().isEmpty() || sameMultiset(pred.tables(), gold.tables(), x -> x));
    return differ;
  }

  private static void check(List<Component> differ, Component component, boolean same) {
    if (!same) {
      differ.add(component);
    }
  }

  /**
   * Spider's partial score is 1 only when both sides have as many units and every predicted unit
   * finds an unused equal gold unit: the same multiset.
   */
  static <T, K> boolean sameMultiset(List<T> pred, List<T> gold, Function<T, K> key) {
    if (pred.size() != gold.size()) {
      return false;
    }
    List<K> left = new ArrayList<>();
    for (T g : gold) {
      left.add(key.apply(g));
    }
    for (T p : pred) {
      if (!left.remove(key.apply(p))) {
        return false;
      }
    }
    return true;
  }

  /** {@code eval_group} compares GROUP BY columns by name alone, without their table. */
  private String columnName(ColUnit unit) {
    return unit.column() == 0 ? "*" : schema.column(unit.column()).name().toLowerCase(Locale.ROOT);
  }

  /**
   * {@code eval_having}: with GROUP BY on both sides, the same GROUP BY columns in the same order
   * and the same HAVING; without GROUP BY on either side, a match.
   */
  private static boolean sameGroup(SpiderSql pred, SpiderSql gold) {
    boolean p = !pred.groupBy().isEmpty();
    boolean g = !gold.groupBy().isEmpty();
    if (p != g) {
      return false;
    }
    return !g || (columns(pred.groupBy()).equals(columns(gold.groupBy())) && pred.having().equals(gold.having()));
  }

  private static List<Integer> columns(List<ColUnit> units) {
    return units.stream().map(ColUnit::column).toList();
  }

  /**
   * {@code eval_order}: the same ORDER BY (direction and items in order), and LIMIT on both sides or
   * on neither; its value is not compared.
   */
  private static boolean sameOrder(SpiderSql pred, SpiderSql gold) {
    if ((pred.orderBy() == null) != (gold.orderBy() == null)) {
      return false;
    }
    return gold.orderBy() == null
        || (pred.orderBy().equals(gold.orderBy()) && (pred.limit() == null) == (gold.limit() == null));
  }

  /** {@code eval_IUEN}: the same set operations, each part matching exactly. */
  private boolean sameSetOperations(SpiderSql pred, SpiderSql gold) {
    return sameSetOperation(pred.intersect(), gold.intersect())
        && sameSetOperation(pred.union(), gold.union())
        && sameSetOperation(pred.except(), gold.except());
  }

  private boolean sameSetOperation(SpiderSql pred, SpiderSql gold) {
    if (pred == null || gold == null) {
      return pred == gold;
    }
    return compare(pred, gold).isEmpty();
  }

  /** Spider's {@code get_keywords}. */
  static Set<String> keywords(SpiderSql sql) {
    Set<String> keywords = new LinkedHashSet<>();
    if (!sql.where().isEmpty()) {
      keywords.add("where");
    }
    if (!sql.groupBy().isEmpty()) {
      keywords.add("group");
    }
    if (!sql.having().isEmpty()) {
      keywords.add("having");
    }
    if (sql.orderBy() != null) {
      keywords.add(sql.orderBy().direction());
      keywords.add("order");
    }
    if (sql.limit() != null) {
      keywords.add("limit");
    }
    if (sql.except() != null) {
      keywords.add("except");
    }
    if (sql.union() != null) {
      keywords.add("union");
    }
    if (sql.intersect() != null) {
      keywords.add("intersect");
    }
    List<Condition> conditions = List.of(sql.joinConditions(), sql.where(), sql.having());
    for (Condition condition : conditions) {
      if (condition.connectors().contains("or")) {
        keywords.add("or");
      }
      for (CondUnit unit : condition.units()) {
        if (unit.not()) {
          keywords.add("not");
        }
        if (unit.op() == SpiderSql.IN) {
          keywords.add("in");
        }
        if (unit.op() == SpiderSql.LIKE) {
          keywords.add("like");
        }
      }
    }
    return keywords;
  }
}

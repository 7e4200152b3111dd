package rolepolicy.exactmatch;

import java.util.List;
import java.util.Locale;
import rolepolicy.exactmatch.SpiderSql.ColUnit;
import rolepolicy.exactmatch.SpiderSql.CondUnit;
import rolepolicy.exactmatch.SpiderSql.Condition;
import rolepolicy.exactmatch.SpiderSql.SelectItem;
import rolepolicy.exactmatch.SpiderSql.ValUnit;

/**
 * Spider's hardness levels ({@code evaluation.py}, {@code eval_hardness}), from three counts of a
 * query's top level: component 1 (WHERE, GROUP BY, ORDER BY, LIMIT, each JOIN, each OR, each LIKE),
 * component 2 (nested queries in conditions and set-operation parts) and others (more than one
 * aggregate, more than one SELECT item, more than one WHERE condition, more than one GROUP BY
 * column).
 */
public enum Hardness {
  EASY,
  MEDIUM,
  HARD,
  EXTRA;

  /** The level's name as Spider prints it: easy, medium, hard, extra. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static Hardness of(SpiderSql sql) {
    int component1 = component1(sql);
    int component2 = component2(sql);
    int others = others(sql);
    if (component1 <= 1 && others == 0 && component2 == 0) {
      return EASY;
    }
    if ((others <= 2 && component1 <= 1 && component2 == 0)
        || (component1 <= 2 && others < 2 && component2 == 0)) {
      return MEDIUM;
    }
    if ((others > 2 && component1 <= 2 && component2 == 0)
        || (2 < component1 && component1 <= 3 && others <= 2 && component2 == 0)
        || (component1 <= 1 && others == 0 && component2 <= 1)) {
      return HARD;
    }
    return EXTRA;
  }

  /** {@code count_component1}. */
  static int component1(SpiderSql sql) {
    int count = 0;
    count += sql.where().isEmpty() ? 0 : 1;
    count += sql.groupBy().isEmpty() ? 0 : 1;
    count += sql.orderBy() == null ? 0 : 1;
    count += sql.limit() == null ? 0 : 1;
    count += Math.max(0, sql.tables().size() - 1);
    for (Condition condition : conditions(sql)) {
      count += (int) condition.connectors().stream().filter("or"::equals).count();
      count += (int) condition.units().stream().filter(u -> u.op() == SpiderSql.LIKE).count();
    }
    return count;
  }

  /** {@code count_component2}: nested queries in conditions, and set-operation parts. */
  static int component2(SpiderSql sql) {
    int count = 0;
    for (Condition condition : conditions(sql)) {
      for (CondUnit unit : condition.units()) {
        count += unit.first() instanceof SpiderSql.Nested ? 1 : 0;
        count += unit.second() instanceof SpiderSql.Nested ? 1 : 0;
      }
    }
    count += sql.intersect() == null ? 0 : 1;
    count += sql.union() == null ? 0 : 1;
    count += sql.except() == null ? 0 : 1;
    return count;
  }

  /**
   * {@code count_others}. Spider counts "aggregates" with a test that reads the first field of
   * each unit: for a WHERE or HAVING condition that is its NOT flag, and every AND / OR of HAVING
   * counts too. Ported as it is, so that the levels are Spider's.
   */
  static int others(SpiderSql sql) {
    int aggregates = 0;
    for (SelectItem item : sql.select()) {
      aggregates += item.agg() != 0 ? 1 : 0;
    }
    for (CondUnit unit : sql.where().units()) {
      aggregates += unit.not() ? 1 : 0;
    }
    for (ColUnit unit : sql.groupBy()) {
      aggregates += unit.agg() != 0 ? 1 : 0;
    }
    if (sql.orderBy() != null) {
      for (ValUnit item : sql.orderBy().items()) {
        aggregates += item.left().agg() != 0 ? 1 : 0;
      }
      for (ValUnit item : sql.orderBy().items()) {
        aggregates += item.right() != null && item.right().agg() != 0 ? 1 : 0;
      }
    }
    for (CondUnit unit : sql.having().units()) {
      aggregates += unit.not() ? 1 : 0;
    }
    aggregates += sql.having().connectors().size();
    int count = 0;
    count += aggregates > 1 ? 1 : 0;
    count += sql.select().size() > 1 ? 1 : 0;
    count += sql.where().units().size() > 1 ? 1 : 0;
    count += sql.groupBy().size() > 1 ? 1 : 0;
    return count;
  }

  private static List<Condition> conditions(SpiderSql sql) {
    return List.of(sql.joinConditions(), sql.where(), sql.having());
  }
}

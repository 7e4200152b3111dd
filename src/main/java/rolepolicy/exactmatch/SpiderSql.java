package rolepolicy.exactmatch;

import java.util.List;
import rolepolicy.spider.Schema;

/**
 * A query in Spider's SQL structure, the dictionary that Spider's {@code process_sql.py} builds and
 * that its {@code evaluation.py} compares (the {@code sql} field of Spider's files): SELECT items
 * with aggregate ids, FROM table units and join conditions, WHERE, GROUP BY, HAVING, ORDER BY,
 * LIMIT and one INTERSECT / UNION / EXCEPT part. Column ids are indexes into the schema's {@code
 * column_names_original} (0 is {@code *}), table ids indexes into {@code table_names_original}.
 * Records compare by value, as Spider compares its tuples and dictionaries.
 *
 * @param distinct SELECT DISTINCT
 * @param select the SELECT items, in order
 * @param tables the FROM table units, in order
 * @param joinConditions the ON conditions of all joins ({@code from.conds})
 * @param orderBy null when there is no ORDER BY
 * @param limit null when there is no LIMIT
 * @param intersect the query after INTERSECT, or null (likewise {@code union} and {@code except})
 */
public record SpiderSql(
    boolean distinct,
    List<SelectItem> select,
    List<TableUnit> tables,
    Condition joinConditions,
    Condition where,
    List<ColUnit> groupBy,
    Condition having,
    OrderBy orderBy,
    Integer limit,
    SpiderSql intersect,
    SpiderSql union,
    SpiderSql except) {


  /** Spider's {@code UNIT_OPS}: none, -, +, *, /. */
  public static final List<String> UNIT_OPS = List.of("none", "-", "+", "*", "/");

  /** Spider's {@code WHERE_OPS}. */
  public static final List<String> WHERE_OPS =
      List.of("not", "between", "=", ">", "<", ">=", "<=", "!=", "in", "like", "is", "exists");

  public static final int BETWEEN = 1;
  public static final int IN = 8;
  public static final int LIKE = 9;
  public static final int IS = 10;

  /** What a condition compares with: a literal, a column, or a nested query. */
  public sealed interface Value permits Literal, ColUnit, Nested {}

  /** A nested query as a condition's value. */
  public record Nested(SpiderSql query) implements Value {}

  /**
   * A column with its own aggregate ({@code col_unit}); column 0 is {@code *}.
   *
   * @param distinct {@code count(DISTINCT x)}
   */
  public record ColUnit(int agg, int column, boolean distinct) implements Value {}

  /** A column, or two joined by an arithmetic operator ({@code val_unit}); right is null for none. */
  public record ValUnit(int op, ColUnit left, ColUnit right) {}

  /** A SELECT item: its aggregate and its value. */
  public record SelectItem(int agg, ValUnit value) {}

  /**
   * A condition unit ({@code cond_unit}): {@code left [NOT] op first [AND second]}; second is
   * BETWEEN's upper bound, else null. Values are null once dropped for comparison.
   */
  public record CondUnit(boolean not, int op, ValUnit left, Value first, Value second) {}

  /**
   * A condition: its units joined, in text order, by {@code connectors} ("and" / "or"), one fewer
   * than the units; Spider's alternating list.
   */
  public record Condition(List<CondUnit> units, List<String> connectors) {
    public static final Condition NONE = new Condition(List.of(), List.of());

    public boolean isEmpty() {
      return units.isEmpty();
    }
  }

  /** A FROM entry: a schema table (its index), or a nested query. */
  public record TableUnit(Integer table, SpiderSql query) {}

  /**
   * ORDER BY: Spider keeps one direction for the whole clause, the last one written ("asc" when
   * none is).
   */
  public record OrderBy(String direction, List<ValUnit> items) {}

  /**
   * A literal: a number (as a double), a string, SQL NULL ({@link #NULL}) or the list of an IN.
   */
  public record Literal(Object value) implements Value {
    public static final Literal NULL = new Literal(Keyword.NULL);
  }

  /** SQL keywords that stand as literals. */
  public enum Keyword {
    NULL
  }

  /**
   * The structure of one query, resolved against the schema. Parsed with {@link
   * rolepolicy.sql.SqlAnalyzer#parseSelect}; anything Spider's grammar has no place for, and names
   * the schema does not have, throw {@link SpiderSqlException} saying what.
   */
  public static SpiderSql parse(String sql, Schema schema) {
    try {
      return SpiderSqlBuilder.build(sql, schema);
    } catch (StackOverflowError e) {
      throw new SpiderSqlException("SQL text nested too deeply");
    }
  }

  /** This query with one set-operation part set: "intersect", "union" or "except". */
  public SpiderSql withSetOperation(String operation, SpiderSql part) {
    return new SpiderSql(
        distinct, select, tables, joinConditions, where, groupBy, having, orderBy, limit,
        operation.equals("intersect") ? part : intersect,
        operation.equals("union") ? part : union,
        operation.equals("except") ? part : except);
  }
}

package rolepolicy.ports;

import rolepolicy.exactmatch.SpiderSql;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import rolepolicy.exactmatch.SpiderSql.ColUnit;
import rolepolicy.exactmatch.SpiderSql.CondUnit;
import rolepolicy.exactmatch.SpiderSql.Condition;
import rolepolicy.exactmatch.SpiderSql.Literal;
import rolepolicy.exactmatch.SpiderSql.Nested;
import rolepolicy.exactmatch.SpiderSql.OrderBy;
import rolepolicy.exactmatch.SpiderSql.SelectItem;
import rolepolicy.exactmatch.SpiderSql.TableUnit;
import rolepolicy.exactmatch.SpiderSql.ValUnit;
import rolepolicy.exactmatch.SpiderSql.Value;
import rolepolicy.model.SchemaColumn;
import rolepolicy.spider.Schema;

/**
 * Spider's structure as Spider's own {@code process_sql.py} reads SQL text, faults included, so that
 * exact match can be counted as Spider's {@code evaluation.py} counts it: the script scores a text
 * its parser fails on as the empty query, which matches nothing. Its reading, step by step: single
 * quotes become double quotes and every quoted stretch is one token (an odd number of quotes
 * fails); the rest is split as NLTK's {@code word_tokenize} splits it (on spaces, parentheses,
 * {@code , ; * ! < >}, not on {@code = - + /} or dots) and lower-cased; {@code ! > <} before {@code
 * =} join it. Every {@code x AS y} anywhere makes y an alias of x for the whole text. Then the
 * clauses in a fixed order (FROM first, then SELECT, WHERE, GROUP BY, HAVING, ORDER BY, LIMIT, one
 * set operation); whatever follows is ignored. So, among others, these fail: {@code INNER JOIN}
 * (INNER is read as a table), a quoted name ({@code "Name"}, {@code `Name`}: not a column or table
 * of the schema), a SELECT alias ({@code AS} is read as a column), {@code IS [NOT] NULL},
 * {@code <>}, and {@code a=b} without spaces (one token).
 *
 * <p>The schema is {@code tables.json}'s, lower-cased, where the script reads each SQLite file's (the
 * same on every database at hand). Checked against the real script, question by question:
 * ExactMatchScriptReferenceTest.
 */
public final class SpiderScript {
  /** Why the script's parser fails on a text: the exception it would raise, in words. */
  public static final class Failure extends RuntimeException {
    Failure(String message) {
      super(message);
    }
  }

  private static final List<String> CLAUSE_KEYWORDS =
      List.of("select", "from", "where", "group", "order", "limit", "intersect", "union", "except");
  private static final List<String> JOIN_KEYWORDS = List.of("join", "on", "as");
  private static final List<String> WHERE_OPS = SpiderSql.WHERE_OPS;
  private static final List<String> UNIT_OPS = SpiderSql.UNIT_OPS;
  /** process_sql.py's {@code AGG_OPS}. */
  private static final List<String> AGG_OPS = List.of("none", "max", "min", "count", "sum", "avg");
  private static final List<String> COND_OPS = List.of("and", "or");
  private static final List<String> SQL_OPS = List.of("intersect", "union", "except");
  private static final List<String> ORDER_OPS = List.of("desc", "asc");
  private static final Pattern NUMBER = Pattern.compile(
      "\\s*[+-]?((\\d(_?\\d)*(\\.(\\d(_?\\d)*)?)?|\\.\\d(_?\\d)*)([eE][+-]?\\d(_?\\d)*)?|inf|infinity|nan)\\s*");
  private static final Pattern INTEGER = Pattern.compile("\\s*[+-]?\\d(_?\\d)*\\s*");

  private final List<String> toks;
  private final Map<String, String> tablesWithAlias;
  private final Map<String, Integer> columnIds = new HashMap<>();
  private final Map<String, Integer> tableIds = new HashMap<>();
  private final Map<String, List<String>> tableColumns = new HashMap<>();

  private SpiderScript(List<String> toks, Schema schema) {
    this.toks = toks;
    for (int t = 0; t < schema.tables().size(); t++) {
      String table = lower(schema.tables().get(t));
      tableIds.putIfAbsent(table, t);
      tableColumns.putIfAbsent(table, new ArrayList<>());
    }
    for (SchemaColumn c : schema.realColumns()) {
      String table = lower(c.table());
      tableColumns.get(table).add(lower(c.name()));
      columnIds.putIfAbsent(table + "." + lower(c.name()), c.index());
    }
    tablesWithAlias = tablesWithAlias();
  }

  /** The text's structure as the script reads it; {@link Failure} where the script raises. */
  public static SpiderSql parse(String sql, Schema schema) {
    try {
      SpiderScript script = new SpiderScript(SpiderScriptTokens.tokenize(sql), schema);
      return script.parseSql(0).value;
    } catch (StackOverflowError e) {
      throw new Failure("RecursionError: SQL text nested too deeply");
    }
  }

  private static String lower(String s) {
    return s.toLowerCase(Locale.ROOT);
  }

  private String tok(int i) {
    if (i < 0 || i >= toks.size()) {
      throw new Failure("IndexError: the text ends where the parser expects more");
    }
    return toks.get(i);
  }

  private boolean at(int i, String expected) {
    return i < toks.size() && toks.get(i).equals(expected);
  }

  private static void check(boolean condition, String message) {
    if (!condition) {
      throw new Failure("AssertionError: " + message);
    }
  }

  /** Each {@code x AS y} makes y name x; a table name may not be such an alias. */
  private Map<String, String> tablesWithAlias() {
    Map<String, String> alias = new HashMap<>();
    for (int i = 0; i < toks.size(); i++) {
      if (toks.get(i).equals("as")) {
        alias.put(tok(i + 1), toks.get(Math.floorMod(i - 1, toks.size())));
      }
    }
    for (String table : tableColumns.keySet()) {
      check(!alias.containsKey(table), "Alias " + table + " has the same name in table");
      alias.put(table, table);
    }
    return alias;
  }

  private String table(String name) {
    String table = tablesWithAlias.get(name);
    if (table == null) {
      throw new Failure("KeyError: " + name + " is neither a table nor an alias" + quirk(name, true));
    }
    return table;
  }

  /** The form of SQL behind a token the parser fails on, where it is a known one. */
  private static String quirk(String tok, boolean table) {
    if (List.of("inner", "left", "right", "full", "cross", "natural", "outer").contains(tok)) {
      return " (" + tok.toUpperCase(Locale.ROOT) + " JOIN: the script reads " + tok.toUpperCase(Locale.ROOT)
          + " as a table name)";
    }
    if (tok.startsWith("\"")) {
      return " (a double-quoted name: the script reads it as a string)";
    }
    if (tok.startsWith("`")) {
      return " (a backquoted name: the script reads the backquote as a name)";
    }
    if (tok.equals("as")) {
      return " (a SELECT alias: the script reads AS as a column)";
    }
    if (tok.equals("null") || tok.equals("not")) {
      return " (IS [NOT] NULL: the script reads NULL as a column)";
    }
    if (table && tok.matches("[a-z_][a-z0-9_]*")) {
      return " (an alias without AS, or a name the schema lacks: the script knows aliases only from AS)";
    }
    if (tok.contains("=") && tok.length() > 1) {
      return " (a comparison without spaces around =: one token to the script)";
    }
    if (tok.equals("<") || tok.equals(">")) {
      return " (<>: the script reads > as a column)";
    }
    return "";
  }

  private int columnId(String key) {
    if (key.equals("*")) {
      return 0;
    }
    Integer id = columnIds.get(key);
    if (id == null) {
      throw new Failure("KeyError: no column " + key);
    }
    return id;
  }

  private record Parsed<T>(int idx, T value) {}

  private Parsed<Integer> parseCol(List<String> toks, int start, List<String> defaultTables) {
    String tok = toks.get(start);
    if (tok.equals("*")) {
      return new Parsed<>(start + 1, 0);
    }
    if (tok.contains(".")) {
      String[] parts = tok.split("\\.", -1);
      if (parts.length != 2) {
        throw new Failure("ValueError: " + tok + " is not alias.column");
      }
      return new Parsed<>(start + 1, columnId(table(parts[0]) + "." + parts[1]));
    }
    check(defaultTables != null && !defaultTables.isEmpty(), "Default tables should not be None or empty");
    for (String alias : defaultTables) {
      String table = table(alias);
      if (tableColumns.getOrDefault(table, List.of()).contains(tok)) {
        return new Parsed<>(start + 1, columnId(table + "." + tok));
      }
    }
    throw new Failure("AssertionError: Error col: " + tok + quirk(tok, false));
  }

  private Parsed<ColUnit> parseColUnit(List<String> toks, int start, List<String> defaultTables) {
    SpiderScript.Tokens t = new Tokens(toks);
    int idx = start;
    boolean block = false;
    boolean distinct = false;
    if (t.get(idx).equals("(")) {
      block = true;
      idx++;
    }
    if (AGG_OPS.contains(t.get(idx))) {
      int agg = AGG_OPS.indexOf(t.get(idx));
      idx++;
      check(idx < toks.size() && toks.get(idx).equals("("), "( after an aggregate");
      idx++;
      if (t.get(idx).equals("distinct")) {
        idx++;
        distinct = true;
      }
      t.get(idx);
      Parsed<Integer> col = parseCol(toks, idx, defaultTables);
      idx = col.idx;
      check(idx < toks.size() && toks.get(idx).equals(")"), ") after an aggregate's column");
      return new Parsed<>(idx + 1, new ColUnit(agg, col.value, distinct));
    }
    if (t.get(idx).equals("distinct")) {
      idx++;
      distinct = true;
    }
    t.get(idx);
    Parsed<Integer> col = parseCol(toks, idx, defaultTables);
    idx = col.idx;
    if (block) {
      check(t.get(idx).equals(")"), ") closing a column");
      idx++;
    }
    return new Parsed<>(idx, new ColUnit(0, col.value, distinct));
  }

  /** Python's indexing of a token list: past the end raises IndexError. */
  private record Tokens(List<String> toks) {
    String get(int i) {
      if (i < 0 || i >= toks.size()) {
        throw new Failure("IndexError: the text ends where the parser expects more");
      }
      return toks.get(i);
    }
  }

  private Parsed<ValUnit> parseValUnit(int start, List<String> defaultTables) {
    int idx = start;
    boolean block = false;
    if (tok(idx).equals("(")) {
      block = true;
      idx++;
    }
    Parsed<ColUnit> left = parseColUnit(toks, idx, defaultTables);
    idx = left.idx;
    int op = 0;
    ColUnit right = null;
    if (idx < toks.size() && UNIT_OPS.contains(toks.get(idx))) {
      op = UNIT_OPS.indexOf(toks.get(idx));
      Parsed<ColUnit> r = parseColUnit(toks, idx + 1, defaultTables);
      idx = r.idx;
      right = r.value;
    }
    if (block) {
      check(tok(idx).equals(")"), ") closing a value");
      idx++;
    }
    return new Parsed<>(idx, new ValUnit(op, left.value, right));
  }

  private Parsed<TableUnit> parseTableUnit(int start, List<String> defaultTables) {
    String key = table(tok(start));
    Integer id = tableIds.get(key);
    if (id == null) {
      throw new Failure("KeyError: no table " + key);
    }
    defaultTables.add(key);
    return new Parsed<>(at(start + 1, "as") ? start + 3 : start + 1, new TableUnit(id, null));
  }

  private Parsed<Value> parseValue(int start, List<String> defaultTables) {
    int idx = start;
    boolean block = false;
    if (tok(idx).equals("(")) {
      block = true;
      idx++;
    }
    Value value;
    if (tok(idx).equals("select")) {
      Parsed<SpiderSql> nested = parseSql(idx);
      idx = nested.idx;
      value = new Nested(nested.value);
    } else if (tok(idx).contains("\"")) {
      value = new Literal(tok(idx));
      idx++;
    } else if (NUMBER.matcher(tok(idx)).matches()) {
      value = new Literal(pythonFloat(tok(idx)));
      idx++;
    } else {
      int end = idx;
      while (end < toks.size() && !toks.get(end).equals(",") && !toks.get(end).equals(")")
          && !toks.get(end).equals("and") && !CLAUSE_KEYWORDS.contains(toks.get(end))
          && !JOIN_KEYWORDS.contains(toks.get(end))) {
        end++;
      }
      value = parseColUnit(toks.subList(start, Math.max(start, end)), 0, defaultTables).value;
      idx = end;
    }
    if (block) {
      check(tok(idx).equals(")"), ") closing a value");
      idx++;
    }
    return new Parsed<>(idx, value);
  }

  private static double pythonFloat(String text) {
    String s = text.strip().replace("_", "").toLowerCase(Locale.ROOT);
    return switch (s.replaceFirst("^[+-]", "")) {
      case "inf", "infinity" -> s.startsWith("-") ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
      case "nan" -> Double.NaN;
      default -> Double.parseDouble(s);
    };
  }

  private Parsed<Condition> parseCondition(int start, List<String> defaultTables) {
    int idx = start;
    List<CondUnit> units = new ArrayList<>();
    List<String> connectors = new ArrayList<>();
    while (idx < toks.size()) {
      Parsed<ValUnit> left = parseValUnit(idx, defaultTables);
      idx = left.idx;
      boolean not = false;
      if (tok(idx).equals("not")) {
        not = true;
        idx++;
      }
      check(idx < toks.size() && WHERE_OPS.contains(toks.get(idx)),
          "Error condition: " + (idx < toks.size() ? toks.get(idx) : "end of text") + " is no operator");
      int op = WHERE_OPS.indexOf(toks.get(idx));
      idx++;
      Value first;
      Value second = null;
      if (op == SpiderSql.BETWEEN) {
        Parsed<Value> v1 = parseValue(idx, defaultTables);
        idx = v1.idx;
        check(tok(idx).equals("and"), "and in BETWEEN");
        Parsed<Value> v2 = parseValue(idx + 1, defaultTables);
        idx = v2.idx;
        first = v1.value;
        second = v2.value;
      } else {
        Parsed<Value> v1 = parseValue(idx, defaultTables);
        idx = v1.idx;
        first = v1.value;
      }
      units.add(new CondUnit(not, op, left.value, first, second));
      if (idx < toks.size() && (CLAUSE_KEYWORDS.contains(toks.get(idx)) || toks.get(idx).equals(")")
          || toks.get(idx).equals(";") || JOIN_KEYWORDS.contains(toks.get(idx)))) {
        break;
      }
      if (idx < toks.size() && COND_OPS.contains(toks.get(idx))) {
        connectors.add(toks.get(idx));
        idx++;
      }
    }
    return new Parsed<>(idx, new Condition(units, connectors));
  }

  private record Select(boolean distinct, List<SelectItem> items) {}

  private Select parseSelect(int start, List<String> defaultTables) {
    int idx = start;
    check(tok(idx).equals("select"), "'select' not found");
    idx++;
    boolean distinct = false;
    if (at(idx, "distinct")) {
      idx++;
      distinct = true;
    }
    List<SelectItem> items = new ArrayList<>();
    while (idx < toks.size() && !CLAUSE_KEYWORDS.contains(toks.get(idx))) {
      int agg = 0;
      if (AGG_OPS.contains(toks.get(idx))) {
        agg = AGG_OPS.indexOf(toks.get(idx));
        idx++;
      }
      Parsed<ValUnit> value = parseValUnit(idx, defaultTables);
      idx = value.idx;
      items.add(new SelectItem(agg, value.value));
      if (at(idx, ",")) {
        idx++;
      }
    }
    return new Select(distinct, items);
  }

  private record From(int idx, List<TableUnit> tables, Condition conds, List<String> defaultTables) {}

  private From parseFrom(int start) {
    int from = toks.subList(Math.min(start, toks.size()), toks.size()).indexOf("from");
    check(from >= 0, "'from' not found");
    int idx = start + from + 1;
    List<String> defaultTables = new ArrayList<>();
    List<TableUnit> tables = new ArrayList<>();
    List<CondUnit> units = new ArrayList<>();
    List<String> connectors = new ArrayList<>();
    while (idx < toks.size()) {
      boolean block = false;
      if (tok(idx).equals("(")) {
        block = true;
        idx++;
      }
      if (tok(idx).equals("select")) {
        Parsed<SpiderSql> nested = parseSql(idx);
        idx = nested.idx;
        tables.add(new TableUnit(null, nested.value));
      } else {
        if (at(idx, "join")) {
          idx++;
        }
        Parsed<TableUnit> unit = parseTableUnit(idx, defaultTables);
        idx = unit.idx;
        tables.add(unit.value);
      }
      if (at(idx, "on")) {
        Parsed<Condition> on = parseCondition(idx + 1, defaultTables);
        idx = on.idx;
        if (!units.isEmpty()) {
          connectors.add("and");
        }
        units.addAll(on.value.units());
        connectors.addAll(on.value.connectors());
      }
      if (block) {
        check(tok(idx).equals(")"), ") closing FROM");
        idx++;
      }
      if (idx < toks.size() && (CLAUSE_KEYWORDS.contains(toks.get(idx)) || toks.get(idx).equals(")")
          || toks.get(idx).equals(";"))) {
        break;
      }
    }
    return new From(idx, tables, new Condition(units, connectors), defaultTables);
  }

  private Parsed<SpiderSql> parseSql(int start) {
    int idx = start;
    boolean block = false;
    if (tok(idx).equals("(")) {
      block = true;
      idx++;
    }
    From from = parseFrom(start);
    Select select = parseSelect(idx, from.defaultTables);
    idx = from.idx;
    List<String> defaults = from.defaultTables;
    Condition where = Condition.NONE;
    if (at(idx, "where")) {
      Parsed<Condition> w = parseCondition(idx + 1, defaults);
      idx = w.idx;
      where = w.value;
    }
    List<ColUnit> groupBy = new ArrayList<>();
    if (at(idx, "group")) {
      idx++;
      check(tok(idx).equals("by"), "by after group");
      idx++;
      while (idx < toks.size() && !(CLAUSE_KEYWORDS.contains(toks.get(idx)) || toks.get(idx).equals(")")
          || toks.get(idx).equals(";"))) {
        Parsed<ColUnit> unit = parseColUnit(toks, idx, defaults);
        idx = unit.idx;
        groupBy.add(unit.value);
        if (at(idx, ",")) {
          idx++;
        } else {
          break;
        }
      }
    }
    Condition having = Condition.NONE;
    if (at(idx, "having")) {
      Parsed<Condition> h = parseCondition(idx + 1, defaults);
      idx = h.idx;
      having = h.value;
    }
    OrderBy orderBy = null;
    if (at(idx, "order")) {
      idx++;
      check(tok(idx).equals("by"), "by after order");
      idx++;
      String direction = "asc";
      List<ValUnit> items = new ArrayList<>();
      while (idx < toks.size() && !(CLAUSE_KEYWORDS.contains(toks.get(idx)) || toks.get(idx).equals(")")
          || toks.get(idx).equals(";"))) {
        Parsed<ValUnit> item = parseValUnit(idx, defaults);
        idx = item.idx;
        items.add(item.value);
        if (idx < toks.size() && ORDER_OPS.contains(toks.get(idx))) {
          direction = toks.get(idx);
          idx++;
        }
        if (at(idx, ",")) {
          idx++;
        } else {
          break;
        }
      }
      orderBy = new OrderBy(direction, items);
    }
    Integer limit = null;
    if (at(idx, "limit")) {
      idx += 2;
      String n = tok(idx - 1);
      if (!INTEGER.matcher(n).matches()) {
        throw new Failure("ValueError: LIMIT " + n + " is no integer");
      }
      limit = Integer.valueOf(n.strip().replace("_", "").replaceFirst("^\\+", ""));
    }
    while (at(idx, ";")) {
      idx++;
    }
    if (block) {
      check(tok(idx).equals(")"), ") closing a query");
      idx++;
    }
    while (at(idx, ";")) {
      idx++;
    }
    SpiderSql sql = new SpiderSql(select.distinct, select.items, from.tables, from.conds, where, groupBy, having,
        orderBy, limit, null, null, null);
    if (idx < toks.size() && SQL_OPS.contains(toks.get(idx))) {
      String op = toks.get(idx);
      Parsed<SpiderSql> part = parseSql(idx + 1);
      idx = part.idx;
      sql = sql.withSetOperation(op, part.value);
    }
    return new Parsed<>(idx, sql);
  }
}

package rolepolicy.report;

import rolepolicy.html.Html;
import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import rolepolicy.report.QaFigures.Check;
import rolepolicy.report.QaFigures.StructureFigures;
import rolepolicy.spider.Question;
import rolepolicy.spider.SplitReader;

/**
 * The structure of a split, counted on Spider's parsed ASTs (the {@code sql} field of the input
 * records). A question counts once per feature:
 *
 * <ul>
 *   <li>JOIN: some query of it, at any depth, has more than one table unit in FROM;
 *   <li>nested: it has a nested query: a FROM subquery, a subquery operand of a condition in
 *       {@code from.conds}, {@code where} or {@code having}, or an INTERSECT/UNION/EXCEPT part;
 *   <li>GROUP BY: some query of it, at any depth, has a non-empty {@code groupBy};
 *   <li>set operation: some query of it, at any depth, has an INTERSECT, UNION or EXCEPT part;
 *   <li>{@code SELECT *}: some SELECT item, at any depth, is column 0 with no aggregate.
 * </ul>
 *
 * <p>These definitions reproduce the figures SPEC quotes for Spider dev exactly.
 */
public final class SpiderStructure {
  /** What SPEC quotes for Spider 1.0 dev. */
  static final Map<String, Integer> SPIDER_DEV =
      Map.of("questions", 1034, "join", 408, "nested", 159, "group_by", 277, "set_operation", 80, "select_star", 3);

  private static final List<String> SET_PARTS = List.of("intersect", "union", "except");

  private int join;
  private int nested;
  private int groupBy;
  private int setOperation;
  private int selectStar;

  private boolean hasJoin;
  private boolean hasNested;
  private boolean hasGroupBy;
  private boolean hasSetOperation;
  private boolean hasSelectStar;

  private SpiderStructure() {}

  /** The Spider file of a split in a Spider folder. */
  public static Path sourceOf(Path spiderDir, String split) {
    return spiderDir.resolve(
        switch (split) {
          case "train" -> "train_spider.json";
          case "test" -> "test.json";
          default -> split + ".json";
        });
  }

  /**
   * Counts the structure of {@code source}; {@code generated} is the number of records of the
   * generated split, to notice a Spider file that is not the one the split came from.
   */
  public static StructureFigures of(String split, Path source, int generated) {
    if (!Files.isRegularFile(source)) {
      return new StructureFigures(
          source.toString(),
          "not computed: " + source + " not found (give the Spider folder with --spider DIR)",
          null, null, null, null, null, null, null, null);
    }
    SpiderStructure s = new SpiderStructure();
    int questions = 0;
    int unreadable = 0;
    try (SplitReader reader = new SplitReader(source)) {
      for (Question q = reader.next(); q != null; q = reader.next()) {
        questions++;
        if (!s.count(q.sql())) {
          unreadable++;
        }
      }
    }
    if (questions > 0 && unreadable == questions) {
      return new StructureFigures(
          source.toString(),
          "not computed: the " + questions + " records of " + source + " carry no Spider AST",
          null, null, null, null, null, null, null, null);
    }
    String note = null;
    if (questions != generated) {
      note = String.format(
          Locale.ROOT,
          "%s has %d questions but the generated %s split has %d: it may not be the file the split was generated from",
          source, questions, split, generated);
    } else if ("dev".equals(split) && questions != SPIDER_DEV.get("questions")) {
      note = String.format(
          Locale.ROOT,
          "%s has %,d questions, not Spider 1.0 dev's 1,034: another or an edited dev split, so its structure is not compared with SPEC's figures",
          source, questions);
    }
    List<Check> checks = null;
    if ("dev".equals(split) && note == null) {
      checks = new ArrayList<>();
      checks.add(exact(split, "questions", "questions", questions, unreadable));
      checks.add(exact(split, "join", "questions with JOIN", s.join, unreadable));
      checks.add(exact(split, "nested", "questions with a nested query (set operations included)", s.nested, unreadable));
      checks.add(exact(split, "group_by", "questions with GROUP BY", s.groupBy, unreadable));
      checks.add(exact(split, "set_operation", "questions with INTERSECT / UNION / EXCEPT", s.setOperation, unreadable));
      checks.add(exact(split, "select_star", "questions with SELECT *", s.selectStar, unreadable));
    }
    return new StructureFigures(
        source.toString(), note, questions, s.join, s.nested, s.groupBy, s.setOperation, s.selectStar, unreadable, checks);
  }

  /** A feature of Spider 1.0 dev against SPEC's count; each explanation names its feature, so none repeats another. */
  private static Check exact(String split, String key, String label, int value, int unreadable) {
    int expected = SPIDER_DEV.get(key);
    boolean in = value == expected;
    String explanation = null;
    if (!in) {
      explanation = String.format(Locale.ROOT, "%,d %s where Spider 1.0 dev has %,d: %s.", value, label, expected,
          unreadable > 0
              ? String.format(Locale.ROOT, "%,d questions have an AST that cannot be read", unreadable)
              : "this dev file differs from Spider 1.0's in this feature");
    }
    return new Check(
        split + ".structure." + key, label, value, 0, value, Html.number(expected), expected, expected, in, explanation, null);
  }

  /** Counts one question's AST; false when it is not shaped like Spider's. */
  private boolean count(JsonNode sql) {
    hasJoin = false;
    hasNested = false;
    hasGroupBy = false;
    hasSetOperation = false;
    hasSelectStar = false;
    try {
      query(require(sql), true);
    } catch (IllegalArgumentException e) {
      return false;
    }
    join += hasJoin ? 1 : 0;
    nested += hasNested ? 1 : 0;
    groupBy += hasGroupBy ? 1 : 0;
    setOperation += hasSetOperation ? 1 : 0;
    selectStar += hasSelectStar ? 1 : 0;
    return true;
  }

  private void query(JsonNode sql, boolean top) {
    if (!top) {
      hasNested = true;
    }
    JsonNode from = require(sql.get("from"));
    JsonNode units = array(from.get("table_units"));
    hasJoin |= units.size() > 1;
    for (JsonNode unit : units) {
      if ("sql".equals(at(unit, 0).asText())) {
        query(require(at(unit, 1)), false);
      }
    }
    JsonNode select = array(sql.get("select"));
    for (JsonNode item : array(at(select, 1))) {
      JsonNode valUnit = array(at(item, 1));
      JsonNode col = array(at(valUnit, 1));
      hasSelectStar |=
          at(item, 0).asInt() == 0 && at(valUnit, 0).asInt() == 0 && at(col, 0).asInt() == 0 && at(col, 1).asInt() == 0;
    }
    conditions(from.get("conds"));
    conditions(sql.get("where"));
    hasGroupBy |= array(sql.get("groupBy")).size() > 0;
    conditions(sql.get("having"));
    for (String part : SET_PARTS) {
      JsonNode nestedPart = sql.get(part);
      if (nestedPart != null && !nestedPart.isNull()) {
        hasSetOperation = true;
        query(require(nestedPart), false);
      }
    }
  }

  private void conditions(JsonNode conds) {
    for (JsonNode cond : array(conds)) {
      if (!cond.isArray()) {
        continue; // "and" / "or"
      }
      for (int i = 3; i < cond.size(); i++) {
        if (cond.get(i).isObject()) {
          query(cond.get(i), false);
        }
      }
    }
  }

  private static JsonNode require(JsonNode node) {
    if (node == null || !node.isObject()) {
      throw new IllegalArgumentException("not a query");
    }
    return node;
  }

  private static JsonNode at(JsonNode list, int index) {
    JsonNode node = array(list).get(index);
    if (node == null) {
      throw new IllegalArgumentException("list too short");
    }
    return node;
  }

  private static JsonNode array(JsonNode node) {
    if (node == null || !node.isArray()) {
      throw new IllegalArgumentException("not a list");
    }
    return node;
  }
}

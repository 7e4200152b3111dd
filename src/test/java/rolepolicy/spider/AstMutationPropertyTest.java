package rolepolicy.spider;

import rolepolicy.model.QueryFacts;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;
import rolepolicy.TestData;
import rolepolicy.engine.QuestionEngine;
import rolepolicy.generate.QuestionGenerator;
import rolepolicy.generate.Records.GoldLabel;
import rolepolicy.generate.Records.QuestionRecord;
import rolepolicy.model.ColumnRef;

/**
 * Random damage to real Spider ASTs (SPEC §4: "never a crash, never a silently dropped record"):
 * the whole question pipeline still gives a record with a gold label, and whatever the walker
 * cannot resolve is refused as UNRESOLVED. The walk reads the AST it is given: each reference names
 * the column and aggregate of the col_unit at its path, and a last change to one col_unit changes
 * the walk at that col_unit only, as the change says.
 */
class AstMutationPropertyTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private static List<JsonNode> dev;
  private static QuestionGenerator generator;

  /** What a mutation does to the node it picks. */
  enum Kind {
    NULL,
    STRING,
    NUMBER,
    EMPTY_ARRAY,
    EMPTY_OBJECT,
    DELETE_FIELD,
    COLUMN_ID,
    OTHER_COLUMN,
    AGGREGATE,
    TRUNCATE_ARRAY
  }

  /**
   * One mutation: {@code pick} chooses the node among the candidates, {@code variant} the value.
   * COLUMN_ID sets an out-of-range column id; OTHER_COLUMN and AGGREGATE make well-formed changes
   * (another column of the database, another aggregate) that the walker accepts but that no longer
   * match the SQL text, so that the rewrite and negative stages run on them too.
   */
  record Mutation(Kind kind, int pick, int variant) {}

  /** A real dev.json record, by position, and the mutations to apply in order. */
  record Case(int record, List<Mutation> mutations) {}

  /** A mutation as applied: the node it changed (null when nothing was changed), in words. */
  record Applied(Kind kind, String path, String text) {
    @Override
    public String toString() {
      return text;
    }
  }

  private static final String[] STRINGS = {"", "and", "sql", "table_unit", "*", "x"};
  private static final JsonNode[] NUMBERS = {
    NODES.numberNode(0), NODES.numberNode(1), NODES.numberNode(-1), NODES.numberNode(5),
    NODES.numberNode(99999), NODES.numberNode(2.5)
  };
  private static final int[] COLUMN_IDS = {-1, 99999};

  @Property(tries = 1000, seed = "20251123")
  void aMutatedAstNeverBreaksTheQuestionPipeline(@ForAll("cases") Case c) {
    JsonNode original = dev().get(c.record());
    String dbId = original.get("db_id").asText();
    Schema schema = TestData.schemas().get(dbId);
    List<Applied> applied = new ArrayList<>();
    JsonNode sql = original.get("sql").deepCopy();
    JsonNode beforeLast = sql;
    for (Mutation m : c.mutations()) {
      beforeLast = sql.deepCopy();
      sql = mutate(sql, m, schema.columns().size(), applied);
    }
    Question question =
        new Question(
            c.record() + 1, dbId, original.get("question").asText(), original.get("query").asText(), sql);
    String context = "dev record " + (c.record() + 1) + " (" + question.query() + ") after " + applied;

    QueryFacts walk;
    QueryFacts walkBeforeLast;
    QuestionRecord record;
    try {
      walk = new AstWalker(schema).walk(sql);
      walkBeforeLast = new AstWalker(schema).walk(beforeLast);
      record = generator().generate(String.format("dev_%04d", c.record() + 1), question, null);
    } catch (RuntimeException | StackOverflowError e) {
      throw new AssertionError("the pipeline threw on " + context + ": " + e, e);
    }

    assertNotNull(record, context);
    GoldLabel gold = record.goldLabel();
    assertNotNull(gold, context);
    assertTrue(Set.of("SQL", "REFUSE").contains(gold.type()), context + ": " + gold);
    if (gold.type().equals("SQL")) {
      assertNotNull(gold.sql(), context + ": " + gold);
    } else {
      assertNotNull(gold.reason(), context + ": " + gold);
    }
    Statistics.label("walker problems").collect(!walk.problems().isEmpty());
    Statistics.label("gold").collect(gold.type() + (gold.reason() == null ? "" : " " + gold.reason()));
    if (!question.hasAst()) {
      // a null or text root is no AST at all: the facts come from the SQL text
      assertEquals("text", record.facts(), context);
      return;
    }
    if (!walk.problems().isEmpty()) {
      assertEquals(
          "REFUSE UNRESOLVED",
          gold.type() + " " + gold.reason(),
          context + ": walker problems " + walk.problems() + " but gold " + gold);
      assertNotNull(record.problems(), context);
      assertTrue(record.problems().containsAll(walk.problems()), context + ": " + record.problems());
      assertEquals(List.of(), record.negativeExamples(), context);
    }

    assertRefsReadTheirColUnits(walk, sql, schema, context);
    Applied last = applied.get(applied.size() - 1);
    if (last.path() != null && COL_UNIT_CHANGES.contains(last.kind())) {
      String seen = assertOnlyThatColUnitChanged(walkBeforeLast, walk, last, beforeLast, sql, schema, context);
      Statistics.label("last change, to one col_unit").collect(last.kind() + " " + seen);
    }
    Statistics.label("last change, to one col_unit").coverage(coverage -> {
      for (Kind kind : COL_UNIT_CHANGES) {
        coverage.check(kind + " walked").count(n -> n >= MIN_WALKED_CHANGES);
      }
    });
  }

  /** The mutations that change one col_unit's aggregate or column id and leave the AST's shape. */
  private static final Set<Kind> COL_UNIT_CHANGES = Set.of(Kind.COLUMN_ID, Kind.OTHER_COLUMN, Kind.AGGREGATE);

  /** Changes of each of those kinds, to a col_unit the walker reads, that the fixed seed must give. */
  private static final int MIN_WALKED_CHANGES = 20;

  /** Each reference names the column of the col_unit at its path, with the aggregate that applies there. */
  private static void assertRefsReadTheirColUnits(QueryFacts walk, JsonNode sql, Schema schema, String context) {
    for (ColumnRef ref : walk.refs()) {
      JsonNode unit = sql.at(ref.path());
      String what = context + ": " + ref + " at " + ref.path() + ", " + unit;
      assertTrue(unit.isArray() && unit.path(1).isIntegralNumber(), what);
      assertEquals(schema.key(unit.get(1).asInt()), ref.column(), what);
      // in a SELECT item, the item's aggregate, else the col_unit's own
      int itemAgg = ref.itemPath() == null ? 0 : sql.at(ref.itemPath()).get(0).asInt();
      assertEquals(itemAgg != 0 ? itemAgg : unit.get(0).asInt(), ref.aggregate().id(), what);
    }
  }

  /**
   * A change to one col_unit's aggregate or column id leaves what the walker visits as it was: the
   * walk after it differs from the walk before it at that col_unit only, as the change says.
   * Returns whether the walker reads that col_unit ("walked", "not walked"), or "was *" when the
   * col_unit named column 0, which leaves no trace in the walk before.
   */
  private static String assertOnlyThatColUnitChanged(
      QueryFacts before, QueryFacts after, Applied change, JsonNode beforeSql, JsonNode sql, Schema schema, String context) {
    String path = change.path();
    String idProblem = "AST " + path + "/1: column id ";
    Map<String, String> was = refsByPath(before, context);
    Map<String, String> now = refsByPath(after, context);
    String wasHere = was.remove(path);
    String nowHere = now.remove(path);
    String what = context + ": walk before the last change " + before + ", after " + after;
    assertEquals(was, now, what);
    assertEquals(withoutPrefix(before.problems(), idProblem), withoutPrefix(after.problems(), idProblem), what);

    int id = sql.at(path + "/1").asInt();
    boolean walked = wasHere != null || before.problems().stream().anyMatch(p -> p.startsWith(idProblem));
    boolean known = beforeSql.at(path + "/1").asInt() != 0;
    switch (change.kind()) {
      case AGGREGATE -> {
        assertEquals(before.problems(), after.problems(), what);
        assertEquals(column(wasHere), column(nowHere), what);
      }
      case COLUMN_ID -> {
        assertEquals(null, nowHere, what);
        if (known) {
          assertEquals(walked, after.problems().contains(idProblem + id + " is out of range for " + schema.dbId()), what);
        }
      }
      case OTHER_COLUMN -> {
        assertTrue(after.problems().stream().noneMatch(p -> p.startsWith(idProblem)), what);
        if (known) {
          assertEquals(walked && id != 0 ? schema.key(id) : null, column(nowHere), what);
        }
      }
      default -> throw new IllegalArgumentException(change.kind().name());
    }
    return !known ? "was *" : walked ? "walked" : "not walked";
  }

  /** The references of a walk by col_unit path: column, role and aggregate; one per path. */
  private static Map<String, String> refsByPath(QueryFacts walk, String context) {
    Map<String, String> byPath = new TreeMap<>();
    for (ColumnRef ref : walk.refs()) {
      String previous = byPath.put(ref.path(), ref.column() + " " + ref.role() + " agg " + ref.aggregate().id());
      assertEquals(null, previous, context + ": two references at " + ref.path());
    }
    return byPath;
  }

  private static String column(String summary) {
    return summary == null ? null : summary.substring(0, summary.indexOf(' '));
  }

  private static List<String> withoutPrefix(List<String> problems, String prefix) {
    return problems.stream().filter(p -> !p.startsWith(prefix)).toList();
  }

  /**
   * A column id beyond the int range is out of range too; read as an int it wraps around
   * (4294967297 becomes 1) and silently resolves to another column.
   */
  @Example
  void aColumnIdBeyondTheIntRangeIsUnresolved() {
    JsonNode original = dev().get(14); // SELECT LOCATION, name FROM stadium WHERE capacity ...
    JsonNode sql = original.get("sql").deepCopy();
    ((ArrayNode) sql.at("/select/1/0/1/1")).set(1, NODES.numberNode(4294967297L));

    QueryFacts walk = new AstWalker(TestData.schemas().get("concert_singer")).walk(sql);

    assertTrue(
        walk.problems().stream().anyMatch(p -> p.contains("/select/1/0/1/1/1")),
        "refs " + walk.refs() + ", problems " + walk.problems());
  }

  /** An unresolved part of a query that also selects * is refused as UNRESOLVED, like any other. */
  @Example
  void anUnresolvedQueryThatSelectsStarIsRefusedAsUnresolved() {
    int index = firstRecord("SELECT * FROM", " WHERE ");
    JsonNode original = dev().get(index);
    JsonNode sql = original.get("sql").deepCopy();
    ((ArrayNode) sql.at("/where/0/2/1")).set(1, NODES.numberNode(99999));
    Question question =
        new Question(
            index + 1, original.get("db_id").asText(), original.get("question").asText(),
            original.get("query").asText(), sql);

    QuestionRecord record = generator().generate("dev_x", question, null);

    assertNotNull(record.problems(), question.query());
    GoldLabel gold = record.goldLabel();
    assertEquals("REFUSE UNRESOLVED", gold.type() + " " + gold.reason(), question.query() + ": " + gold);
  }

  /**
   * SPEC §6: gold SQL is always policy-compliant. When the AST says less than its text (here the
   * AST names singer.country where the text selects the Hidden singer.age), the gold SQL, which is
   * the text, must still be compliant when analysed from the text: the text is what a model sees.
   */
  @Example
  void goldSqlIsCompliantAsTextEvenWhenTheAstDisagreesWithIt() {
    JsonNode original = dev().get(2); // SELECT name, country, age FROM singer ORDER BY age DESC
    JsonNode sql = original.get("sql").deepCopy();
    ((ArrayNode) sql.at("/select/1/2/1/1")).set(1, NODES.numberNode(10)); // age -> country
    Question question =
        new Question(3, "concert_singer", original.get("question").asText(), original.get("query").asText(), sql);

    QuestionRecord record = generator().generate("dev_0003", question, null);

    GoldLabel gold = record.goldLabel();
    assertEquals("REFUSE", gold.type(), "the text selects age, which the AST does not say");
    assertEquals("UNVERIFIED_SQL", gold.reason());
    assertTrue(gold.detail().contains("singer.age"), gold.detail());
  }

  @Provide
  Arbitrary<Case> cases() {
    Arbitrary<Mutation> mutation =
        Combinators.combine(
                Arbitraries.of(Kind.class),
                Arbitraries.integers().between(0, 1_000_000),
                Arbitraries.integers().between(0, 1_000))
            .as(Mutation::new);
    return Combinators.combine(
            Arbitraries.integers().between(0, dev().size() - 1),
            mutation.list().ofMinSize(1).ofMaxSize(3))
        .as(Case::new);
  }

  // ---------------------------------------------------------------- mutations

  /** A place in the AST: the container and the field name or index; the root has no container. */
  private record Slot(JsonNode container, String field, int index, String path) {
    JsonNode get(JsonNode root) {
      return container == null ? root : field != null ? container.get(field) : container.get(index);
    }
  }

  private static JsonNode mutate(JsonNode root, Mutation m, int columns, List<Applied> applied) {
    List<Slot> slots = new ArrayList<>();
    collect(root, null, null, -1, "", slots);
    List<Slot> candidates =
        switch (m.kind()) {
          case DELETE_FIELD -> slots.stream().filter(s -> s.field() != null).toList();
          case COLUMN_ID, OTHER_COLUMN, AGGREGATE -> slots.stream()
              .filter(s -> isColUnit(s.get(root)))
              .toList();
          case TRUNCATE_ARRAY -> slots.stream()
              .filter(s -> s.get(root).isArray() && s.get(root).size() > 0)
              .toList();
          default -> slots;
        };
    if (candidates.isEmpty()) {
      applied.add(new Applied(m.kind(), null, m.kind() + " (nothing to mutate)"));
      return root;
    }
    Slot slot = candidates.get(m.pick() % candidates.size());
    String where = slot.path().isEmpty() ? "/" : slot.path();
    switch (m.kind()) {
      case DELETE_FIELD -> {
        ((ObjectNode) slot.container()).remove(slot.field());
        applied.add(new Applied(m.kind(), where, "delete " + where));
        return root;
      }
      case COLUMN_ID -> {
        int id = COLUMN_IDS[m.variant() % COLUMN_IDS.length];
        ((ArrayNode) slot.get(root)).set(1, NODES.numberNode(id));
        applied.add(new Applied(m.kind(), where, "column id " + id + " at " + where + "/1"));
        return root;
      }
      case OTHER_COLUMN -> {
        int id = m.variant() % columns;
        ((ArrayNode) slot.get(root)).set(1, NODES.numberNode(id));
        applied.add(new Applied(m.kind(), where, "column id " + id + " at " + where + "/1"));
        return root;
      }
      case AGGREGATE -> {
        int agg = m.variant() % 6;
        ((ArrayNode) slot.get(root)).set(0, NODES.numberNode(agg));
        applied.add(new Applied(m.kind(), where, "aggregate " + agg + " at " + where + "/0"));
        return root;
      }
      case TRUNCATE_ARRAY -> {
        ArrayNode array = (ArrayNode) slot.get(root);
        int keep = m.variant() % array.size();
        while (array.size() > keep) {
          array.remove(array.size() - 1);
        }
        applied.add(new Applied(m.kind(), where, "truncate " + where + " to " + keep));
        return root;
      }
      default -> {
        JsonNode value = replacement(m);
        applied.add(new Applied(m.kind(), where, "replace " + where + " by " + value));
        return replace(root, slot, value);
      }
    }
  }

  private static JsonNode replacement(Mutation m) {
    return switch (m.kind()) {
      case NULL -> NODES.nullNode();
      case STRING -> NODES.textNode(STRINGS[m.variant() % STRINGS.length]);
      case NUMBER -> NUMBERS[m.variant() % NUMBERS.length];
      case EMPTY_ARRAY -> NODES.arrayNode();
      case EMPTY_OBJECT -> NODES.objectNode();
      default -> throw new IllegalArgumentException(m.kind().name());
    };
  }

  private static JsonNode replace(JsonNode root, Slot slot, JsonNode value) {
    if (slot.container() == null) {
      return value;
    }
    if (slot.field() != null) {
      ((ObjectNode) slot.container()).set(slot.field(), value);
    } else {
      ((ArrayNode) slot.container()).set(slot.index(), value);
    }
    return root;
  }

  /** Every node in pre-order, the root first. */
  private static void collect(
      JsonNode node, JsonNode container, String field, int index, String path, List<Slot> slots) {
    slots.add(new Slot(container, field, index, path));
    if (node.isObject()) {
      for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        collect(e.getValue(), node, e.getKey(), -1, path + "/" + e.getKey(), slots);
      }
    } else if (node.isArray()) {
      for (int i = 0; i < node.size(); i++) {
        collect(node.get(i), node, null, i, path + "/" + i, slots);
      }
    }
  }

  /** Spider's {@code col_unit}: {@code [agg_id, column_id, distinct]}. */
  private static boolean isColUnit(JsonNode node) {
    return node.isArray()
        && node.size() == 3
        && node.get(0).isIntegralNumber()
        && node.get(1).isIntegralNumber()
        && node.get(2).isBoolean();
  }

  // ---------------------------------------------------------------- fixtures

  private static int firstRecord(String... fragments) {
    for (int i = 0; i < dev().size(); i++) {
      String query = dev().get(i).get("query").asText();
      boolean all = true;
      for (String f : fragments) {
        all &= query.contains(f);
      }
      if (all) {
        return i;
      }
    }
    throw new IllegalStateException("no dev record with " + List.of(fragments));
  }

  private static synchronized List<JsonNode> dev() {
    if (dev == null) {
      try {
        List<JsonNode> records = new ArrayList<>();
        JSON.readTree(TestData.spiderDir().resolve("dev.json").toFile()).forEach(records::add);
        dev = List.copyOf(records);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return dev;
  }

  /** Built as {@code SpiderRun} builds it: the project's rules, real schemas, automatic policies. */
  private static synchronized QuestionGenerator generator() {
    if (generator == null) {
      generator =
          new QuestionGenerator(
              new QuestionEngine(TestData.rules()), TestData.schemas(), TestData.autoPolicies());
    }
    return generator;
  }
}

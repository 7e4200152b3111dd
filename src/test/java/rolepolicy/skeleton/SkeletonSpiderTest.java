package rolepolicy.skeleton;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import net.sf.jsqlparser.parser.CCJSqlParserUtil;
import net.sf.jsqlparser.parser.ParseException;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.select.Select;
import org.junit.jupiter.api.Test;
import rolepolicy.TestData;
import rolepolicy.spider.Question;
import rolepolicy.spider.Schema;
import rolepolicy.spider.SplitReader;

/**
 * Every gold query of Spider's train and dev splits skeletonizes, its skeleton re-parses with
 * JSqlParser, the leak check finds none of its database's names and none of its literals in it
 * (while it finds some in the query itself: the check is not blind), and a second run gives the
 * same skeleton. Slow (the whole of Spider).
 */
class SkeletonSpiderTest {
  /** Split files: id prefix, file name, whether the data must hold it. */
  private static final List<Object[]> SPLITS =
      List.of(
          new Object[] {"train", "train_spider.json", true},
          new Object[] {"train_others", "train_others.json", false},
          new Object[] {"dev", "dev.json", true});

  /**
   * Gold queries that JSqlParser cannot parse at all, by id, with the reason: none in this data
   * (JSqlParser 5.3 parses all of train_spider.json and dev.json).
   */
  static final Map<String, String> UNPARSABLE = Map.of();

  private final Skeletonizer skeletonizer = new Skeletonizer();

  /** Time spent in the first skeletonization of each query. */
  private long skeletonizing;

  @Test
  void everyGoldQuerySkeletonizesReparsesAndLeaksNothing() throws Exception {
    Path dir = TestData.spiderDir();
    Map<String, Schema> schemas = TestData.schemas();
    Map<String, String> problems = new TreeMap<>();
    List<String> read = new ArrayList<>();
    int queries = 0;
    int failed = 0;
    long start = System.nanoTime();
    for (Object[] split : SPLITS) {
      Path file = dir.resolve((String) split[1]);
      if (!Files.exists(file) && !(Boolean) split[2]) {
        read.add(split[1] + " absent");
        continue;
      }
      int inSplit = 0;
      try (SplitReader reader = new SplitReader(file)) {
        for (Question q = reader.next(); q != null; q = reader.next()) {
          String id = String.format(Locale.ROOT, "%s_%04d", split[0], q.index());
          inSplit++;
          String problem = check(id, q.query(), schemas.get(q.dbId()));
          if (problem != null) {
            problems.put(id, problem + "\n    " + q.query());
          }
          if (UNPARSABLE.containsKey(id)) {
            failed++;
          }
        }
      }
      queries += inSplit;
      read.add(String.format(Locale.ROOT, "%s %d", split[1], inSplit));
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    System.out.printf(
        Locale.ROOT,
        "skeleton: %d Spider gold queries (%s), %d failed (listed), %.1f s, of which"
            + " skeletonizing %.1f s%n",
        queries,
        String.join(", ", read),
        failed,
        seconds,
        skeletonizing / 1e9);
    assertTrue(queries > 8000, "too few queries read: " + queries);
    assertEquals(
        "",
        String.join(
            "\n", problems.entrySet().stream().map(e -> e.getKey() + " " + e.getValue()).toList()));
  }

  /** What is wrong with one query's skeleton, or null. */
  private String check(String id, String sql, Schema schema) {
    long start = System.nanoTime();
    Skeleton skeleton = skeletonizer.skeletonize(sql);
    skeletonizing += System.nanoTime() - start;
    if (UNPARSABLE.containsKey(id)) {
      return skeleton.failed() && skeleton.sql().isEmpty()
          ? null
          : "listed as unparsable, yet skeletonized";
    }
    if (skeleton.failed()) {
      return "failed: " + skeleton.error();
    }
    try {
      Statement statement = CCJSqlParserUtil.newParser(skeleton.sql()).Statement();
      if (!(statement instanceof Select)) {
        return "skeleton is not a query: " + skeleton.sql();
      }
    } catch (ParseException | RuntimeException e) {
      return "skeleton does not re-parse: " + skeleton.sql();
    }
    List<String> leaks = LeakCheck.leaks(skeleton.sql(), schema, sql);
    if (!leaks.isEmpty()) {
      return "leaks " + leaks + ": " + skeleton.sql();
    }
    if (LeakCheck.leaks(sql, schema, sql).isEmpty()) {
      return "the leak check finds nothing in the query itself";
    }
    if (!skeletonizer.skeletonize(sql).toString().equals(skeleton.toString())) {
      return "a second run gives another skeleton";
    }
    return null;
  }
}

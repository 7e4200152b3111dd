package rolepolicy.evaluate;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import rolepolicy.llm.ModelAnswer;
import rolepolicy.spider.Schema;

/**
 * Spider's exact set match of predictions against their records' gold SQL (the gold label's
 * compliant SQL), with the gold SQL's hardness. Each distinct text of a database is put into
 * Spider's structure once.
 */
final class ExactMatchScorer {
  /**
   * One question's exact match.
   *
   * @param em whether the prediction matches; null when there is no gold SQL to match, or it is
   *     beyond Spider's grammar
   * @param reason why no match was possible (the prediction, or the gold SQL, has no Spider
   *     structure), else null
   * @param differs the components that differ, when both have a structure and do not match
   * @param hardness the gold SQL's level, null without one
   */
  record Result(Boolean em, String reason, List<String> differs, Hardness hardness) {
    static final Result NOT_APPLICABLE = new Result(null, null, null, null);
  }

  /** A text's structure, or why it has none. */
  private record Parsed(SpiderSql sql, String problem) {}

  private final Map<String, Schema> schemas;
  private final Map<String, ExactMatch> matchers = new HashMap<>();
  private final Map<List<String>, Parsed> parsed = new HashMap<>();

  ExactMatchScorer(Map<String, Schema> schemas) {
    this.schemas = schemas;
  }

  /** {@code prediction}: the stripped text, {@code REFUSE} or empty. */
  Result score(GoldRecord gold, String prediction) {
    if (gold.refuse()) {
      return Result.NOT_APPLICABLE;
    }
    Parsed goldSql = parse(gold.dbId(), gold.goldSql());
    if (goldSql.sql() == null) {
      return new Result(null, "gold SQL " + goldSql.problem(), null, null);
    }
    Hardness hardness = Hardness.of(goldSql.sql());
    if (ModelAnswer.isRefusal(prediction)) {
      return new Result(false, "refused", null, hardness);
    }
    if (prediction.isEmpty()) {
      return new Result(false, "empty prediction", null, hardness);
    }
    Parsed predicted = parse(gold.dbId(), prediction);
    if (predicted.sql() == null) {
      return new Result(false, predicted.problem(), null, hardness);
    }
    List<ExactMatch.Component> differ;
    try {
      differ = matchers
          .computeIfAbsent(gold.dbId(), db -> new ExactMatch(schemas.get(db)))
          .differences(predicted.sql(), goldSql.sql());
    } catch (StackOverflowError e) {
      return new Result(false, "SQL text nested too deeply", null, hardness);
    }
    return differ.isEmpty()
        ? new Result(true, null, null, hardness)
        : new Result(false, null, differ.stream().map(ExactMatch.Component::label).toList(), hardness);
  }

  private Parsed parse(String db, String sql) {
    return parsed.computeIfAbsent(List.of(db, sql), key -> {
      try {
        return new Parsed(SpiderSql.parse(sql, schemas.get(db)), null);
      } catch (SpiderSqlException e) {
        return new Parsed(null, e.getMessage());
      }
    });
  }
}

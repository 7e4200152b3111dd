package rolepolicy.evaluate;

import rolepolicy.ports.SpiderScript;
import rolepolicy.exactmatch.Hardness;
import rolepolicy.exactmatch.ExactMatch;
import rolepolicy.exactmatch.SpiderSqlException;
import rolepolicy.exactmatch.SpiderSql;
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
   * @param script the verdict of Spider's own script ({@link SpiderScript}), null when not computed
   */
  record Result(Boolean em, String reason, List<String> differs, Hardness hardness, Script script) {
    static final Result NOT_APPLICABLE = new Result(null, null, null, null, null);

    Result(Boolean em, String reason, List<String> differs, Hardness hardness) {
      this(em, reason, differs, hardness, null);
    }

    Result withScript(Script verdict) {
      return new Result(em, reason, differs, hardness, verdict);
    }
  }

  /**
   * Exact match as Spider's {@code evaluation.py} counts it: its parser's reading of both texts; a
   * prediction it fails on is the empty query, which matches nothing.
   *
   * @param em the script's verdict; null when there is no gold SQL, or the script fails on it (the
   *     script itself would stop there)
   * @param reason why the script's parser fails on the prediction (or the gold SQL), else null
   */
  record Script(Boolean em, String reason) {}

  /** A text's structure, or why it has none. */
  private record Parsed(SpiderSql sql, String problem) {}

  /** A text's structure as Spider's script reads it, or why its parser fails. */
  private final Map<List<String>, Parsed> scriptParsed = new HashMap<>();

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
    return ours(gold, prediction).withScript(script(gold, prediction));
  }

  /** Spider's script's verdict: a refusal or an empty line is text its parser fails on, as any. */
  private Script script(GoldRecord gold, String prediction) {
    Parsed goldSql = scriptParse(gold.dbId(), gold.goldSql());
    if (goldSql.sql() == null) {
      return new Script(null, "Spider's parser fails on the gold SQL: " + goldSql.problem());
    }
    Parsed predicted = scriptParse(gold.dbId(), prediction);
    if (predicted.sql() == null) {
      return new Script(false, "Spider's parser fails: " + predicted.problem());
    }
    try {
      return new Script(matchers.computeIfAbsent(gold.dbId(), db -> new ExactMatch(schemas.get(db)))
          .matches(predicted.sql(), goldSql.sql()), null);
    } catch (StackOverflowError e) {
      return new Script(false, "SQL text nested too deeply");
    }
  }

  private Parsed scriptParse(String db, String sql) {
    return scriptParsed.computeIfAbsent(List.of(db, sql), key -> {
      try {
        return new Parsed(SpiderScript.parse(sql, schemas.get(db)), null);
      } catch (SpiderScript.Failure e) {
        return new Parsed(null, e.getMessage());
      }
    });
  }

  /** This project's exact match: the text read by the corrected grammar ({@code SpiderSqlBuilder}). */
  private Result ours(GoldRecord gold, String prediction) {
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

package rolepolicy.generate;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import rolepolicy.engine.ColumnPolicy;
import rolepolicy.engine.DatabasePolicies;
import rolepolicy.engine.RecentValues;
import rolepolicy.engine.TextAnalyser;
import rolepolicy.spider.AstWalker;
import rolepolicy.spider.Schema;

/** Everything built once per database: walker, SQL text analyser and the policy map of the output. */
final class DatabaseContext {
  final DatabasePolicies policies;
  final AstWalker walker;
  final TextAnalyser texts;
  final Map<String, String> columnPolicies;

  /** How many question outcomes {@link #recentOutcome} keeps, per database. */
  private static final int RECENT_OUTCOMES = 4;

  /** A recent question's AST (compared as a JSON tree; may be null) and outcome. */
  private record Recent(JsonNode ast, QuestionGenerator.Outcome outcome) {}

  /** Recent outcomes by SQL text: the AST is compared only when the text is known. */
  private final RecentValues<String, Recent> recentOutcomes = new RecentValues<>(RECENT_OUTCOMES);

  DatabaseContext(Schema schema, DatabasePolicies policies) {
    this.policies = policies;
    this.walker = new AstWalker(schema);
    this.texts = new TextAnalyser(schema);
    Map<String, String> map = new LinkedHashMap<>();
    for (ColumnPolicy c : policies.columns()) {
      map.putIfAbsent(c.column().key(), c.finalPolicy().name());
    }
    this.columnPolicies = Collections.unmodifiableMap(map);
  }

  /**
   * The outcome of a recent question with the same SQL text and AST, or null; with {@code
   * withFirings}, only one that recorded its rule firings. Spider asks several questions of one
   * query, one after the other.
   */
  QuestionGenerator.Outcome recentOutcome(String sql, JsonNode ast, boolean withFirings) {
    Recent recent = recentOutcomes.get(sql);
    if (recent == null || !Objects.equals(recent.ast(), ast)) {
      return null;
    }
    return withFirings && recent.outcome().firings() == null ? null : recent.outcome();
  }

  void rememberOutcome(String sql, JsonNode ast, QuestionGenerator.Outcome outcome) {
    recentOutcomes.put(sql, new Recent(ast, outcome));
  }
}

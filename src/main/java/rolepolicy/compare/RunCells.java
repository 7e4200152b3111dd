package rolepolicy.compare;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Locale;
import rolepolicy.compare.Comparison.RunInfo;

/** A compared run's outcome counts and accounting as table cells (terminal and page alike). */
final class RunCells {
  static final String[] HEADER = {"run", "answered", "refused", "no SQL", "truncated", "failed", "prompt tokens",
      "completion tokens", "reasoning", "cost", "latency p50", "p95"};

  private RunCells() {}

  /** The cells of one run; "-" where the folder does not say (an evaluate folder says none). */
  static String[] of(RunInfo r) {
    JsonNode a = r.answers();
    JsonNode q = r.requests();
    return new String[] {r.name(), count(a, "answered"), count(a, "refused"), count(a, "no_sql"), count(a, "truncated"),
        count(a, "failed"), tokens(q, "prompt_tokens"), tokens(q, "completion_tokens"), tokens(q, "reasoning_tokens"),
        q == null || !q.path("cost").isNumber() ? "-" : String.format(Locale.ROOT, "$%.4f", q.path("cost").asDouble()),
        millis(q, "latency_ms_p50"), millis(q, "latency_ms_p95")};
  }

  /** A setting's value as shown: text as it is, none for null. */
  static String value(Object v) {
    if (v == null || v instanceof JsonNode n && n.isNull()) {
      return "none";
    }
    return v instanceof JsonNode n && n.isTextual() ? n.asText() : v.toString();
  }

  private static String count(JsonNode node, String field) {
    return node == null || !node.path(field).isNumber() ? "-" : String.valueOf(node.path(field).asInt());
  }

  private static String tokens(JsonNode node, String field) {
    return node == null || !node.path(field).isNumber() ? "-" : String.format(Locale.ROOT, "%,d", node.path(field).asLong());
  }

  private static String millis(JsonNode node, String field) {
    return node == null || !node.path(field).isNumber() ? "-" : String.format(Locale.ROOT, "%,d ms", node.path(field).asLong());
  }
}

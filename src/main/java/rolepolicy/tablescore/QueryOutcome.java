package rolepolicy.tablescore;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * What became of one benchmark query.
 *
 * @param status {@code SCORED}; {@code NOT_RUN}: the ground truth cannot run it (or it cannot be
 *     analysed); {@code NOT_SCORED}: it ran, but the system's result could not be scored
 * @param reason why it was not scored, or null
 */
@JsonPropertyOrder({"dataset", "category", "file", "query", "label", "status", "reason", "precision", "recall", "f1"})
@JsonInclude(JsonInclude.Include.NON_NULL)
public record QueryOutcome(
    String dataset,
    String category,
    String file,
    int query,
    String label,
    Status status,
    String reason,
    Double precision,
    Double recall,
    Double f1) {

  public enum Status {
    SCORED,
    NOT_RUN,
    NOT_SCORED
  }

  static QueryOutcome failed(Where where, Status status, String reason) {
    return new QueryOutcome(where.dataset(), where.category(), where.file(), where.query(), where.label(),
        status, reason, null, null, null);
  }

  static QueryOutcome scored(Where where, TableScore score) {
    return new QueryOutcome(where.dataset(), where.category(), where.file(), where.query(), where.label(),
        Status.SCORED, null, score.precision(), score.recall(), score.f1());
  }

  /** A query's place in the benchmark. */
  record Where(String dataset, String category, String file, int query, String label) {}
}

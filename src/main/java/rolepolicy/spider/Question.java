package rolepolicy.spider;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * One question record of a benchmark in Spider's shape.
 *
 * @param index its 1-based position in its question file
 * @param query the SQL text: Spider's {@code query}, BIRD's {@code SQL}, or {@code sql} as a string
 * @param sql the parsed Spider AST when the record has one ({@code sql} other than text), else
 *     null; it may be malformed (the walker reports that)
 * @param extra the record's other fields that pass through to the output (BIRD's {@code
 *     question_id}, {@code evidence}, {@code difficulty}), in file order; null when there are none
 */
public record Question(
    int index, String dbId, String question, String query, JsonNode sql, ObjectNode extra) {

  /** A question without extra fields. */
  public Question(int index, String dbId, String question, String query, JsonNode sql) {
    this(index, dbId, question, query, sql, null);
  }

  /**
   * Whether the record carries a Spider AST, well-formed or not: an {@code sql} field that is
   * neither missing, null nor text.
   */
  public boolean hasAst() {
    return sql != null && !sql.isNull() && !sql.isMissingNode() && !sql.isTextual();
  }
}

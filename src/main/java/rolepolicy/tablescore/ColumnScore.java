package rolepolicy.tablescore;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/** The figures of one scored column. */
@JsonPropertyOrder({"column", "role", "precision", "recall", "f1"})
public record ColumnScore(String column, ColumnRole role, double precision, double recall, double f1) {
  static ColumnScore of(String column, ColumnRole role, double precision, double recall) {
    double f1 = precision + recall == 0 ? 0 : 2 * precision * recall / (precision + recall);
    return new ColumnScore(column, role, precision, recall, f1);
  }
}

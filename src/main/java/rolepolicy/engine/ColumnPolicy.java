package rolepolicy.engine;

import rolepolicy.model.PolicedColumn;
import rolepolicy.model.Policy;
import rolepolicy.model.SchemaColumn;

/**
 * A column's policy with its provenance: the automatic policy and its rule, and the final policy
 * with the override (if any) that set it.
 */
public record ColumnPolicy(
    SchemaColumn column,
    Policy autoPolicy,
    String autoRule,
    Policy finalPolicy,
    String overrideReason,
    String overrideRule) {

  public PolicedColumn policed() {
    return new PolicedColumn(
        column.key(), column.table(), column.name(), column.index(), column.primaryKey(), finalPolicy);
  }
}

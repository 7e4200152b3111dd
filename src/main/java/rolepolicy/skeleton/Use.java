package rolepolicy.skeleton;

import net.sf.jsqlparser.expression.DoubleValue;
import net.sf.jsqlparser.expression.LongValue;
import net.sf.jsqlparser.expression.StringValue;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.create.table.ColDataType;
import net.sf.jsqlparser.statement.select.AllTableColumns;
import net.sf.jsqlparser.statement.select.ParenthesedSelect;
import net.sf.jsqlparser.statement.select.SelectItem;
import net.sf.jsqlparser.statement.select.WithItem;

/** One name or literal of the parse tree that the skeleton replaces, in the order of the text. */
sealed interface Use {
  /** A table in FROM or JOIN: renamed to its placeholder, its alias dropped. */
  record TableName(Table table, FromEntry entry) implements Use {}

  /** A derived table, {@code (SELECT ...) AS t}: its alias becomes its placeholder. */
  record DerivedAlias(ParenthesedSelect query, FromEntry entry) implements Use {}

  /** The name of a WITH definition. */
  record CommonTableName(WithItem<?> item, Name table) implements Use {}

  /** A column in a WITH definition's column list. */
  record DeclaredColumn(Column column, Name name) implements Use {}

  /**
   * A column reference, resolved once the whole query has been walked.
   *
   * @param inItems whether it stands in its level's SELECT items
   */
  record ColumnName(Column column, Scope scope, boolean inItems) implements Use {}

  /** {@code t.*}. */
  record TableColumns(AllTableColumns columns, Name table) implements Use {}

  /** {@code AS alias} of a SELECT item. */
  record ItemAlias(SelectItem<?> item) implements Use {}

  record Text(StringValue value) implements Use {}

  record WholeNumber(LongValue value) implements Use {}

  record DecimalNumber(DoubleValue value) implements Use {}

  /** The type of a CAST, whose numbers are literals: {@code VARCHAR(10)}. */
  record CastType(ColDataType type) implements Use {}
}

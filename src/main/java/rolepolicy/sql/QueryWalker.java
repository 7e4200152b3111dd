package rolepolicy.sql;

import java.util.ArrayList;
import java.util.List;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.parser.Token;
import net.sf.jsqlparser.statement.select.AllColumns;
import net.sf.jsqlparser.statement.select.FromItem;
import net.sf.jsqlparser.statement.select.Join;
import net.sf.jsqlparser.statement.select.ParenthesedSelect;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.select.SelectItem;
import net.sf.jsqlparser.statement.select.SetOperationList;
import rolepolicy.model.Role;
import rolepolicy.spider.Schema;

/**
 * Walks a parsed query in the order of SPEC §4 and collects its column references: SELECT items,
 * JOIN ... ON conditions, nested queries of FROM, WHERE, nested queries of HAVING, then the
 * set-operation parts.
 */
final class QueryWalker {
  private final Schema schema;
  private final TextPositions positions;
  final List<TextRef> refs = new ArrayList<>();
  final List<TextTable> fromTables = new ArrayList<>();
  boolean selectStar;
  boolean setOperation;
  int selectListEnd = -1;

  QueryWalker(Schema schema, TextPositions positions) {
    this.schema = schema;
    this.positions = positions;
  }

  /**
   * Walks one query.
   *
   * @param predicateRole the role of a query that is a condition operand, else null
   * @param topLevel whether this is the top-level query (its first part, under a set operation)
   * @param outer the scope of the enclosing query, or null
   */
  void query(Select select, Role predicateRole, boolean topLevel, QueryScope outer) {
    if (select.getWithItemsList() != null && !select.getWithItemsList().isEmpty()) {
      throw new SqlAnalysisException("WITH is not supported");
    }
    if (select instanceof ParenthesedSelect parenthesed) {
      query(parenthesed.getSelect(), predicateRole, topLevel, outer);
    } else if (select instanceof SetOperationList setOperations) {
      setOperation |= topLevel;
      List<Select> parts = setOperations.getSelects();
      for (int k = 0; k < parts.size(); k++) {
        query(parts.get(k), predicateRole, topLevel && k == 0, outer);
      }
    } else if (select instanceof PlainSelect plain) {
      plainSelect(plain, predicateRole, topLevel, outer);
    } else {
      throw new SqlAnalysisException(
          "unsupported query form: " + select.getClass().getSimpleName());
    }
  }

  private void plainSelect(
      PlainSelect select, Role predicateRole, boolean topLevel, QueryScope outer) {
    QueryScope scope = QueryScope.of(select, schema, outer);
    if (topLevel) {
      scope.entries().stream()
          .filter(e -> e.schemaTable() != null)
          .forEach(e -> fromTables.add(new TextTable(e.written(), e.alias(), e.schemaTable())));
    }
    selectItems(select.getSelectItems(), predicateRole, topLevel, scope);
    for (Join join : joins(select)) {
      if (join.getUsingColumns() != null && !join.getUsingColumns().isEmpty()) {
        throw new SqlAnalysisException("JOIN ... USING is not supported");
      }
      for (Expression on : join.getOnExpressions()) {
        condition(on, Role.JoinCond, true, scope);
      }
    }
    for (FromItem item : QueryScope.fromItems(select)) {
      if (item instanceof ParenthesedSelect nested) {
        query(nested, null, false, outer);
      }
    }
    condition(select.getWhere(), Role.WherePred, true, scope);
    condition(select.getHaving(), Role.WherePred, false, scope);
  }

  private void selectItems(
      List<SelectItem<?>> items, Role predicateRole, boolean topLevel, QueryScope scope) {
    for (int i = 0; i < items.size(); i++) {
      SelectItem<?> item = items.get(i);
      Expression expression = item.getExpression();
      if (expression instanceof AllColumns) {
        selectStar = true;
        continue;
      }
      Span itemSpan = withoutAlias(item);
      for (Operand operand : ExpressionOperands.of(expression)) {
        if (operand instanceof Operand.ColumnUse use) {
          Role role =
              use.aggId() != 0
                  ? Role.AggArg
                  : predicateRole != null ? predicateRole : Role.SelectExpr;
          add(use, role, topLevel ? i : -1, itemSpan, scope);
        } else if (operand instanceof Operand.NestedQuery nested) {
          query(nested.query(), predicateRole, false, scope);
        }
      }
    }
    if (topLevel && !items.isEmpty()) {
      selectListEnd = positions.node(items.get(items.size() - 1)).end();
    }
  }

  /** A condition's columns (when judged) and nested queries, left to right. */
  private void condition(Expression condition, Role role, boolean judged, QueryScope scope) {
    for (Operand operand : ExpressionOperands.of(condition)) {
      if (operand instanceof Operand.ColumnUse use) {
        if (judged) {
          add(use, role, -1, null, scope);
        }
      } else if (operand instanceof Operand.NestedQuery nested) {
        query(nested.query(), role, false, scope);
      }
    }
  }

  private void add(
      Operand.ColumnUse use, Role role, int selectItem, Span itemSpan, QueryScope scope) {
    Span columnSpan = positions.node(use.column());
    Span nameSpan = positions.token(use.column().getASTNode().jjtGetLastToken());
    Span aggregateSpan = use.aggregate() == null ? null : positions.node(use.aggregate());
    QueryScope.Resolution resolution = scope.resolve(use.column());
    refs.add(
        new TextRef(
            resolution.column(),
            resolution.qualifier(),
            role,
            use.aggId(),
            selectItem,
            columnSpan,
            nameSpan,
            itemSpan,
            aggregateSpan));
  }

  /** The SELECT item's text without its alias ({@code AS x} or {@code x}). */
  private Span withoutAlias(SelectItem<?> item) {
    Span whole = positions.node(item);
    if (item.getAlias() == null) {
      return whole;
    }
    List<Token> tokens = new ArrayList<>();
    Token last = item.getASTNode().jjtGetLastToken();
    for (Token t = item.getASTNode().jjtGetFirstToken(); t != null; t = t.next) {
      tokens.add(t);
      if (t == last) {
        break;
      }
    }
    int end = tokens.size() - 1; // the alias name
    if (end > 0 && tokens.get(end - 1).image.equalsIgnoreCase("AS")) {
      end--;
    }
    if (end < 1) {
      throw new SqlAnalysisException("cannot find the expression of SELECT item " + item);
    }
    return positions.between(tokens.get(0), tokens.get(end - 1));
  }

  private static List<Join> joins(PlainSelect select) {
    return select.getJoins() == null ? List.of() : select.getJoins();
  }
}

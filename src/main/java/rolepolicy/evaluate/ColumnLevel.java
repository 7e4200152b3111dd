package rolepolicy.evaluate;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.select.FromItem;
import net.sf.jsqlparser.statement.select.ParenthesedSelect;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.select.SelectItem;
import net.sf.jsqlparser.statement.select.SetOperationList;
import rolepolicy.db.Execution;
import rolepolicy.model.SchemaColumn;
import rolepolicy.spider.Schema;
import rolepolicy.sql.ClauseWalker;
import rolepolicy.sql.Identifiers;
import rolepolicy.sql.SqlAnalyzer;
import rolepolicy.tablescore.CellJudge;
import rolepolicy.tablescore.CellText;
import rolepolicy.tablescore.ColumnRole;
import rolepolicy.tablescore.ColumnScore;
import rolepolicy.tablescore.ScoredColumn;
import rolepolicy.tablescore.TableScore;
import rolepolicy.tablescore.TableScorer;

/**
 * Column-level precision, recall and F1 of an executed prediction against the gold result, with
 * the result-table scorer: rows matched on the gold's GROUP BY columns, else on the primary-key
 * columns it selects, else compared column by column as multisets (or position by position when
 * the gold is ordered); cells equal as execution match compares them.
 */
final class ColumnLevel {
  private ColumnLevel() {}

  /** The figures of one question, as {@code per_question.jsonl} gives them. */
  @JsonPropertyOrder({"precision", "recall", "f1", "keys", "gold_rows", "predicted_rows", "cut", "per_column"})
  @JsonInclude(JsonInclude.Include.NON_NULL)
  record Figures(
      double precision, double recall, double f1, List<String> keys,
      @JsonProperty("gold_rows") int goldRows,
      @JsonProperty("predicted_rows") int predictedRows,
      Boolean cut,
      @JsonProperty("per_column") List<ColumnScore> perColumn) {}

  /** Equal as execution match compares: numbers by value, the rest as text, NULL to NULL only. */
  static final CellJudge EXACT = (column, gold, result) -> CellText.exact(gold).equals(CellText.exact(result));

  private static final TableScorer SCORER = new TableScorer(EXACT);

  static Figures score(String goldSql, Schema schema, Execution gold, Execution predicted, boolean ordered) {
    Set<Integer> keys = keyColumns(goldSql, schema);
    List<ScoredColumn> columns = new ArrayList<>();
    for (int c = 0; c < gold.columns().size(); c++) {
      columns.add(ScoredColumn.of(gold.columns().get(c), keys.contains(c) ? ColumnRole.KEY : ColumnRole.VALUE));
    }
    int[] index = pairColumns(gold.columns(), predicted.columns());
    List<ScoredColumn> scored = columns;
    boolean keyed = !keys.isEmpty();
    for (int k : keys) {
      keyed &= index[k] >= 0;
    }
    if (!keyed && !keys.isEmpty()) {
      // a key the prediction lacks cannot match rows: score every column by value instead
      scored = columns.stream().map(c -> ScoredColumn.of(c.name(), ColumnRole.VALUE)).toList();
    }
    TableScore score = SCORER.score(scored,
        new rolepolicy.tablescore.Table(gold.columns(), gold.rows()),
        new rolepolicy.tablescore.Table(predicted.columns(), predicted.rows()), index, ordered);
    List<ColumnScore> perColumn = new ArrayList<>(score.columns());
    Set<Integer> paired = new HashSet<>();
    for (int i : index) {
      paired.add(i);
    }
    for (int p = 0; p < predicted.columns().size(); p++) {
      if (!paired.contains(p)) {
        perColumn.add(new ColumnScore("(extra) " + predicted.columns().get(p), ColumnRole.VALUE, 0, 0, 0));
      }
    }
    return new Figures(
        mean(perColumn, ColumnScore::precision), mean(perColumn, ColumnScore::recall), mean(perColumn, ColumnScore::f1),
        score.keys(), gold.rows().size(), predicted.rows().size(), predicted.message() != null ? true : null, perColumn);
  }

  /**
   * Each gold column's predicted column: the first unpaired one with the same label (without
   * regard to case), then the remaining ones in order; -1 when the prediction has too few.
   */
  static int[] pairColumns(List<String> gold, List<String> predicted) {
    int[] index = new int[gold.size()];
    boolean[] used = new boolean[predicted.size()];
    for (int g = 0; g < gold.size(); g++) {
      index[g] = -1;
      for (int p = 0; p < predicted.size(); p++) {
        if (!used[p] && predicted.get(p).equalsIgnoreCase(gold.get(g))) {
          index[g] = p;
          used[p] = true;
          break;
        }
      }
    }
    int next = 0;
    for (int g = 0; g < gold.size(); g++) {
      if (index[g] >= 0) {
        continue;
      }
      while (next < used.length && used[next]) {
        next++;
      }
      if (next < used.length) {
        index[g] = next;
        used[next] = true;
      }
    }
    return index;
  }

  /**
   * The gold's output columns that identify a row: its GROUP BY columns when it groups, else the
   * primary-key columns it selects. None for set operations, derived tables, or SQL JSqlParser
   * does not read.
   */
  static Set<Integer> keyColumns(String goldSql, Schema schema) {
    Select select;
    try {
      // the one SQL parser, its fast path first (50 times faster on the SQL it knows)
      select = SqlAnalyzer.parseSelectFastFirst(goldSql);
    } catch (RuntimeException | StackOverflowError e) {
      return Set.of();
    }
    return keyColumns(select, schema);
  }

  /** {@link #keyColumns(String, Schema)} of a parsed query. */
  static Set<Integer> keyColumns(Select select, Schema schema) {
    KeyReader reader = new KeyReader(schema);
    reader.query(select, null);
    return reader.keys;
  }

  /**
   * The clause walker's visitor of the top-level plain query (nothing else): its FROM tables, GROUP
   * BY columns and SELECT items, resolved when the query's walk ends.
   */
  private static final class KeyReader extends ClauseWalker<Void, Void> {
    private final Schema schema;
    private final Map<String, String> tables = new LinkedHashMap<>();
    private final List<Expression> items = new ArrayList<>();
    private final List<Column> groupBy = new ArrayList<>();
    private boolean onlySchemaTables = true;
    Set<Integer> keys = Set.of();

    KeyReader(Schema schema) {
      this.schema = schema;
    }

    @Override
    protected void setOperations(SetOperationList list, Void context) {}

    @Override
    protected void parenthesed(ParenthesedSelect select, Void context) {}

    @Override
    protected void otherQuery(Select select, Void context) {}

    @Override
    protected Void level(PlainSelect select, Void context) {
      onlySchemaTables = select.getFromItem() != null;
      return null;
    }

    @Override
    protected void selectItem(SelectItem<?> item, int index, Void level) {
      items.add(item.getExpression());
    }

    @Override
    protected void fromItem(FromItem item, Void level) {
      onlySchemaTables &= addTable(item, tables, schema);
    }

    @Override
    protected void expression(Clause clause, Expression expression, Void level) {
      if (clause == Clause.GROUP_BY && expression instanceof Column column) {
        groupBy.add(column);
      }
    }

    @Override
    protected void endLevel(PlainSelect select, Void level) {
      if (!onlySchemaTables) {
        return;
      }
      Set<String> grouping = new HashSet<>();
      for (Column column : groupBy) {
        resolve(column, tables, schema).ifPresent(grouping::add);
      }
      boolean grouped = select.getGroupBy() != null;
      keys = new HashSet<>();
      for (int i = 0; i < items.size(); i++) {
        if (!(items.get(i) instanceof Column c)) {
          continue;
        }
        Optional<String> key = resolve(c, tables, schema);
        if (key.isEmpty()) {
          continue;
        }
        boolean isKey = grouped ? grouping.contains(key.get())
            : schema.columnByKey(key.get()).map(SchemaColumn::primaryKey).orElse(false);
        if (isKey) {
          keys.add(i);
        }
      }
    }
  }

  private static boolean addTable(FromItem item, Map<String, String> tables, Schema schema) {
    if (!(item instanceof Table t)) {
      return false;
    }
    Optional<String> name = schema.tableNamed(Identifiers.unquote(t.getName()));
    if (name.isEmpty()) {
      return false;
    }
    String qualifier = t.getAlias() != null ? Identifiers.unquote(t.getAlias().getName()) : name.get();
    tables.put(qualifier.toLowerCase(Locale.ROOT), name.get());
    return true;
  }

  /** The column's key {@code table.column}, when its table is certain. */
  private static Optional<String> resolve(Column c, Map<String, String> tables, Schema schema) {
    String name = Identifiers.unquote(c.getColumnName());
    String table;
    if (c.getTable() != null && c.getTable().getName() != null) {
      table = tables.get(Identifiers.unquote(c.getTable().getName()).toLowerCase(Locale.ROOT));
    } else {
      List<String> having = tables.values().stream().distinct()
          .filter(t -> schema.columnsOf(t).stream().anyMatch(s -> s.name().equalsIgnoreCase(name))).toList();
      table = having.size() == 1 ? having.get(0) : null;
    }
    if (table == null || schema.columnByKey(SchemaColumn.keyOf(table, name)).isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(SchemaColumn.keyOf(table, name));
  }

  private static double mean(List<ColumnScore> scores, java.util.function.ToDoubleFunction<ColumnScore> f) {
    return scores.stream().mapToDouble(f).average().orElse(0);
  }
}

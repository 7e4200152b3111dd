package rolepolicy.tablescore;

import java.util.List;

/**
 * A result table scored against the gold result.
 *
 * @param keys the key columns rows were matched on (empty: matched by value, column by column)
 * @param columns the scored columns, in gold order
 * @param precision the mean of the columns' precision; likewise recall and F1
 * @param matchedGold the matched gold rows, sorted by key (key and scored columns, gold order)
 * @param matchedResult the result rows matched to them, row for row
 * @param warnings what the reader of the figures should know (repeated keys)
 */
public record TableScore(
    List<String> keys,
    int goldRows,
    int resultRows,
    int matchedRows,
    List<ColumnScore> columns,
    double precision,
    double recall,
    double f1,
    List<List<Object>> matchedGold,
    List<List<Object>> matchedResult,
    List<String> warnings) {}

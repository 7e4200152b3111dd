package rolepolicy.model;

import java.util.List;

/**
 * The rules' facts of one query: what walking its Spider AST found ({@link AstWalker}), or what
 * analysing its SQL text found ({@code SqlAnalysis.facts()}, where paths are null).
 *
 * @param refs the column references in walk order
 * @param shape whole-query flags
 * @param problems why parts could not be resolved, each naming its place in the AST
 * @param fromTables the tables of the top-level FROM, in FROM order
 * @param selectItems the top-level SELECT items
 * @param tables every table the query reads, at any depth, in first-seen order
 * @param starTables the tables whose every column a {@code *} reads, at any depth, in first-seen order
 */
public record QueryFacts(
    List<ColumnRef> refs,
    QueryShape shape,
    List<String> problems,
    List<FromTable> fromTables,
    List<SelectItem> selectItems,
    List<String> tables,
    List<String> starTables) {}

package rolepolicy.model;

/**
 * One item of the top-level SELECT list, as the negative rules see it.
 *
 * @param index position in the SELECT list, from 0
 * @param aggregate the item's effective aggregate
 * @param column the column key when the item is a single column, else null
 * @param path JSON Pointer of the item in the Spider AST
 */
public record SelectItem(int index, Aggregate aggregate, String column, String path) {}

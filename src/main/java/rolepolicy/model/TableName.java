package rolepolicy.model;

import java.util.List;

/**
 * A table's name as the review rules see it.
 *
 * @param table the name as the schema writes it
 * @param words its words, lower-cased: split at non-letters and where lower case turns upper
 */
public record TableName(String table, List<String> words) {}

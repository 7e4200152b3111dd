package rolepolicy.spider;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * One record of a Spider split.
 *
 * @param index its 1-based position in the split file
 * @param sql the parsed AST; may be null, missing or malformed (the walker reports that)
 */
public record Question(int index, String dbId, String question, String query, JsonNode sql) {}

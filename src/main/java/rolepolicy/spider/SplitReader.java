package rolepolicy.spider;

import rolepolicy.io.InputException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;

/** Streams the records of a Spider split file (a JSON array), one at a time. */
public final class SplitReader implements Closeable {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Path file;
  private final JsonParser parser;
  private int index;

  public SplitReader(Path file) {
    this.file = file;
    InputException.requireFile(file, false, "");
    try {
      parser = JSON.createParser(file.toFile());
      if (parser.nextToken() != JsonToken.START_ARRAY) {
        throw new InputException(file + ": expected a JSON array of questions");
      }
    } catch (IOException e) {
      throw new InputException(InputException.describe(file, e), e);
    }
  }

  /** The next question, or null after the last. */
  public Question next() {
    try {
      JsonToken token = parser.nextToken();
      if (token == JsonToken.END_ARRAY) {
        return null;
      }
      index++;
      if (token != JsonToken.START_OBJECT) {
        throw new InputException(where() + ": expected a JSON object, found " + describe(token));
      }
      JsonNode record = JSON.readTree(parser);
      JsonNode ast = record.get("sql");
      return new Question(
          index,
          text(record, "db_id"),
          text(record, "question"),
          sqlText(record),
          ast != null && ast.isTextual() ? null : ast,
          extra((ObjectNode) record));
    } catch (JsonProcessingException e) {
      throw new InputException(InputException.describe(file, e) + " (in record #" + index + ")", e);
    } catch (IOException e) {
      throw new InputException(file + ": cannot read (" + InputException.reason(file, e) + ")", e);
    }
  }

  private static String describe(JsonToken token) {
    if (token == null) {
      return "the end of the file";
    }
    return switch (token) {
      case START_ARRAY -> "an array";
      case VALUE_STRING -> "a string";
      case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> "a number";
      case VALUE_TRUE, VALUE_FALSE -> "a boolean";
      case VALUE_NULL -> "null";
      default -> token.toString();
    };
  }

  /** Bytes consumed so far, for progress. */
  public long bytesRead() {
    return parser.currentLocation().getByteOffset();
  }

  public String where() {
    return file + ": record #" + index;
  }

  /** Spider's fields, and its token lists, which the output does not repeat. */
  private static final Set<String> KNOWN =
      Set.of("db_id", "question", "query", "SQL", "sql", "query_toks", "query_toks_no_value",
          "question_toks");

  /** The record's other fields, or null. */
  private static ObjectNode extra(ObjectNode record) {
    ObjectNode extra = null;
    for (Iterator<Map.Entry<String, JsonNode>> it = record.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> field = it.next();
      if (!KNOWN.contains(field.getKey())) {
        if (extra == null) {
          extra = JSON.createObjectNode();
        }
        extra.set(field.getKey(), field.getValue());
      }
    }
    return extra;
  }

  /** The SQL text: {@code query}, else {@code SQL}, else {@code sql} as a string. */
  private String sqlText(JsonNode record) {
    for (String field : new String[] {"query", "SQL", "sql"}) {
      JsonNode value = record.get(field);
      if (value != null && value.isTextual()) {
        return value.asText();
      }
    }
    boolean ast = record.has("sql") && record.get("sql").isObject();
    throw new InputException(
        where() + ": no SQL text: expected a text field 'query', 'SQL' or 'sql'"
            + (ast ? " (the record has a Spider AST, but the output needs the SQL text too)" : ""));
  }

  private String text(JsonNode record, String field) {
    JsonNode value = record.get(field);
    if (value == null || !value.isTextual()) {
      throw new InputException(where() + ": missing text field '" + field + "'");
    }
    return value.asText();
  }

  @Override
  public void close() {
    try {
      parser.close();
    } catch (IOException e) {
      // reading is over; nothing is lost
    }
  }
}

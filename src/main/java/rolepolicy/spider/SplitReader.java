package rolepolicy.spider;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Streams the records of a Spider split file (a JSON array), one at a time. */
public final class SplitReader implements Closeable {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Path file;
  private final JsonParser parser;
  private int index;

  public SplitReader(Path file) {
    this.file = file;
    if (!Files.isRegularFile(file)) {
      throw new InputException(file + ": file not found");
    }
    try {
      parser = JSON.createParser(file.toFile());
      if (parser.nextToken() != JsonToken.START_ARRAY) {
        throw new InputException(file + ": expected a JSON array of questions");
      }
    } catch (IOException e) {
      throw new InputException(SchemaReader.describe(file, e), e);
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
      return new Question(
          index,
          text(record, "db_id"),
          text(record, "question"),
          text(record, "query"),
          record.get("sql"));
    } catch (JsonProcessingException e) {
      throw new InputException(SchemaReader.describe(file, e) + " (in record #" + index + ")", e);
    } catch (IOException e) {
      throw new InputException(file + ": cannot read (" + InputException.reason(e) + ")", e);
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

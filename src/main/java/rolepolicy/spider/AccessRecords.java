package rolepolicy.spider;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;
import rolepolicy.io.DatasetWriter;
import rolepolicy.io.InputException;

/** Reads Spider-AC records: JSON Lines, plain or gzip-compressed ({@code .gz}). */
public final class AccessRecords {
  private AccessRecords() {}

  /** Every record of the file, in file order; a bad line, or none, is an error naming the file (and line). */
  public static List<AccessRecord> read(Path file) {
    InputException.requireFile(file, true, "");
    List<AccessRecord> records = new ArrayList<>();
    try (InputStream raw = Files.newInputStream(file);
        InputStream in = file.toString().endsWith(".gz") ? new GZIPInputStream(raw) : raw;
        BufferedReader reader =
            new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8.newDecoder()))) {
      String text;
      int line = 0;
      while ((text = reader.readLine()) != null) {
        line++;
        if (!text.isBlank()) {
          records.add(record(line == 1 ? stripBom(text) : text, file + ":" + line, line));
        }
      }
    } catch (IOException e) {
      throw new InputException(file + ": " + InputException.reason(e), e);
    }
    if (records.isEmpty()) {
      throw new InputException(file + ": no records (the file is empty): give a file of JSON Lines records");
    }
    return records;
  }

  /** A leading byte-order mark is skipped, as JSON allows. */
  private static String stripBom(String text) {
    return text.isEmpty() || text.charAt(0) != InputException.BOM ? text : text.substring(1);
  }

  private static AccessRecord record(String text, String where, int line) {
    JsonNode node;
    try {
      node = DatasetWriter.JSON.readTree(text);
    } catch (JsonProcessingException e) {
      throw new InputException(where + ": not JSON: " + e.getOriginalMessage());
    }
    if (!node.isObject()) {
      throw new InputException(where + ": not a JSON object");
    }
    return new AccessRecord(
        line,
        field(node, "db_id", where),
        field(node, "user", where),
        node.path("question").asText(""),
        field(node, "query", where),
        field(node, "access_policy_sql", where),
        field(node, "schema_ddl", where),
        field(node, "ground_truth_label", where));
  }

  private static String field(JsonNode node, String name, String where) {
    JsonNode value = node.get(name);
    if (value == null || !value.isTextual()) {
      throw new InputException(where + ": field '" + name + "' is missing or not a string");
    }
    return value.asText();
  }
}

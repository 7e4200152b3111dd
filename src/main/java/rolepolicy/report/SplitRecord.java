package rolepolicy.report;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import rolepolicy.io.InputException;

/**
 * The fields of one generated record (docs/output-format.md) that the report reads; the others
 * (column policies, paths) are skipped.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record SplitRecord(
    String id,
    @JsonProperty("db_id") String dbId,
    String question,
    @JsonProperty("original_sql") String originalSql,
    @JsonProperty("column_policies") Map<String, String> columnPolicies,
    @JsonProperty("violations_original") List<Violation> violations,
    @JsonProperty("gold_label") Gold gold,
    @JsonProperty("negative_examples") List<Negative> negatives,
    List<String> problems) {

  public SplitRecord {
    columnPolicies = columnPolicies == null ? Map.of() : columnPolicies;
    violations = violations == null ? List.of() : List.copyOf(violations);
    negatives = negatives == null ? List.of() : List.copyOf(negatives);
    problems = problems == null ? List.of() : List.copyOf(problems);
  }

  public boolean refused() {
    return "REFUSE".equals(gold.type());
  }

  /** One violating reference. */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record Violation(
      String column, String role, String policy, @JsonProperty("agg_id") int aggId, String rule) {}

  /** The gold label: SQL or REFUSE, with its reason, rule and rewrite steps. */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record Gold(
      String type, String sql, String reason, String rule, String column, String role, List<Step> steps) {
    public Gold {
      steps = steps == null ? List.of() : List.copyOf(steps);
    }
  }

  /** One rewrite step. */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record Step(
      int step,
      String rule,
      @JsonProperty("rule_name") String ruleName,
      String column,
      String replacement,
      String sql) {}

  /** One negative example. */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record Negative(
      String sql, List<Violation> violations, String rule, @JsonProperty("rule_name") String ruleName, String edit) {
    public Negative {
      violations = violations == null ? List.of() : List.copyOf(violations);
    }

    public Negative(String sql, List<Violation> violations, String rule) {
      this(sql, violations, rule, null, null);
    }
  }

  private static final ObjectReader READER = new ObjectMapper().readerFor(SplitRecord.class);

  /** Reads a split file; a record without id, db_id, original_sql or gold_label is bad input. */
  public static List<SplitRecord> read(Path file) {
    List<SplitRecord> records = new ArrayList<>();
    try (MappingIterator<SplitRecord> it = READER.readValues(file.toFile())) {
      while (it.hasNextValue()) {
        SplitRecord record = it.nextValue();
        String where = file + ": record #" + (records.size() + 1);
        if (record == null || record.id() == null || record.dbId() == null || record.originalSql() == null) {
          throw new InputException(where + ": missing id, db_id or original_sql (is this a generated split?)");
        }
        if (record.gold() == null || record.gold().type() == null) {
          throw new InputException(where + " (" + record.id() + "): missing gold_label.type");
        }
        records.add(record);
      }
    } catch (IOException | RuntimeException e) {
      if (e instanceof InputException input) {
        throw input;
      }
      String notUtf8 = e instanceof IOException ? InputException.notUtf8(file) : null;
      throw new InputException(notUtf8 != null ? file + ": not UTF-8 text: " + notUtf8
          : file + ": cannot read as a generated split (" + firstLine(e.getMessage()) + ")", e);
    }
    if (records.isEmpty()) {
      throw new InputException(file + (isBlank(file) ? ": the file is empty, not JSON" : ": no records (an empty list)")
          + "; a generated split holds one record per question");
    }
    return records;
  }

  private static boolean isBlank(Path file) {
    try {
      return Files.readString(file).isBlank();
    } catch (IOException e) {
      return false;
    }
  }

  private static String firstLine(String message) {
    if (message == null) {
      return "no detail";
    }
    int newline = message.indexOf('\n');
    return newline < 0 ? message : message.substring(0, newline);
  }
}

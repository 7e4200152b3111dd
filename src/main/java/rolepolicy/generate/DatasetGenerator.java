package rolepolicy.generate;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.LongConsumer;
import rolepolicy.engine.Audit;
import rolepolicy.engine.ColumnPolicy;
import rolepolicy.engine.DatabasePolicies;
import rolepolicy.generate.Records.QuestionRecord;
import rolepolicy.spider.InputException;
import rolepolicy.spider.Question;
import rolepolicy.spider.SplitReader;

/** Streams one split file through the question generator into the output records. */
public final class DatasetGenerator {
  private final QuestionGenerator questions;

  public DatasetGenerator(QuestionGenerator questions) {
    this.questions = questions;
  }

  /**
   * Generates {@code split} from {@code input} into {@code output}; with an {@code audit} writer,
   * one JSON line per question lists every rule that fired. {@code progress} gets bytes read.
   */
  public SplitSummary generate(
      String split, Path input, Path output, BufferedWriter audit, LongConsumer progress) {
    long start = System.nanoTime();
    int count = 0;
    int refused = 0;
    int violations = 0;
    int problems = 0;
    try (SplitReader reader = new SplitReader(input);
        JsonGenerator out = DatasetWriter.arrayWriter(output)) {
      for (Question question = reader.next(); question != null; question = reader.next()) {
        if (!questions.knowsDatabase(question.dbId())) {
          throw new InputException(
              reader.where() + ": unknown db_id '" + question.dbId() + "' (not in the schema file)");
        }
        String id = String.format("%s_%04d", split, question.index());
        Audit trail = audit == null ? null : new Audit();
        QuestionRecord record = questions.generate(id, question, trail);
        out.writeObject(record);
        if (audit != null) {
          audit.write(DatasetWriter.JSON.writeValueAsString(new AuditLine(id, question.dbId(), trail.firings())));
          audit.newLine();
        }
        count++;
        refused += "REFUSE".equals(record.goldLabel().type()) ? 1 : 0;
        violations += record.violationsOriginal().size();
        problems += record.problems() == null ? 0 : 1;
        progress.accept(reader.bytesRead());
      }
      out.writeEndArray();
      out.writeRaw('\n');
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new SplitSummary(split, count, refused, violations, problems, (System.nanoTime() - start) / 1e9);
  }

  /** One line of the audit file. */
  @JsonPropertyOrder({"id", "db_id", "firings"})
  record AuditLine(String id, @JsonProperty("db_id") String dbId, List<Audit.Firing> firings) {}

  /** The policy file of one database: every column with auto and final policy and provenance. */
  @JsonPropertyOrder({"db_id", "columns"})
  record PolicyFile(@JsonProperty("db_id") String dbId, List<PolicyRow> columns) {}

  @JsonPropertyOrder({
    "column", "table", "name", "type", "primary_key", "auto_policy", "auto_rule", "final_policy",
    "override_reason", "override_rule"
  })
  @JsonInclude(JsonInclude.Include.NON_NULL)
  record PolicyRow(
      String column,
      String table,
      String name,
      String type,
      @JsonProperty("primary_key") boolean primaryKey,
      @JsonProperty("auto_policy") String autoPolicy,
      @JsonProperty("auto_rule") String autoRule,
      @JsonProperty("final_policy") String finalPolicy,
      @JsonProperty("override_reason") String overrideReason,
      @JsonProperty("override_rule") String overrideRule) {}

  /** Stages {@code policies/<db_id>.json} for every database. */
  public static void writePolicies(
      Map<String, DatabasePolicies> policies, Path outDir, AtomicOutput output) {
    for (DatabasePolicies db : policies.values()) {
      List<PolicyRow> rows =
          db.columns().stream().map(DatasetGenerator::row).toList();
      Path file = output.stage(outDir.resolve("policies").resolve(db.dbId() + ".json"));
      DatasetWriter.write(file, new PolicyFile(db.dbId(), rows));
    }
  }

  private static PolicyRow row(ColumnPolicy c) {
    return new PolicyRow(
        c.column().key(),
        c.column().table(),
        c.column().name(),
        c.column().type(),
        c.column().primaryKey(),
        c.autoPolicy().name(),
        c.autoRule(),
        c.finalPolicy().name(),
        c.overrideReason(),
        c.overrideRule());
  }
}

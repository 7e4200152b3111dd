package rolepolicy.generate;

import rolepolicy.io.DatasetWriter;
import rolepolicy.io.AtomicOutput;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.function.LongConsumer;
import rolepolicy.engine.TextQuery;
import rolepolicy.engine.Audit;
import rolepolicy.engine.ColumnPolicy;
import rolepolicy.engine.DatabasePolicies;
import rolepolicy.engine.RuleLimits;
import rolepolicy.generate.Records.QuestionRecord;
import rolepolicy.io.InputException;
import rolepolicy.spider.Question;
import rolepolicy.spider.SplitReader;

/** Streams one split file through the question generator into the output records. */
public final class DatasetGenerator {
  /** Questions handed to a worker at a time: contiguous, so a repeated query meets its parse. */
  private static final int BATCH = 16;

  private final QuestionGenerator questions;
  private final int threads;

  /** A generator that works on one thread. */
  public DatasetGenerator(QuestionGenerator questions) {
    this(questions, 1);
  }

  /**
   * A generator that builds records on {@code threads} threads; the output is written in input
   * order by the calling thread, and is the same whatever the number of threads.
   */
  public DatasetGenerator(QuestionGenerator questions, int threads) {
    if (threads < 1) {
      throw new IllegalArgumentException("threads must be at least 1, not " + threads);
    }
    this.questions = questions;
    this.threads = threads;
  }

  /**
   * One question's output: its record, with an audit its audit line, and where its SQL text could
   * not be analysed, the place and reason.
   */
  private record Generated(QuestionRecord record, String auditLine, String unanalysable) {}

  /**
   * Generates {@code split} from {@code input} into {@code output}; with an {@code audit} writer,
   * one JSON line per question lists every rule that fired. {@code progress} gets bytes read.
   * Records are built on the worker threads; at most a few batches per thread are in flight, so
   * memory does not grow with the split.
   */
  public SplitSummary generate(
      String split, Path input, Path output, BufferedWriter audit, LongConsumer progress) {
    return generate(split, List.of(input), output, audit, progress);
  }

  /**
   * As {@link #generate(String, Path, Path, BufferedWriter, LongConsumer)} over several question
   * files read one after the other into one split; ids number the questions across the files, and
   * {@code progress} gets the bytes read of all files so far.
   */
  public SplitSummary generate(
      String split, List<Path> inputs, Path output, BufferedWriter audit, LongConsumer progress) {
    return generate(split, output, audit, sink -> {
      int number = 0;
      long bytesBefore = 0;
      for (Path input : inputs) {
        try (SplitReader reader = new SplitReader(input)) {
          for (Question question = reader.next(); question != null; question = reader.next()) {
            sink.accept(new Numbered(++number, question, reader.where()));
            progress.accept(bytesBefore + reader.bytesRead());
          }
          bytesBefore += reader.bytesRead();
        }
      }
    });
  }

  /**
   * As above over questions read elsewhere (Spider-AC's records, say); {@code places} names where
   * each stands, for errors.
   */
  public SplitSummary generate(
      String split, List<Question> questions, List<String> places, Path output, BufferedWriter audit) {
    return generate(split, output, audit, sink -> {
      for (int i = 0; i < questions.size(); i++) {
        sink.accept(new Numbered(i + 1, questions.get(i), places.get(i)));
      }
    });
  }

  /** Where a split's questions come from: it hands each, in order, to the sink. */
  private interface QuestionFeed {
    void feed(java.util.function.Consumer<Numbered> sink) throws IOException;
  }

  private SplitSummary generate(String split, Path output, BufferedWriter audit, QuestionFeed feed) {
    long start = System.nanoTime();
    Totals totals = new Totals();
    ExecutorService pool = threads == 1 ? null : Executors.newFixedThreadPool(threads, DatasetGenerator::worker);
    try (JsonGenerator out = DatasetWriter.arrayWriter(output)) {
      Deque<Future<List<Generated>>> inFlight = new ArrayDeque<>();
      List<List<Numbered>> batch = new ArrayList<>(List.of(new ArrayList<>(BATCH)));
      feed.feed(numbered -> {
        if (!questions.knowsDatabase(numbered.question().dbId())) {
          // the questions before it come first: a failure among them is the one to report
          inFlight.add(submit(pool, split, batch.get(0), audit != null));
          while (!inFlight.isEmpty()) {
            await(inFlight.poll());
          }
          throw new InputException(
              numbered.where() + ": unknown db_id '" + numbered.question().dbId() + "' (not in the schema file)");
        }
        batch.get(0).add(numbered);
        if (batch.get(0).size() == BATCH) {
          inFlight.add(submit(pool, split, batch.get(0), audit != null));
          batch.set(0, new ArrayList<>(BATCH));
          while (inFlight.size() > 4 * threads) {
            try {
              write(await(inFlight.poll()), out, audit, totals);
            } catch (IOException e) {
              throw new UncheckedIOException(e);
            }
          }
        }
      });
      if (!batch.get(0).isEmpty()) {
        inFlight.add(submit(pool, split, batch.get(0), audit != null));
      }
      while (!inFlight.isEmpty()) {
        write(await(inFlight.poll()), out, audit, totals);
      }
      out.writeEndArray();
      out.writeRaw('\n');
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      if (pool != null) {
        pool.shutdownNow();
      }
    }
    return new SplitSummary(
        split, totals.count, totals.refused, totals.violations, totals.problems,
        (System.nanoTime() - start) / 1e9, totals.unanalysable);
  }

  /**
   * A question with its number in the split (across its question files), from 1, and its place
   * in its file.
   */
  private record Numbered(int number, Question question, String where) {}

  /** Running figures of the split summary. */
  private static final class Totals {
    int count;
    int refused;
    int violations;
    int problems;
    final List<String> unanalysable = new ArrayList<>();
  }

  private Future<List<Generated>> submit(
      ExecutorService pool, String split, List<Numbered> batch, boolean withAudit) {
    Callable<List<Generated>> task = () -> {
      List<Generated> done = new ArrayList<>(batch.size());
      for (Numbered numbered : batch) {
        done.add(generate(split, numbered, withAudit));
      }
      return done;
    };
    if (pool == null) {
      FutureTask<List<Generated>> now = new FutureTask<>(task);
      now.run();
      return now;
    }
    return pool.submit(task);
  }

  private Generated generate(String split, Numbered numbered, boolean withAudit)
      throws IOException {
    Question question = numbered.question();
    String id = String.format(Locale.ROOT, "%s_%04d", split, numbered.number());
    Audit trail = withAudit ? new Audit() : null;
    RuleLimits.subject(numbered.where() + " (" + id + ")");
    QuestionRecord record;
    try {
      record = questions.generate(id, question, trail);
    } finally {
      RuleLimits.subject(null);
    }
    String unanalysable =
        record.problems() == null
            ? null
            : record.problems().stream()
                .filter(p -> p.startsWith(TextQuery.UNANALYSABLE))
                .findFirst()
                .map(p -> numbered.where() + " (" + id + "): " + p)
                .orElse(null);
    return new Generated(
        record,
        withAudit
            ? DatasetWriter.JSON.writeValueAsString(new AuditLine(id, question.dbId(), trail.firings()))
            : null,
        unanalysable);
  }

  /** The batch's records, or the failure of its first failing question, as it was thrown. */
  private static List<Generated> await(Future<List<Generated>> batch) {
    try {
      return batch.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while generating", e);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof RuntimeException runtime) {
        throw runtime;
      } else if (cause instanceof Error error) {
        throw error;
      } else if (cause instanceof IOException io) {
        throw new UncheckedIOException(io);
      }
      throw new IllegalStateException(cause);
    }
  }

  private static void write(
      List<Generated> batch, JsonGenerator out, BufferedWriter audit, Totals totals)
      throws IOException {
    for (Generated generated : batch) {
      QuestionRecord record = generated.record();
      out.writeObject(record);
      if (audit != null) {
        audit.write(generated.auditLine());
        audit.newLine();
      }
      totals.count++;
      totals.refused += "REFUSE".equals(record.goldLabel().type()) ? 1 : 0;
      totals.violations += record.violationsOriginal().size();
      totals.problems += record.problems() == null ? 0 : 1;
      if (generated.unanalysable() != null) {
        totals.unanalysable.add(generated.unanalysable());
      }
    }
  }

  private static Thread worker(Runnable task) {
    Thread thread = new Thread(task, "generate-worker");
    thread.setDaemon(true);
    return thread;
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
      String name = rolepolicy.io.PlainName.check(db.dbId(), "database id", "policies of database " + db.dbId());
      Path file = output.stage(outDir.resolve("policies").resolve(name + ".json"));
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

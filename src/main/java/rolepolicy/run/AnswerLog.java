package rolepolicy.run;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import rolepolicy.io.OutputGuard;
import rolepolicy.io.InputException;

/**
 * {@code answers.jsonl}: every answer of a run's endpoint, one JSON line appended and flushed as it
 * comes, keyed by the SHA-256 of its request's content. Read back at start, its answers are
 * reused: a rerun sends no request whose answer it holds. Failed requests are logged too, and asked
 * again by a rerun.
 */
public final class AnswerLog implements AutoCloseable {
  public static final String FILE = "answers.jsonl";

  /**
   * One request's outcome.
   *
   * @param key SHA-256 of the request body's content (model, temperature, messages)
   * @param stage {@code answer}, or {@code draft} / {@code final} of a two-stage run
   * @param answer the raw text, or null when the request failed
   * @param kind how the answer reader read it: SQL, REFUSE, NONE or TRUNCATED
   * @param prediction what {@code predictions.txt} holds for it
   * @param error why the request failed, or null
   * @param status the last HTTP status of a failed request, if any
   * @param finishReason the endpoint's {@code finish_reason} ({@code stop}, {@code length}, …), if given
   * @param reasoning the model's reasoning the endpoint gave apart ({@code reasoning_content}), kept
   *     here and set aside from the answer, or null
   * @param reasoningTokens {@code usage.completion_tokens_details.reasoning_tokens} (part of the
   *     completion tokens), or null
   * @param cachedTokens {@code usage.prompt_tokens_details.cached_tokens} (part of the prompt tokens), or null
   * @param servedBy the {@code model} the answer names (e.g. a dated snapshot of the name sent), or null
   * @param systemFingerprint the answer's {@code system_fingerprint}, or null
   */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  @JsonPropertyOrder({"key", "id", "stage", "model", "answer", "kind", "prediction", "reason", "problem",
      "prompt_tokens", "completion_tokens", "latency_ms", "retries", "error", "status", "finish_reason", "reasoning",
      "reasoning_tokens", "cached_tokens", "served_by", "system_fingerprint"})
  public record Entry(
      String key,
      String id,
      String stage,
      String model,
      String answer,
      String kind,
      String prediction,
      String reason,
      String problem,
      @JsonProperty("prompt_tokens") Integer promptTokens,
      @JsonProperty("completion_tokens") Integer completionTokens,
      @JsonProperty("latency_ms") Long latencyMillis,
      int retries,
      String error,
      Integer status,
      @JsonProperty("finish_reason") String finishReason,
      String reasoning,
      @JsonProperty("reasoning_tokens") Integer reasoningTokens,
      @JsonProperty("cached_tokens") Integer cachedTokens,
      @JsonProperty("served_by") String servedBy,
      @JsonProperty("system_fingerprint") String systemFingerprint) {

    public boolean failed() {
      return error != null;
    }

    /** An answer cut off at the token limit: not final, so a rerun asks again. */
    public boolean truncated() {
      return "TRUNCATED".equals(kind);
    }
  }

  private static final ObjectMapper JSON = new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

  private final Path file;
  private final Map<String, Entry> answered = new HashMap<>();
  private final int unreadable;
  /** Whether the file holds this tool's earlier answers, appended to (else it is written anew). */
  private final boolean continued;
  private BufferedWriter writer;

  private AnswerLog(Path file, int unreadable, boolean continued) {
    this.file = file;
    this.unreadable = unreadable;
    this.continued = continued;
  }

  /**
   * The log of a run folder, its earlier answers read (a line cut short by a stopped run is
   * skipped). Only a log this tool wrote is read and appended to; another file of its name is
   * refused ({@link OutputGuard}), or with {@code --force} replaced.
   */
  public static AnswerLog open(Path folder) {
    Path file = folder.resolve(FILE);
    return OutputGuard.current().continueLog(file) ? read(folder) : new AnswerLog(file, 0, false);
  }

  /** The log of a finished run's folder, read only (a line cut short by a stopped run is skipped). */
  public static AnswerLog read(Path folder) {
    Path file = folder.resolve(FILE);
    if (!Files.isRegularFile(file)) {
      return new AnswerLog(file, 0, true);
    }
    List<String> lines;
    try {
      lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new InputException(file + ": cannot read the answers (" + InputException.reason(file, e) + ")", e);
    }
    List<Entry> entries = new java.util.ArrayList<>();
    int unreadable = 0;
    for (String line : lines) {
      if (line.isBlank()) {
        continue;
      }
      try {
        entries.add(JSON.readValue(line, Entry.class));
      } catch (IOException e) {
        unreadable++;
      }
    }
    AnswerLog log = new AnswerLog(file, unreadable, true);
    entries.stream().filter(e -> !e.failed() && !e.truncated() && e.key() != null).forEach(e -> log.answered.put(e.key(), e));
    return log;
  }

  public Path file() {
    return file;
  }

  /** The answer logged for a request, or null. */
  public synchronized Entry answer(String key) {
    return answered.get(key);
  }

  /** Answers held (failed requests aside). */
  public synchronized int size() {
    return answered.size();
  }

  /** Lines that could not be read (cut short when a run stopped). */
  public int unreadable() {
    return unreadable;
  }

  /** Appends an entry and flushes it; an answer becomes reusable at once. */
  public synchronized void append(Entry entry) {
    try {
      if (writer == null) {
        Files.createDirectories(file.toAbsolutePath().getParent());
        OutputGuard.recordLog(file);
        if (continued) {
          endWithNewline();
        }
        writer = Files.newBufferedWriter(file, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
            continued ? StandardOpenOption.APPEND : StandardOpenOption.TRUNCATE_EXISTING);
      }
      writer.write(JSON.writeValueAsString(entry));
      writer.newLine();
      writer.flush();
    } catch (IOException e) {
      throw new InputException(file + ": cannot write the answers (" + InputException.reason(e) + ")", e);
    }
    if (!entry.failed() && !entry.truncated()) {
      answered.put(entry.key(), entry);
    }
  }

  /** A line cut short by a stopped run gets its newline, so that the next entry starts a line of its own. */
  private void endWithNewline() throws IOException {
    if (!Files.isRegularFile(file) || Files.size(file) == 0) {
      return;
    }
    try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
      raf.seek(raf.length() - 1);
      if (raf.read() != '\n') {
        raf.seek(raf.length());
        raf.write('\n');
      }
    }
  }

  @Override
  public synchronized void close() {
    if (writer != null) {
      try {
        writer.close();
      } catch (IOException e) {
        // every entry was flushed when written
      }
    }
  }
}

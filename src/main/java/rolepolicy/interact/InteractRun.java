package rolepolicy.interact;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.IntConsumer;
import rolepolicy.engine.RuleFileException;
import rolepolicy.io.DatasetWriter;
import rolepolicy.io.OutputGuard;
import rolepolicy.io.InputException;

/**
 * Plays every question, {@code parallel} at a time, and keeps each finished question's log in
 * {@code progress.jsonl} as it finishes: a run that stops (an endpoint that fails, a killed
 * process) is resumed by the same command, which plays only the questions not yet finished.
 */
public final class InteractRun {
  public static final String PROGRESS = "progress.jsonl";

  private static final ObjectMapper JSON = DatasetWriter.JSON;

  private final InteractLoop loop;
  private final ReplaySource replay;
  private final Path progress;
  private final String settings;
  private final int parallel;

  /**
   * @param replay the recorded run being replayed, or null
   * @param settings what identifies the run (questions, source, options): a progress file from a
   *     run with other settings is not resumed
   */
  public InteractRun(InteractLoop loop, ReplaySource replay, Path out, String settings, int parallel) {
    this.loop = loop;
    this.replay = replay;
    this.progress = out.resolve(PROGRESS);
    this.settings = settings;
    this.parallel = parallel;
  }

  /**
   * Every question's log, in question order. {@code resumed} hears once how many questions an
   * earlier run of the same settings already finished; {@code finished} hears of each question
   * finished in this run.
   */
  public List<QuestionLog> run(List<InteractQuestion> questions, IntConsumer resumed, IntConsumer finished) {
    boolean resuming = OutputGuard.current().continueLog(progress) && Files.isRegularFile(progress) && hasHeader();
    Map<Integer, QuestionLog> done = resuming ? resume() : new TreeMap<>();
    List<InteractQuestion> todo = questions.stream().filter(q -> !done.containsKey(q.index())).toList();
    resumed.accept(done.size());
    try {
      Files.createDirectories(progress.getParent());
      OutputGuard.recordLog(progress);
    } catch (IOException e) {
      throw cannotWrite(e);
    }
    ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, parallel));
    try (BufferedWriter writer = resuming
        ? Files.newBufferedWriter(progress, StandardCharsets.UTF_8, StandardOpenOption.APPEND)
        : Files.newBufferedWriter(progress, StandardCharsets.UTF_8)) {
      if (!resuming) {
        writer.write(JSON.writeValueAsString(Map.of("settings", settings)));
        writer.newLine();
        writer.flush();
      }
      List<Future<QuestionLog>> futures = new ArrayList<>();
      for (InteractQuestion q : todo) {
        futures.add(pool.submit(() -> {
          QuestionLog log = play(q);
          synchronized (writer) {
            writer.write(JSON.writeValueAsString(log));
            writer.newLine();
            writer.flush();
          }
          finished.accept(q.index());
          return log;
        }));
      }
      for (Future<QuestionLog> f : futures) {
        QuestionLog log = f.get();
        done.put(log.index(), log);
      }
    } catch (ExecutionException e) {
      pool.shutdownNow();
      Throwable cause = e.getCause();
      String kept = " (finished questions are kept in " + progress + "; run the same command again to go on)";
      if (cause instanceof InputException r) {
        throw new InputException(r.getMessage() + kept, r);
      } else if (cause instanceof rolepolicy.llm.EndpointException r) {
        throw new rolepolicy.llm.EndpointException(r.getMessage() + kept, r);
      } else if (cause instanceof RuleFileException r) {
        throw new RuleFileException(r.getMessage() + kept);
      }
      throw new IllegalStateException("a question failed" + kept, cause);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    } catch (IOException e) {
      throw cannotWrite(e);
    } finally {
      pool.shutdownNow();
    }
    return done.values().stream().sorted(Comparator.comparingInt(QuestionLog::index)).toList();
  }

  private InputException cannotWrite(IOException e) {
    return new InputException(progress.getParent() + ": cannot write output here (" + InputException.reason(e) + ")", e);
  }

  /** Deletes the progress file, once the run's outputs are written. */
  public void finish() {
    try {
      Files.deleteIfExists(progress);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private QuestionLog play(InteractQuestion q) {
    if (replay != null && !replay.records(q.index())) {
      return new QuestionLog(q.index(), q.id(), q.dbId(), q.question(), q.goldSql(), null, List.of(), List.of(), List.of(),
          QuestionLog.FAILED, null, null, List.of(), "not in the recorded run");
    }
    QuestionLog log = loop.play(q);
    if (replay == null) {
      return log;
    }
    String recorded = replay.recordedOutcome(q.index());
    Object value = recorded == null || recorded.equals(QuestionLog.FAILED) ? recorded : (Object) Integer.valueOf(recorded);
    return log.withRecorded(value);
  }

  /**
   * Whether the progress file starts with a whole settings line; one that does not (empty, or cut
   * short while its first line was written) holds no finished question and is started afresh.
   */
  private boolean hasHeader() {
    try (var lines = Files.lines(progress, StandardCharsets.UTF_8)) {
      return lines.findFirst().map(InteractRun::readSettings).isPresent();
    } catch (IOException | UncheckedIOException e) {
      throw new InputException(progress + ": cannot read (" + e.getMessage() + ")", e);
    }
  }

  /** The questions a progress file of the same settings already finished; a broken last line is dropped. */
  private Map<Integer, QuestionLog> resume() {
    Map<Integer, QuestionLog> done = new TreeMap<>();
    List<String> lines;
    try {
      lines = Files.readAllLines(progress, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new InputException(progress + ": cannot read (" + InputException.reason(progress, e) + ")", e);
    }
    String header = readSettings(lines.get(0));
    if (!settings.equals(header)) {
      throw new InputException(progress + " is the unfinished run of other settings (" + header
          + "); remove it to start again, or give another --out");
    }
    List<String> kept = new ArrayList<>(List.of(lines.get(0)));
    for (int i = 1; i < lines.size(); i++) {
      try {
        QuestionLog log = JSON.readValue(lines.get(i), QuestionLog.class);
        done.put(log.index(), log);
        kept.add(lines.get(i));
      } catch (IOException e) {
        if (i < lines.size() - 1) {
          throw new InputException(progress + ": line " + (i + 1) + " is not a question's log: " + e.getMessage(), e);
        }
      }
    }
    try {
      Files.write(progress, kept, StandardCharsets.UTF_8); // without a half-written last line
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return done;
  }

  private static String readSettings(String line) {
    try {
      JsonNode node = JSON.readTree(line);
      return node == null || !node.has("settings") ? null : node.get("settings").asText();
    } catch (IOException e) {
      return null;
    }
  }
}

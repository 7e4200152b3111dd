package rolepolicy.run;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import rolepolicy.evaluate.GoldRecord;
import rolepolicy.llm.LocalChatServer;
import rolepolicy.llm.LocalChatServer.Reply;
import rolepolicy.llm.LocalChatServer.Request;
import rolepolicy.io.InputException;

/**
 * A stand-in model on 127.0.0.1 that answers each prompt with a predictions file's line for the
 * question the prompt asks: the text of its last {@code Question: } line when that is a dataset
 * question, else the dataset question whose text occurs last in the prompt (examples come before
 * the question in the shipped templates, and their questions are masked). A prompt without any of
 * them gets HTTP 400 saying so.
 */
public final class RecordedModel implements AutoCloseable {
  private final Map<String, String> answers = new LinkedHashMap<>();
  private final LocalChatServer server;
  private final AtomicInteger answered = new AtomicInteger();
  private final AtomicInteger unknown = new AtomicInteger();
  private final AtomicInteger failed = new AtomicInteger();
  private final int failPercent;

  /**
   * @param records the dataset's records
   * @param predictions one per record, in the same order (as {@code evaluate} reads them)
   * @param port the loopback port; 0 takes a free one
   */
  public RecordedModel(List<GoldRecord> records, List<String> predictions, int port) throws IOException {
    this(records, predictions, port, 0);
  }

  /**
   * {@code failPercent}: the questions that fail for good, HTTP 500 however often asked: those whose
   * text's SHA-256, read as a number, falls in the first {@code failPercent} of a hundred (the same
   * questions on every run).
   */
  public RecordedModel(List<GoldRecord> records, List<String> predictions, int port, int failPercent) throws IOException {
    if (failPercent < 0 || failPercent > 100) {
      throw new InputException("the share of questions that fail is a percentage, 0 to 100, not " + failPercent);
    }
    this.failPercent = failPercent;
    for (int i = 0; i < records.size(); i++) {
      GoldRecord r = records.get(i);
      if (r.question() == null) {
        throw new InputException("dataset record " + r.id() + " has no question text to recognise it by");
      }
      String earlier = answers.putIfAbsent(r.question(), predictions.get(i));
      if (earlier != null && !earlier.equals(predictions.get(i))) {
        throw new InputException("records with the same question text have different predictions (" + r.id()
            + "): the stand-in could not tell them apart: " + r.question());
      }
    }
    // it counts what it answers and keeps no request: a stand-in may serve many runs
    this.server = new LocalChatServer(port, this::reply, false);
  }

  private Reply reply(Request request) {
    String question = questionOf(request.prompt());
    if (question == null) {
      unknown.incrementAndGet();
      return Reply.error(400, "the stand-in has no answer for this prompt: it holds none of the dataset's questions");
    }
    if (fails(question)) {
      failed.incrementAndGet();
      return Reply.error(500, "the stand-in fails this question for good (--fail " + failPercent + ")");
    }
    answered.incrementAndGet();
    String answer = answers.get(question);
    return Reply.text(answer.isEmpty() ? "(no answer)" : answer);
  }

  /** Whether a question is one of those that fail for good: the first 32 bits of its SHA-256, mod 100, below the share. */
  boolean fails(String question) {
    return Long.parseLong(Digest.sha256(question).substring(0, 8), 16) % 100 < failPercent;
  }

  /** The prediction of the question the prompt asks (see the class comment); null when none. */
  String answerTo(String prompt) {
    String question = questionOf(prompt);
    return question == null ? null : answers.get(question);
  }

  /** The dataset question the prompt asks (see the class comment), or null. */
  private String questionOf(String prompt) {
    int line = prompt.lastIndexOf("Question: ");
    if (line >= 0) {
      int end = prompt.indexOf('\n', line);
      String question = prompt.substring(line + "Question: ".length(), end < 0 ? prompt.length() : end).strip();
      if (answers.containsKey(question) && prompt.indexOf(question, line + "Question: ".length() + question.length()) < 0) {
        return question;
      }
    }
    String best = null;
    int bestAt = -1;
    for (String question : answers.keySet()) {
      int at = prompt.lastIndexOf(question);
      if (at > bestAt || (at >= 0 && at == bestAt && question.length() > best.length())) {
        best = question;
        bestAt = at;
      }
    }
    return best;
  }

  public String baseUrl() {
    return server.baseUrl();
  }

  public int questions() {
    return answers.size();
  }

  /** Requests answered so far. */
  public int answered() {
    return answered.get();
  }

  /** Requests failed on purpose so far ({@code failPercent}). */
  public int failed() {
    return failed.get();
  }

  /** Requests refused so far (no dataset question in the prompt). */
  public int refused() {
    return unknown.get();
  }

  @Override
  public void close() {
    server.close();
  }
}

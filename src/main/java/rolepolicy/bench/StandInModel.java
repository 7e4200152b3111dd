package rolepolicy.bench;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import rolepolicy.llm.LocalChatServer;
import rolepolicy.llm.LocalChatServer.Reply;
import rolepolicy.llm.LocalChatServer.Request;
import rolepolicy.llm.PromptTemplate;
import rolepolicy.io.InputException;
import rolepolicy.io.JsonFiles;

/**
 * A stand-in model on 127.0.0.1 that answers interact's prompts from a recorded run (the authors'
 * logs, or an interact {@code log.json}): the k-th SQL prompt about a question gets the k-th
 * recorded {@code generate} of that question, a repair prompt the {@code fix} recorded after it (else
 * the failing SQL again), each with its recorded perplexity as one token's log-probability; an ask
 * prompt gets one fixed multiple-choice question, and the user's prompt one fixed answer. It tells
 * the prompts apart by the templates that rendered them, and the question by the text in them.
 * Enough to try the methods and the few-shot prompts end to end; the SQL stays the recorded run's.
 */
public final class StandInModel implements AutoCloseable {
  /** What the stand-in asks by the clarification-question method. */
  public static final String QUESTION =
      "Which rows should the answer keep? A) the ones the question names B) all of them C) Other (please specify)";
  /** What the stand-in user answers. */
  public static final String ANSWER = "A) the ones the question names.";

  /** The templates whose prompts the stand-in answers; {@code baseline} may be null. */
  public record Templates(PromptTemplate generate, PromptTemplate baseline, PromptTemplate repair, PromptTemplate ask,
      PromptTemplate answer) {}

  private record Entry(String kind, String sql, Double perplexity) {}

  private final Map<String, List<Entry>> byQuestion = new HashMap<>();
  private final Map<String, Integer> served = new HashMap<>();
  private final Templates templates;
  private final LocalChatServer server;

  public StandInModel(Path log, Templates templates) {
    this.templates = templates;
    JsonNode records = JsonFiles.read(log).get("records");
    if (records == null || !records.isArray()) {
      throw new InputException(log + ": expected a recorded run, an object with a 'records' array");
    }
    for (JsonNode r : records) {
      List<Entry> entries = new ArrayList<>();
      for (JsonNode e : r.path("sql_log")) {
        JsonNode p = e.get("perplexity");
        entries.add(new Entry(e.path("kind").asText(), e.path("sql").asText(), p != null && p.isNumber() ? p.asDouble() : null));
      }
      byQuestion.put(r.path("question").asText().strip(), entries);
    }
    try {
      server = new LocalChatServer(this::reply);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public String baseUrl() {
    return server.baseUrl();
  }

  /** The requests answered so far. */
  public List<Request> requests() {
    return server.requests();
  }

  private Reply reply(Request request) {
    String prompt = request.prompt();
    if (templates.answer().match(prompt) != null) {
      return Reply.text(ANSWER);
    }
    if (templates.ask().match(prompt) != null) {
      return Reply.text(QUESTION);
    }
    Map<String, String> values = templates.repair().match(prompt);
    if (values != null) {
      return repair(values);
    }
    values = templates.baseline() == null ? null : templates.baseline().match(prompt);
    if (values == null) {
      values = templates.generate().match(prompt);
    }
    if (values == null) {
      return Reply.error(400);
    }
    String question = values.get("question").strip();
    List<Entry> entries = byQuestion.get(question);
    if (entries == null) {
      return Reply.text("The recorded run has no answer to this question.");
    }
    List<Entry> generates = entries.stream().filter(e -> e.kind().equals("generate")).toList();
    int k;
    synchronized (served) {
      k = served.merge(question, 1, Integer::sum) - 1;
    }
    return answer(generates.get(Math.min(k, generates.size() - 1)));
  }

  /** The fix recorded after the question's last generate served, else the failing SQL again. */
  private Reply repair(Map<String, String> values) {
    String question = values.get("question").strip();
    List<Entry> entries = byQuestion.getOrDefault(question, List.of());
    int k;
    synchronized (served) {
      k = served.getOrDefault(question, 0) - 1;
    }
    int seen = -1;
    for (int i = 0; i < entries.size(); i++) {
      if (entries.get(i).kind().equals("generate")) {
        seen++;
      } else if (seen == k && entries.get(i).kind().equals("fix")) {
        return answer(entries.get(i));
      }
    }
    return Reply.text("```sql\n" + values.get("sql") + "\n```");
  }

  private static Reply answer(Entry e) {
    return e.perplexity() == null ? Reply.text(e.sql()) : Reply.withLogprobs(e.sql(), List.of(-Math.log(e.perplexity())));
  }

  @Override
  public void close() {
    server.close();
  }
}

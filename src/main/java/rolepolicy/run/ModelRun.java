package rolepolicy.run;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import rolepolicy.engine.PolicyPromptText;
import rolepolicy.engine.RuleSet;
import rolepolicy.io.Version;
import rolepolicy.cache.CacheFolder;
import rolepolicy.casebank.CaseBank;
import rolepolicy.casebank.CaseIndex;
import rolepolicy.casebank.DraftSelection;
import rolepolicy.casebank.Embedder;
import rolepolicy.casebank.PromptWriter;
import rolepolicy.casebank.SchemaStyle;
import rolepolicy.engine.RuleBase;
import rolepolicy.evaluate.Evaluation;
import rolepolicy.evaluate.Evaluator;
import rolepolicy.evaluate.GoldRecord;
import rolepolicy.io.AtomicOutput;
import rolepolicy.io.DatasetWriter;
import rolepolicy.io.FolderLock;
import rolepolicy.io.OutputGuard;
import rolepolicy.llm.ChatEndpoint;
import rolepolicy.llm.EndpointException;
import rolepolicy.llm.ModelAnswer;
import rolepolicy.llm.PromptTemplate;
import rolepolicy.io.InputException;
import rolepolicy.io.JsonFiles;
import rolepolicy.spider.Schema;
import rolepolicy.spider.SchemaReader;

/**
 * A model's run on a generated split (docs/run.md): one prompt per question from the CaseBank
 * prompt builder, each sent to a chat endpoint (answers cached in {@code answers.jsonl}), the
 * answers read into predictions, and the predictions scored as {@code evaluate} scores them — all
 * in one folder.
 */
public final class ModelRun {
  public static final String PROMPTS = "prompts.jsonl";
  public static final String PREDICTIONS = "predictions.txt";
  public static final String RUN = "run.json";

  /**
   * What to run.
   *
   * @param databases SQLite folder for execution match, or null
   * @param limit the first so many questions only, or null for all
   * @param twoStage ask for a draft, choose the examples again by its skeleton, ask again
   * @param system the system message's template ({@code {{policy_rules}}} may stand in it), or null for none
   * @param prices per million tokens, for the cost
   * @param cache the cache folder (embeddings, the cases' skeletons, file digests), or null
   * @param schemaStyle how the prompt shows the schema
   */
  public record Configuration(Path dataset, Path tables, Path bank, Path template, CaseBank.Method policy, int k,
      Path databases, double timeoutSeconds, RuleSet rules, Path out, int parallel, Integer limit, boolean twoStage,
      Path system, Accounting.Prices prices, Path cache, SchemaStyle schemaStyle) {}

  /** One question's prompt at one stage, as {@code prompts.jsonl} holds it; {@code key} names its answer. */
  @JsonPropertyOrder({"id", "stage", "key", "db_id", "prompt", "examples", "retrieval"})
  public record PromptEntry(String id, String stage, String key, @JsonProperty("db_id") String dbId, String prompt,
      List<PromptWriter.Example> examples, String retrieval) {
    PromptWriter.PromptLine line() {
      return new PromptWriter.PromptLine(id, dbId, prompt, examples, retrieval);
    }
  }

  /** A question's outcome: answered with SQL, refused, an answer with neither, cut off, or failed. */
  public enum Answer {
    ANSWERED("answered"), REFUSED("refused"), NO_SQL("no SQL found"), TRUNCATED("truncated"), FAILED("failed");

    public final String label;

    Answer(String label) {
      this.label = label;
    }

    static Answer of(AnswerLog.Entry e) {
      return e.failed() ? FAILED : e.truncated() ? TRUNCATED
          : "SQL".equals(e.kind()) ? ANSWERED : "REFUSE".equals(e.kind()) ? REFUSED : NO_SQL;
    }

    /** Failed or cut off: the question has no final answer, and a rerun asks it again. */
    public boolean unanswered() {
      return this == FAILED || this == TRUNCATED;
    }
  }

  /**
   * What a run did: each question's outcome counted ({@code answers}, in {@link Answer} order), the
   * failures by kind, the questions without a final answer and why ({@code unanswered}, by id), the
   * requests' accounting (all, sent now, reused), prompts built and reused from the folder, and the
   * evaluation.
   */
  public record Summary(int questions, Map<String, Integer> answers, Map<String, Integer> failures,
      Map<String, String> unanswered, Accounting requests, Accounting spent, Accounting reused, int promptsBuilt,
      int promptsReused, Evaluation.Outcome outcome, Timing timing) {
    public int unansweredCount() {
      return unanswered.size();
    }
  }

  /**
   * Where a run's time went, in seconds: the questions (each one's prompts built, or reused, and its
   * requests sent, {@code --parallel} questions at once), of which {@code prompts} is the building summed
   * over the workers; the evaluation; the writing of the folder.
   */
  public record Timing(double questions, double prompts, double evaluation, double writing) {}

  /** {@code run.json}. */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  @JsonPropertyOrder({"version", "model", "endpoint", "key_variable", "dataset", "questions", "limit", "tables", "db",
      "bank", "template", "system", "rules", "profile", "prompt_inputs", "configuration", "settings", "answers", "unanswered",
      "requests"})
  record RunFile(String version, String model, String endpoint, @JsonProperty("key_variable") String keyVariable,
      String dataset, int questions, Integer limit, String tables, String db, BankFile bank, Digested template,
      Digested system, Digested rules, String profile, @JsonProperty("prompt_inputs") String promptInputs,
      Map<String, Object> configuration, Map<String, Object> settings, Map<String, Object> answers,
      Map<String, String> unanswered, Accounting requests) {}

  record BankFile(String path, String source, int cases, String model, CaseBank.Thresholds thresholds) {}

  record Digested(String path, String sha256) {}

  private final Configuration settings;
  private final ChatEndpoint endpoint;
  private final PrintWriter progress;
  private final List<JsonNode> records = new ArrayList<>();
  private final Map<String, Schema> schemas;
  private final PromptTemplate template;
  /** The system message, or null for none. */
  private final String system;

  /** Reads the split, the schemas and the template; {@code progress} gets what the run does (stderr). */
  public ModelRun(Configuration settings, ChatEndpoint endpoint, PrintWriter progress) {
    this.settings = settings;
    this.endpoint = endpoint;
    this.progress = progress;
    this.schemas = SchemaReader.read(settings.tables());
    String policyText = PolicyPromptText.of(RuleBase.load(settings.rules()));
    PromptTemplate systemTemplate = settings.system() == null ? null
        : PromptTemplate.read(settings.system(), java.util.Set.of("policy_rules"));
    this.system = systemTemplate == null ? null : systemTemplate.render(Map.of("policy_rules", policyText));
    // the policy rules go in the system message when its template has them, and then not in the prompt too
    this.template = PromptTemplate.read(settings.template(), PromptWriter.PLACEHOLDERS)
        .with("policy_rules", systemTemplate != null && systemTemplate.uses("policy_rules") ? "" : policyText);
    JsonNode all = JsonFiles.readArray(settings.dataset(), "dataset records");
    int n = settings.limit() == null ? all.size() : Math.min(settings.limit(), all.size());
    for (int i = 0; i < n; i++) {
      JsonNode r = all.get(i);
      if (!schemas.containsKey(r.path("db_id").asText())) {
        throw new InputException(settings.dataset() + ": record #" + (i + 1) + ": database '" + r.path("db_id").asText()
            + "' is not in " + settings.tables());
      }
      records.add(r);
    }
    if (records.isEmpty()) {
      throw new InputException(settings.dataset() + ": no questions to run");
    }
  }

  /**
   * The request key of a prompt: SHA-256 of the endpoint's URL and the request body (model, every
   * setting sent, the messages), so that another server or another setting never reuses an answer.
   */
  public String key(String prompt) {
    return key(request(prompt));
  }

  private String key(byte[] request) {
    byte[] url = (endpoint.url() + "\n").getBytes(StandardCharsets.UTF_8);
    byte[] all = java.util.Arrays.copyOf(url, url.length + request.length);
    System.arraycopy(request, 0, all, url.length, request.length);
    return Digest.sha256(all);
  }

  /** The messages of a prompt: the system message, if any, and the prompt. */
  private List<ChatEndpoint.Message> messages(String prompt) {
    return system == null ? List.of(ChatEndpoint.Message.user(prompt))
        : List.of(new ChatEndpoint.Message("system", system), ChatEndpoint.Message.user(prompt));
  }

  /** The request body of a prompt, as sent and as its key is computed from. */
  private byte[] request(String prompt) {
    return endpoint.requestBytes(messages(prompt));
  }

  /** Prints each first-stage request as JSON, one a line, and the prompt tokens they would send; sends nothing. */
  public void dryRun(PrintWriter out) {
    TokenCount tokens = new TokenCount();
    long total = 0;
    int cached = 0;
    try (CaseBank bank = CaseIndex.open(settings.bank(), new Embedder()); AnswerLog log = AnswerLog.open(settings.out())) {
      PromptWriter writer = new PromptWriter(bank, template, settings.policy(), settings.k(), selection(bank, schemas, settings),
          settings.schemaStyle());
      for (JsonNode r : records) {
        String prompt = writer.prompt(r, schemas.get(r.path("db_id").asText()), null).prompt();
        total += tokens.count(prompt);
        cached += log.answer(key(prompt)) != null ? 1 : 0;
        out.println(DatasetWriter.JSON.writeValueAsString(endpoint.requestBody(messages(prompt))));
      }
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
    out.printf(Locale.ROOT, "dry run: %d requests to %s, %,d prompt tokens (%s; the endpoint's own count may differ)%s%s%n",
        records.size() - cached, endpoint.settings().describe(), total, TokenCount.ENCODING,
        cached == 0 ? "" : String.format(Locale.ROOT, "; %d answers already in %s", cached, settings.out().resolve(AnswerLog.FILE)),
        settings.twoStage() ? "; with --two-stage, up to as many second requests again, once the drafts are known" : "");
  }

  /**
   * Runs every question, writes the run folder, and says what it did. The folder is locked
   * ({@link FolderLock}) from its first read to its last write: a second run into it is refused.
   */
  public Summary run() {
    OutputGuard.current().checkFiles(settings.out(), PROMPTS, PREDICTIONS, Evaluation.METRICS, Evaluation.PER_QUESTION, RUN);
    try (FolderLock lock = FolderLock.acquire(settings.out(), "run")) {
      return runLocked();
    }
  }

  private Summary runLocked() {
    Map<String, Object> configuration = configuration();
    RunFolder.checkConfiguration(settings.out(), configuration, OutputGuard.current().force());
    List<GoldRecord> gold = Evaluator.readDataset(settings.dataset()).subList(0, records.size());
    List<PromptEntry> prompts = new ArrayList<>();
    List<AnswerLog.Entry> finals = new ArrayList<>();
    List<Accounting.Request> requests = new ArrayList<>();
    Prompts built;
    String inputs;
    CaseBank.Meta bankMeta;
    DraftSelection selection;
    double questionSeconds;
    Embedder embedder = new Embedder(settings.cache());
    try (CaseBank bank = CaseIndex.open(settings.bank(), embedder); AnswerLog log = AnswerLog.open(settings.out())) {
      if (log.size() > 0 || log.unreadable() > 0) {
        progress.printf(Locale.ROOT, "resuming %s: %d answers in %s are reused%s%n", settings.out(), log.size(), AnswerLog.FILE,
            log.unreadable() == 0 ? "" : " (" + log.unreadable() + " line(s) cut short are asked again)");
      }
      bankMeta = bank.meta();
      inputs = promptInputs(bank);
      List<List<PromptEntry>> earlier = RunFolder.prompts(settings.out(), inputs);
      if (earlier != null) {
        progress.printf(Locale.ROOT, "reusing the prompts in %s: their inputs are unchanged%n", settings.out().resolve(PROMPTS));
      } else if (Files.exists(settings.out().resolve(PROMPTS))) {
        progress.printf(Locale.ROOT, "building the prompts again: %s was written from other inputs (%s records them)%n",
            settings.out().resolve(PROMPTS), RUN);
      }
      selection = selection(bank, schemas, settings);
      built = new Prompts(new PromptWriter(bank, template, settings.policy(), settings.k(), selection, settings.schemaStyle()),
          earlier == null ? List.of() : earlier);
      Asker asker = new Asker(log);
      ExecutorService pool = Executors.newFixedThreadPool(settings.parallel());
      long start = System.nanoTime();
      try {
        // each question's prompts are built on the pool (the embedder and the index searcher are thread-safe),
        // right before its requests: the retrieval of one question overlaps the requests of the others
        List<Future<Question>> futures = new ArrayList<>();
        AtomicInteger done = new AtomicInteger();
        for (int i = 0; i < records.size(); i++) {
          int index = i;
          futures.add(pool.submit(() -> {
            Question q = ask(asker, built, index);
            synchronized (done) { // progress lines in order
              int n = done.incrementAndGet();
              if (n % 100 == 0 || n == records.size()) {
                progress.printf(Locale.ROOT, "%d / %d questions%n", n, records.size());
              }
            }
            return q;
          }));
        }
        for (Future<Question> f : futures) {
          Question q = f.get();
          prompts.addAll(q.prompts());
          finals.add(q.answer());
          requests.addAll(q.requests());
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new EndpointException("interrupted; the answers so far are kept in " + log.file());
      } catch (ExecutionException e) {
        throw e.getCause() instanceof RuntimeException re ? re : new IllegalStateException(e.getCause());
      } finally {
        pool.shutdownNow();
      }
      questionSeconds = (System.nanoTime() - start) / 1e9;
      int failed = (int) finals.stream().filter(AnswerLog.Entry::failed).count();
      if (failed == finals.size()) {
        AnswerLog.Entry firstFailure = finals.get(0);
        throw new EndpointException("every request failed (" + failed + " of " + failed + " questions); the first: "
            + firstFailure.error() + "; each failure is in " + log.file() + ", nothing else was written");
      }
      if (finals.stream().allMatch(e -> Answer.of(e).unanswered())) {
        throw new EndpointException("no question has a final answer (" + failed + " failed, " + (finals.size() - failed)
            + " cut off at the token limit: a larger --max-tokens?); each answer is in " + log.file() + ", nothing else was written");
      }
    }
    List<String> predictions = finals.stream().map(e -> e.failed() ? "" : e.prediction()).toList();
    // a failure is not an answer: only the questions with a final answer are scored
    List<GoldRecord> answeredGold = new ArrayList<>();
    List<String> answered = new ArrayList<>();
    for (int i = 0; i < finals.size(); i++) {
      if (!Answer.of(finals.get(i)).unanswered()) {
        answeredGold.add(gold.get(i));
        answered.add(predictions.get(i));
      }
    }
    long evaluating = System.nanoTime();
    Evaluation.Outcome outcome = Evaluation.score(
        new Evaluation.Inputs(datasetName(), schemas, settings.databases(), settings.timeoutSeconds(),
            RuleBase.load(settings.rules())),
        answeredGold, answered, settings.out().resolve(PREDICTIONS).toString());
    double evaluationSeconds = (System.nanoTime() - evaluating) / 1e9;
    long writing = System.nanoTime();
    Map<String, Integer> answers = answers(finals);
    Summary written = summary(finals, requests, built, outcome, null);
    write(prompts, predictions, new Evaluation.Outcome(outcome.metrics().withAnswers(answers), outcome.model()), written,
        bankMeta, inputs, configuration);
    // for the next run on the split: the questions' embeddings, the cases' skeletons, the files' digests
    embedder.save();
    if (selection != null) {
      selection.save();
    }
    CacheFolder.saveDigests(settings.cache());
    Timing timing = new Timing(questionSeconds, built.nanos.sum() / 1e9, evaluationSeconds, (System.nanoTime() - writing) / 1e9);
    return summary(finals, requests, built, outcome, timing);
  }

  /**
   * SHA-256 of what the prompts are made from: the split, the schemas, the bank, the template, the
   * selection settings, the cell values linked (the databases' files, when the vote links them), and
   * this build of the tool. The rules are not among them: they reach the prompts through the split.
   */
  private String promptInputs(CaseBank bank) {
    Path cache = settings.cache();
    StringBuilder all = new StringBuilder();
    try {
      all.append(Version.TEXT).append('\n').append(CacheFolder.buildStamp()).append('\n')
          .append(CacheFolder.digest(settings.dataset(), cache)).append('\n')
          .append(CacheFolder.digest(settings.tables(), cache)).append('\n')
          .append(bank.digest(cache)).append('\n')
          .append(Digest.sha256(template.text())).append('\n')
          .append(settings.policy()).append(' ').append(settings.k()).append(' ').append(settings.twoStage()).append('\n')
          .append(system == null ? "no system message" : Digest.sha256(system)).append('\n')
          .append(settings.schemaStyle().optionName()).append('\n');
      if (settings.databases() != null && settings.policy() == CaseBank.Method.SKELETON_VOTE) {
        for (String db : new java.util.TreeSet<>(records.stream().map(r -> r.path("db_id").asText()).toList())) {
          Path file = settings.databases().resolve(db).resolve(db + ".sqlite");
          all.append(db).append(' ').append(Files.isRegularFile(file) ? CacheFolder.digest(file, cache) : "none").append('\n');
        }
      }
    } catch (IOException e) {
      throw new InputException("cannot read the prompts' inputs (" + InputException.reason(e) + ")", e);
    }
    return Digest.sha256(all.toString());
  }

  /** The dataset as the metrics name it: its path, and the number of questions when {@code --limit} cut it. */
  private String datasetName() {
    return settings.limit() == null ? settings.dataset().toString()
        : settings.dataset() + " (first " + records.size() + " records)";
  }

  /** One question's prompts, its final answer, and its requests (a draft's too). */
  private record Question(List<PromptEntry> prompts, AnswerLog.Entry answer, List<Accounting.Request> requests) {}

  /**
   * The prompt builder, or the prompts a finished run wrote from the same inputs ({@code earlier}, by
   * question in order; empty: none): how many were built, how many reused, and the time spent building.
   */
  private final class Prompts {
    final PromptWriter writer;
    final List<List<PromptEntry>> earlier;
    final AtomicInteger builtCount = new AtomicInteger();
    final AtomicInteger reusedCount = new AtomicInteger();
    final LongAdder nanos = new LongAdder();

    Prompts(PromptWriter writer, List<List<PromptEntry>> earlier) {
      this.writer = writer;
      this.earlier = earlier;
    }

    /** Question {@code index}'s earlier prompts, or an empty list. */
    List<PromptEntry> earlier(int index) {
      List<PromptEntry> e = index < earlier.size() ? earlier.get(index) : List.of();
      return !e.isEmpty() && e.get(0).id().equals(records.get(index).path("id").asText()) ? e : List.of();
    }

    /** An earlier prompt when there is one, else one built now (with a draft: the second stage's). */
    PromptWriter.PromptLine prompt(JsonNode r, PromptEntry earlier, String draft) {
      if (earlier != null) {
        reusedCount.incrementAndGet();
        return earlier.line();
      }
      long start = System.nanoTime();
      PromptWriter.PromptLine line = writer.prompt(r, schemas.get(r.path("db_id").asText()), draft);
      nanos.add(System.nanoTime() - start);
      builtCount.incrementAndGet();
      return line;
    }
  }

  private Question ask(Asker asker, Prompts built, int index) {
    JsonNode r = records.get(index);
    List<PromptEntry> earlier = built.earlier(index);
    String id = r.path("id").asText();
    String stage = settings.twoStage() ? "draft" : "answer";
    PromptWriter.PromptLine line = built.prompt(r, earlier.isEmpty() ? null : earlier.get(0), null);
    byte[] request = request(line.prompt());
    String key = key(request);
    List<PromptEntry> prompts = new ArrayList<>(List.of(entry(line, stage, key)));
    Accounting.Request first = asker.ask(id, stage, request, key);
    AnswerLog.Entry answer = first.entry();
    if (!settings.twoStage() || answer.failed() || !"SQL".equals(answer.kind())) {
      return new Question(prompts, answer, List.of(first)); // no draft SQL: the first answer stands
    }
    // the earlier second prompt was chosen by the same draft when the first request is the same (its answer is the log's)
    PromptEntry earlierFinal = earlier.size() > 1 && earlier.get(0).key().equals(key) ? earlier.get(1) : null;
    PromptWriter.PromptLine second = built.prompt(r, earlierFinal, ModelAnswer.read(answer.answer()).text());
    byte[] secondRequest = request(second.prompt());
    String secondKey = key(secondRequest);
    prompts.add(entry(second, "final", secondKey));
    Accounting.Request last = asker.ask(id, "final", secondRequest, secondKey);
    return new Question(prompts, last.entry(), List.of(first, last));
  }

  private static PromptEntry entry(PromptWriter.PromptLine line, String stage, String key) {
    return new PromptEntry(line.id(), stage, key, line.dbId(), line.prompt(), line.examples(), line.retrieval());
  }

  /** Sends a request unless its answer is logged, never the same request twice at once. */
  private final class Asker {
    final AnswerLog log;
    /** Every request of this run by key, once asked: a request two questions share is asked once, its answer (or failure) theirs. */
    final Map<String, CompletableFuture<Accounting.Request>> asked = new ConcurrentHashMap<>();

    Asker(AnswerLog log) {
      this.log = log;
    }

    /** The answer, and whether this invocation sent its request. */
    Accounting.Request ask(String id, String stage, byte[] request, String key) {
      CompletableFuture<Accounting.Request> mine = new CompletableFuture<>();
      CompletableFuture<Accounting.Request> earlier = asked.putIfAbsent(key, mine);
      if (earlier != null) {
        try {
          Accounting.Request r = earlier.join();
          return new Accounting.Request(r.entry(), r.sent(), stage);
        } catch (java.util.concurrent.CompletionException e) {
          throw e.getCause() instanceof RuntimeException re ? re : e;
        }
      }
      try {
        AnswerLog.Entry known = log.answer(key);
        Accounting.Request r = known != null ? new Accounting.Request(known, false, stage)
            : new Accounting.Request(send(id, stage, request, key), true, stage);
        mine.complete(r);
        return r;
      } catch (RuntimeException e) { // no answer and no failure to log (the log cannot be written, say): the run stops
        mine.completeExceptionally(e);
        throw e;
      }
    }

    /** Sends a request and logs its answer, or its failure after the retries. */
    private AnswerLog.Entry send(String id, String stage, byte[] request, String key) {
      AnswerLog.Entry entry;
      try {
        ChatEndpoint.Completion c = endpoint.chat(request);
        ModelAnswer.Read read = ModelAnswer.read(c.text(), c.finishReason());
        entry = new AnswerLog.Entry(key, id, stage, endpoint.settings().model(), c.text(), read.kind().name(),
            read.prediction(), read.reason(), read.problem(), c.promptTokens(), c.completionTokens(), c.latencyMillis(),
            c.retries(), null, null, c.finishReason(), c.reasoning(), c.usage().reasoningTokens(), c.usage().cachedTokens(),
            c.usage().model(), c.usage().systemFingerprint());
      } catch (EndpointException e) {
        entry = new AnswerLog.Entry(key, id, stage, endpoint.settings().model(), null, null, "", null, null, null, null,
            null, e.retries(), e.getMessage(), e.status(), null, null, null, null, null, null);
      }
      log.append(entry);
      return entry;
    }
  }

  /** Each outcome's count, in {@link Answer} order. */
  private static Map<String, Integer> answers(List<AnswerLog.Entry> finals) {
    Map<String, Integer> counts = new java.util.LinkedHashMap<>();
    for (Answer a : Answer.values()) {
      counts.put(a.name().toLowerCase(Locale.ROOT), 0);
    }
    finals.forEach(e -> counts.merge(Answer.of(e).name().toLowerCase(Locale.ROOT), 1, Integer::sum));
    return counts;
  }

  private Summary summary(List<AnswerLog.Entry> finals, List<Accounting.Request> requests, Prompts built,
      Evaluation.Outcome outcome, Timing timing) {
    Map<String, Integer> failures = new TreeMap<>();
    Map<String, String> unanswered = new java.util.LinkedHashMap<>();
    for (AnswerLog.Entry e : finals) {
      if (e.failed()) {
        failures.merge(e.status() != null ? "HTTP " + e.status() : e.error().contains("time limit") ? "time-out"
            : e.error().contains("not JSON") ? "not JSON" : "other", 1, Integer::sum);
        unanswered.put(e.id(), "failed: " + e.error());
      } else if (e.truncated()) { // cut off at the token limit: no final answer, asked again by a rerun
        unanswered.put(e.id(), "truncated: the answer reached the token limit (finish_reason \"length\")");
      }
    }
    Accounting.Split split = Accounting.of(requests, settings.prices());
    return new Summary(finals.size(), answers(finals), failures, unanswered, split.all(), split.spent(), split.reused(),
        built.builtCount.get(), built.reusedCount.get(), outcome, timing);
  }

  private void write(List<PromptEntry> prompts, List<String> predictions, Evaluation.Outcome outcome, Summary summary,
      CaseBank.Meta bankMeta, String promptInputs, Map<String, Object> configuration) {
    AtomicOutput output = new AtomicOutput();
    Thread cleanUp = new Thread(output::close); // Ctrl-C while staging leaves no temporary file
    Runtime.getRuntime().addShutdownHook(cleanUp);
    try (output) {
      Path out = settings.out();
      try (BufferedWriter lines = Files.newBufferedWriter(output.stage(out.resolve(PROMPTS)), StandardCharsets.UTF_8)) {
        for (PromptEntry p : prompts) {
          lines.write(DatasetWriter.JSON.writeValueAsString(p));
          lines.newLine();
        }
      }
      try (BufferedWriter lines = Files.newBufferedWriter(output.stage(out.resolve(PREDICTIONS)), StandardCharsets.UTF_8)) {
        for (String p : predictions) {
          lines.write(p);
          lines.newLine();
        }
      }
      Evaluation.stage(output, out, outcome);
      DatasetWriter.write(output.stage(out.resolve(RUN)), runFile(summary, bankMeta, promptInputs, configuration));
      output.commit();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      try {
        Runtime.getRuntime().removeShutdownHook(cleanUp);
      } catch (IllegalStateException e) {
        // shutting down: the hook runs
      }
    }
  }

  /**
   * What makes this run this run: everything that changes what is asked or of whom. A folder holds
   * one configuration ({@link RunFolder#checkConfiguration}); the rules, the limit, time limits and
   * retries are not in it (a rerun after a rule edit scores the same answers again).
   */
  private Map<String, Object> configuration() {
    Map<String, Object> c = new java.util.LinkedHashMap<>();
    c.put("model", endpoint.settings().model());
    c.put("endpoint", endpoint.url());
    c.put("dataset", settings.dataset().toString());
    c.put("tables", settings.tables().toString());
    c.put("db", settings.databases() == null ? null : settings.databases().toString());
    c.put("bank", settings.bank().toString());
    c.put("template", Digest.sha256(template.text()));
    c.put("system", system == null ? null : Digest.sha256(system));
    c.put("policy", settings.policy().name().toLowerCase(Locale.ROOT));
    c.put("k", settings.k());
    c.put("two_stage", settings.twoStage());
    c.put("schema_style", settings.schemaStyle().optionName());
    c.putAll(endpoint.request().describe(endpoint.tokenField()));
    c.put("logprobs", endpoint.asksLogprobs());
    c.put("headers", List.copyOf(endpoint.headerNames()));
    try { // through JSON text, as run.json holds it: 7 as a long and 7 read back compare equal
      return DatasetWriter.JSON.readValue(DatasetWriter.JSON.writeValueAsString(c), java.util.LinkedHashMap.class);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  private RunFile runFile(Summary s, CaseBank.Meta meta, String promptInputs, Map<String, Object> configuration) {
    Map<String, Object> runSettings = new java.util.LinkedHashMap<>();
    runSettings.put("request_timeout_s", endpoint.settings().timeoutSeconds());
    runSettings.put("request_retries", endpoint.settings().retries());
    runSettings.put("backoff_s", endpoint.settings().backoffSeconds());
    runSettings.put("query_timeout_s", settings.timeoutSeconds());
    runSettings.put("price_in", settings.prices().in());
    runSettings.put("price_out", settings.prices().out());
    Map<String, Object> answers = new java.util.LinkedHashMap<>(s.answers());
    answers.put("failures", s.failures());
    String templateText = template.text();
    return new RunFile(Version.TEXT, endpoint.settings().model(), endpoint.url(), endpoint.settings().keyVariable(),
        settings.dataset().toString(), records.size(), settings.limit(), settings.tables().toString(),
        settings.databases() == null ? null : settings.databases().toString(),
        new BankFile(settings.bank().toString(), meta.source(), meta.cases(), meta.model(), meta.thresholds()),
        new Digested(settings.template().toString(), Digest.sha256(templateText)),
        settings.system() == null ? null : new Digested(settings.system().toString(), Digest.sha256(system)),
        new Digested(settings.rules().folder().toString(), Digest.rules(settings.rules())), settings.rules().profile(),
        promptInputs, configuration,
        runSettings, answers, s.unanswered(), s.requests());
  }

  /** The selection by skeleton (a draft's, or the vote's), with the values linked when the databases are given. */
  private static DraftSelection selection(CaseBank bank, Map<String, Schema> schemas, Configuration settings) {
    boolean needed = settings.twoStage() || settings.policy() == CaseBank.Method.SKELETON_VOTE;
    return needed ? new DraftSelection(bank, schemas,
        settings.databases() == null ? null : new rolepolicy.casebank.ValueLinker(settings.databases()), settings.cache()) : null;
  }
}

package rolepolicy.cli;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.kie.api.KieBase;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import rolepolicy.db.Execution;
import rolepolicy.db.SqliteRunner;
import rolepolicy.engine.PolicyPromptText;
import rolepolicy.engine.QuestionEngine;
import rolepolicy.engine.RuleBase;
import rolepolicy.evaluate.GoldRecord;
import rolepolicy.evaluate.Metrics;
import rolepolicy.evaluate.PredictionReader;
import rolepolicy.evaluate.QuestionScorer;
import rolepolicy.io.AtomicOutput;
import rolepolicy.io.DatasetWriter;
import rolepolicy.io.OutputGuard;
import rolepolicy.interact.InteractLoop;
import rolepolicy.interact.InteractQuestion;
import rolepolicy.interact.InteractRun;
import rolepolicy.interact.ModelSource;
import rolepolicy.interact.ModelUser;
import rolepolicy.interact.PolicyClarifier;
import rolepolicy.interact.PredictionSource;
import rolepolicy.interact.QuestionLog;
import rolepolicy.interact.QuestionSet;
import rolepolicy.interact.ReplaySource;
import rolepolicy.interact.ResultComparison;
import rolepolicy.interact.RoundsChart;
import rolepolicy.interact.RoundFigures;
import rolepolicy.interact.SqlSource;
import rolepolicy.interact.UserStudy;
import rolepolicy.io.Plural;
import rolepolicy.bench.StandInModel;
import rolepolicy.casebank.CaseBank;
import rolepolicy.casebank.CaseIndex;
import rolepolicy.casebank.Embedder;
import rolepolicy.casebank.PromptWriter;
import rolepolicy.casebank.SchemaStyle;
import rolepolicy.llm.ChatEndpoint;
import rolepolicy.llm.PromptTemplate;
import rolepolicy.run.RunFolder;
import rolepolicy.run.Digest;
import rolepolicy.io.InputException;
import rolepolicy.spider.Schema;
import rolepolicy.spider.SchemaReader;

/** The interactive clarification loop over a question list or a policy dataset (docs/interact.md). */
@Command(
    name = "interact",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = "Play the clarification loop: SQL, run and compare, clarify, new SQL; up to --rounds rounds.",
    footer = "%n--dataset is a generated split or a question list, e.g. ../shared/sphinteract/kaggledbqa_208_test_order.json.")
public final class InteractCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Mixin DatasetOption data;

  @Mixin DatabasesOption databases;

  @Mixin TablesOption schemaFile;

  @ArgGroup(exclusive = true, heading = "Where the SQL comes from (default for a policy dataset: its original SQL as round 0):%n")
  Source source = new Source();

  static final class Source {
    @Option(names = "--replay", paramLabel = "LOG", description = "A recorded run: each round's SQL is the recorded one.")
    Path replay;

    @Option(names = "--pred", paramLabel = "FILE", description = "Round 0 from predictions in evaluate's format (policy datasets).")
    Path predictions;

    @Option(names = "--model", description = "A model behind --llm-url writes, repairs and asks.")
    boolean model;
  }

  @Option(names = "--from-run", paramLabel = "DIR",
      description = "With --model: round 0 is a finished run's answers (runs/NAME); later rounds come from the model.")
  Path fromRun;

  @Mixin CaseBankOption caseBank;

  @Mixin TemplateOption promptTemplate;

  @Mixin FewShotOptions fewShot;

  @Option(names = "--method", paramLabel = "METHOD", defaultValue = "questions",
      description = "With --model: questions (a clarification question after a wrong round) or baseline (no question: "
          + "the next round's prompt shows the wrong SQL and asks again) (default: ${DEFAULT-VALUE}).")
  String method;

  @Option(names = "--shots", paramLabel = "N", defaultValue = "0",
      description = "With --model: user-study examples shown in the prompts, chosen by question similarity: 0, 1, 3 or 5 "
          + "(default: ${DEFAULT-VALUE}).")
  int shots;

  @Option(names = "--user-study", paramLabel = "FILE", defaultValue = "../shared/sphinteract/user_study.json",
      description = "With --shots: the user study the examples come from (default: ${DEFAULT-VALUE}).")
  Path userStudy;

  @Option(names = "--no-logprobs",
      description = "With --model: do not ask the endpoint for token log-probabilities (for one that refuses the field); "
          + "no perplexity is logged.")
  boolean noLogprobs;

  @Option(names = "--stand-in", paramLabel = "LOG",
      description = "With --model and no --llm-url: a stand-in model on 127.0.0.1 answers from a recorded run's SQL "
          + "(rolepolicy.bench.StandInModel), to try the methods without a real endpoint.")
  Path standIn;

  @ArgGroup(exclusive = false, heading = "Model endpoint (--model, and the model user):%n")
  EndpointOptions llm = new EndpointOptions();

  @Option(names = "--prompts", paramLabel = "DIR", defaultValue = "data/prompts",
      description = "Prompt templates interact-{generate,repair,ask,answer}.txt (default: ${DEFAULT-VALUE}).")
  Path prompts;

  @Option(names = "--rounds", paramLabel = "N", defaultValue = "4", description = "Rounds after round 0 (default: ${DEFAULT-VALUE}).")
  @Range(min = 0)
  int rounds;

  @Option(names = "--early-stop", description = "Stop asking when the asking side sees no ambiguity left.")
  boolean earlyStop;

  @Option(names = "--comparison", paramLabel = "MODE", defaultValue = "authors",
      description = "authors (the recorded runs' comparison) or strict (evaluate's) (default: ${DEFAULT-VALUE}).")
  String comparison;

  @Mixin QueryTimeoutOption query;

  @Mixin ParallelOption workers;

  @Mixin RulesOption ruleFiles;

  @Option(names = "--out", paramLabel = "DIR", defaultValue = "results/interact", description = "Output folder (default: ${DEFAULT-VALUE}).")
  Path out;

  /** {@code summary.json}. */
  @JsonPropertyOrder({"questions", "source", "method", "shots", "comparison", "rounds", "early_stop", "played", "skipped",
      "recorded_agreement", "by_round"})
  record SummaryFile(
      String questions,
      String source,
      @JsonInclude(JsonInclude.Include.NON_NULL) String method,
      @JsonInclude(JsonInclude.Include.NON_NULL) Integer shots,
      String comparison,
      int rounds,
      @JsonProperty("early_stop") boolean earlyStop,
      int played,
      Map<String, Integer> skipped,
      @JsonProperty("recorded_agreement") Agreement recordedAgreement,
      @JsonProperty("by_round") List<RoundFigures> byRound) {}

  /** How many replayed questions reached the recorded outcome, and the indexes of those that did not. */
  record Agreement(int agree, List<Integer> differ) {}

  @Mixin ForceOption force;

  @Override
  public Integer call() {
    OutputGuard.current().checkFiles(out, "log.json", "summary.json", "rounds.png");
    ResultComparison mode = switch (comparison) {
      case "authors" -> ResultComparison.AUTHORS;
      case "strict" -> ResultComparison.STRICT;
      default -> throw new ParameterException(spec.commandLine(), "--comparison must be authors or strict, not '" + comparison + "'");
    };
    ModelSource.Method modelMethod = switch (method) {
      case "questions" -> ModelSource.Method.QUESTIONS;
      case "baseline" -> ModelSource.Method.BASELINE;
      default -> throw new ParameterException(spec.commandLine(), "--method must be questions or baseline, not '" + method + "'");
    };
    fewShot.schemaStyle(); // a bad --schema-style is refused before anything starts
    if (!List.of(0, 1, 3, 5).contains(shots)) {
      throw new ParameterException(spec.commandLine(), "--shots must be 0, 1, 3 or 5, not " + shots);
    }
    var parsed = spec.commandLine().getParseResult();
    for (String modelOnly : List.of("--method", "--shots", "--user-study", "--no-logprobs", "--stand-in")) {
      if (parsed.hasMatchedOption(modelOnly) && !source.model) {
        throw new ParameterException(spec.commandLine(), modelOnly + " goes with --model");
      }
    }
    if (standIn != null && llm.given()) {
      throw new ParameterException(spec.commandLine(), "--stand-in is the model: give it without --llm-url and --llm-model");
    }
    if (databases.dir == null) {
      throw new ParameterException(spec.commandLine(), "interact needs --db, the folder of SQLite databases");
    }
    if (!Files.isDirectory(databases.dir)) {
      throw new InputException(databases.dir + ": database folder not found");
    }
    List<InteractQuestion> questions = QuestionSet.read(data.dataset);
    boolean policy = questions.get(0).policy() != null;
    Map<String, Schema> schemas = policy ? SchemaReader.read(schemaFile.tables) : Map.of();
    if (policy) {
      for (InteractQuestion q : questions) {
        if (!schemas.containsKey(q.dbId())) {
          throw new InputException(data.dataset + ": question " + q.id() + " asks of " + q.dbId() + ", which " + schemaFile.tables + " does not describe");
        }
      }
    }
    if ((source.model || source.replay == null && !policy) && !llm.given() && standIn == null) {
      throw new ParameterException(spec.commandLine(), policy ? "--model needs --llm-url and --llm-model"
          : "a question list needs --replay LOG or --model with --llm-url and --llm-model");
    }
    if (fromRun != null && (!source.model || !policy)) {
      throw new ParameterException(spec.commandLine(), "--from-run gives round 0 of --model on a policy dataset");
    }
    if (source.predictions != null && !policy) {
      throw new ParameterException(spec.commandLine(), "--pred gives round 0 of a policy dataset; " + data.dataset + " has no gold labels");
    }
    KieBase ruleBase = policy || source.model ? RuleBase.load(ruleFiles.ruleSet()) : null;
    ModelSource.Templates templates = source.model
        ? ModelSource.Templates.read(prompts, modelMethod, shots > 0, PolicyPromptText.of(ruleBase)) : null;
    StandInModel standInModel = standIn == null ? null : new StandInModel(standIn, new StandInModel.Templates(
        templates.generate(), templates.baseline(), templates.repair(), templates.ask(),
        PromptTemplate.read(prompts.resolve("interact-answer.txt"), ModelUser.PLACEHOLDERS)));
    if (standInModel != null) {
      llm.url = standInModel.baseUrl();
      llm.model = "stand-in (" + standIn + ")";
    }
    ChatEndpoint endpoint = llm.given() ? llm.endpoint(System.getenv(), source.model && !noLogprobs, spec.commandLine()) : null;
    QuestionEngine engine = ruleBase == null ? null : new QuestionEngine(ruleBase);
    ModelUser modelUser = endpoint == null ? null : new ModelUser(endpoint, prompts.resolve("interact-answer.txt"));
    PrintWriter w = spec.commandLine().getOut();
    Embedder embedder = source.model && (policy && fromRun == null || shots > 0) ? new Embedder() : null;
    CaseBank cases = source.model && policy && fromRun == null ? CaseIndex.open(caseBank.bank, embedder) : null;
    ModelSource.Shots examples = shots == 0 ? ModelSource.Shots.NONE
        : new ModelSource.Shots(UserStudy.read(userStudy, embedder::embed), shots);
    try (standInModel; cases; SqliteRunner runner = new SqliteRunner(databases.dir, query.timeout)) {
      ReplaySource replay = source.replay == null ? null : ReplaySource.read(source.replay, questions);
      SqlSource sqlSource;
      if (replay != null) {
        sqlSource = replay;
      } else if (source.model) {
        sqlSource = new ModelSource(endpoint, templates, db -> schemaText(runner, db),
            q -> q.policy() == null ? null
                : PromptWriter.schemaText(schemas.get(q.dbId()), q.policy().record().policies(), SchemaStyle.POLICIES),
            policy ? roundZero(endpoint, cases, schemas, questions) : null, modelMethod, examples);
      } else if (source.predictions != null) {
        List<GoldRecord> golds = questions.stream().map(q -> q.policy().record()).toList();
        sqlSource = new PredictionSource(source.predictions, PredictionReader.read(source.predictions, golds));
      } else {
        sqlSource = PredictionSource.originalSql(questions);
      }
      InteractLoop loop = new InteractLoop(new InteractLoop.Rounds(rounds, earlyStop, mode), sqlSource, runner,
          policy ? new PolicyClarifier(engine, schemas, runner) : null, modelUser);
      // a stand-in's port changes from run to run: it is named without it, so a stopped run resumes
      String sourceName = standInModel == null ? sqlSource.describe() : sqlSource.describe().replace(" at " + llm.url, "");
      String settings = String.join(" | ", data.dataset.toString(), "db " + databases.dir, sourceName, mode.name(),
          "rounds " + rounds, earlyStop ? "early stop" : "no early stop",
          "rules " + ruleFiles.rules + " (" + Digest.rules(ruleFiles.ruleSet()).substring(0, 12) + ")", "tables " + schemaFile.tables,
          "prompts " + prompts + " (templates " + Digest.templates(prompts).substring(0, 12) + ")",
          String.format(Locale.ROOT, "timeout %s s", query.timeout), requestSettings(endpoint));
      InteractRun run = new InteractRun(loop, replay, out, settings, workers.parallel);
      AtomicInteger finished = new AtomicInteger();
      int total = questions.size();
      PrintWriter err = spec.commandLine().getErr();
      List<QuestionLog> logs = run.run(questions, done -> {
        finished.set(done);
        if (done > 0) {
          err.printf(Locale.ROOT, "resuming: %d of %s already done in %s%n", done, Plural.of(total, "question"), out);
        }
      }, i -> {
        int n = finished.incrementAndGet();
        if (n % 50 == 0 || n == total) {
          err.printf(Locale.ROOT, "%d / %d questions%n", n, total);
        }
      });
      Function<List<String>, Metrics> policyMetrics = null;
      SqliteRunner scoringRunner = policy ? new SqliteRunner(databases.dir, query.timeout) : null;
      try {
        if (policy) {
          QuestionScorer scorer = new QuestionScorer(engine, schemas, scoringRunner);
          List<GoldRecord> played = logs.stream().filter(l -> l.skipped() == null)
              .map(l -> questions.get(l.index()).policy().record()).toList();
          policyMetrics = answers -> {
            List<rolepolicy.evaluate.QuestionResult> results = new ArrayList<>();
            for (int i = 0; i < played.size(); i++) {
              results.add(scorer.score(played.get(i), answers.get(i)));
            }
            return Metrics.of(results, true);
          };
        }
        List<RoundFigures> figures = RoundFigures.of(logs, rounds, replay != null, policyMetrics);
        SummaryFile summary = summary(logs, figures, sourceName, mode, replay != null);
        write(logs, summary, settings);
        run.finish();
        print(w, summary, policy);
      } finally {
        if (scoringRunner != null) {
          scoringRunner.close();
        }
      }
    }
    return 0;
  }

  private SummaryFile summary(List<QuestionLog> logs, List<RoundFigures> figures, String sourceName,
      ResultComparison mode, boolean replay) {
    Map<String, Integer> skipped = new TreeMap<>();
    logs.stream().filter(l -> l.skipped() != null)
        .forEach(l -> skipped.merge(l.skipped().startsWith("no database") ? "no database"
            : l.skipped().startsWith("the gold SQL fails") ? "the gold SQL fails" : l.skipped(), 1, Integer::sum));
    Agreement agreement = null;
    if (replay) {
      List<Integer> differ = new ArrayList<>();
      int agree = 0;
      for (QuestionLog l : logs) {
        if (l.skipped() != null) {
          continue;
        }
        if (String.valueOf(l.numCqAsked()).equals(String.valueOf(l.recordedNumCqAsked()))) {
          agree++;
        } else {
          differ.add(l.index());
        }
      }
      agreement = new Agreement(agree, differ);
    }
    int played = (int) logs.stream().filter(l -> l.skipped() == null).count();
    return new SummaryFile(data.dataset.toString(), sourceName, source.model ? method : null, source.model ? shots : null,
        mode.name().toLowerCase(Locale.ROOT), rounds, earlyStop,
        played, skipped, agreement, figures);
  }

  /** What the model is asked besides its messages (temperature, token limit, …), so that a resume does not mix settings. */
  private static String requestSettings(ChatEndpoint endpoint) {
    if (endpoint == null) {
      return "no model endpoint";
    }
    try {
      return "request " + new com.fasterxml.jackson.databind.ObjectMapper().writeValueAsString(endpoint.request().describe(endpoint.tokenField()));
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  private void write(List<QuestionLog> logs, SummaryFile summary, String settings) {
    Map<String, Object> log = new LinkedHashMap<>();
    log.put("settings", settings);
    log.put("records", logs);
    try (AtomicOutput output = new AtomicOutput()) {
      DatasetWriter.write(output.stage(out.resolve("log.json")), log);
      DatasetWriter.write(output.stage(out.resolve("summary.json")), summary);
      Files.write(output.stage(out.resolve("rounds.png")), RoundsChart.png(summary.byRound(), summary.comparison()));
      output.commit();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private void print(PrintWriter w, SummaryFile s, boolean policy) {
    w.printf(Locale.ROOT, "%s played (%s), comparison %s%n", Plural.of(s.played(), "question"), s.source(), s.comparison());
    s.skipped().forEach((why, n) -> w.printf(Locale.ROOT, "  %d skipped: %s%n", n, why));
    List<String> header = new ArrayList<>(List.of("round", "matched", "match", "asked"));
    if (s.recordedAgreement() != null) {
      header.addAll(List.of("recorded", "recorded match"));
    }
    boolean perplexity = s.byRound().stream().anyMatch(f -> f.perplexity() != null);
    if (perplexity) {
      header.add("perplexity");
    }
    if (policy) {
      header.addAll(List.of("compliant", "REFUSE P", "REFUSE R", "EX (evaluate)"));
    }
    List<List<String>> rows = new ArrayList<>();
    rows.add(header);
    for (RoundFigures f : s.byRound()) {
      List<String> row = new ArrayList<>(List.of(String.valueOf(f.round()), String.valueOf(f.matched()), pct(f.matchRate()),
          String.valueOf(f.asked())));
      if (s.recordedAgreement() != null) {
        row.addAll(List.of(String.valueOf(f.recordedMatched()), pct(f.recordedMatchRate())));
      }
      if (perplexity) {
        row.add(f.perplexity() == null ? "-" : String.format(Locale.ROOT, "%.4f", f.perplexity()));
      }
      if (policy) {
        Metrics m = f.policy();
        row.addAll(List.of(pct(m.compliance().compliantRate()), pct(m.refuse().precision()), pct(m.refuse().recall()),
            pct(m.execution().matchRate())));
      }
      rows.add(row);
    }
    int[] widths = new int[header.size()];
    rows.forEach(r -> { for (int i = 0; i < r.size(); i++) widths[i] = Math.max(widths[i], r.get(i).length()); });
    for (List<String> r : rows) {
      StringBuilder line = new StringBuilder();
      for (int i = 0; i < r.size(); i++) {
        line.append(i == 0 ? "" : "  ").append(String.format(Locale.ROOT, "%" + widths[i] + "s", r.get(i)));
      }
      w.println(line);
    }
    if (s.recordedAgreement() != null) {
      w.printf(Locale.ROOT, "recorded outcome reached: %d of %d%s%n", s.recordedAgreement().agree(), s.played(),
          s.recordedAgreement().differ().isEmpty() ? "" : "; differ at indexes " + s.recordedAgreement().differ());
    }
    w.println("wrote " + out.resolve("log.json") + ", " + out.resolve("summary.json") + " and " + out.resolve("rounds.png"));
  }

  private static String pct(Double rate) {
    return rate == null ? "-" : String.format(Locale.ROOT, "%.1f%%", 100 * rate);
  }

  /** Round 0 of a policy dataset: run's prompt (policies and examples) sent to the model, or a finished run's answers. */
  private ModelSource.RoundZero roundZero(ChatEndpoint endpoint, CaseBank cases, Map<String, Schema> schemas,
      List<InteractQuestion> questions) {
    if (fromRun != null) {
      Map<String, RunFolder.Final> finals = RunFolder.finals(fromRun);
      for (InteractQuestion q : questions) {
        if (!finals.containsKey(q.id())) {
          throw new InputException(fromRun + ": the run has no answer to question " + q.id() + " of " + data.dataset);
        }
      }
      return new ModelSource.RoundZero() {
        @Override
        public SqlSource.Generation answer(InteractQuestion q) {
          RunFolder.Final f = finals.get(q.id());
          // a failed or cut-off answer is asked again
          return f.answer() != null ? SqlSource.Generation.of(f.answer()) : ModelSource.generation(endpoint.completion(f.prompt()));
        }

        @Override
        public String describe() {
          return "from the run " + fromRun;
        }
      };
    }
    PromptWriter writer = new PromptWriter(cases, PromptTemplate.read(promptTemplate.template, PromptWriter.PLACEHOLDERS)
        .with("policy_rules", PolicyPromptText.of(RuleBase.load(ruleFiles.ruleSet()))),
        fewShot.retrievalPolicy(), fewShot.examples, fewShot.retrievalPolicy() == CaseBank.Method.SKELETON_VOTE
            ? new rolepolicy.casebank.DraftSelection(cases, schemas, new rolepolicy.casebank.ValueLinker(databases.dir)) : null,
        fewShot.schemaStyle());
    return new ModelSource.RoundZero() {
      @Override
      public SqlSource.Generation answer(InteractQuestion q) {
        // the embedder and the index searcher are thread-safe: questions played at once share them
        return ModelSource.generation(endpoint.completion(
            writer.prompt(q.id(), q.dbId(), q.question(), schemas.get(q.dbId()), q.policy().record().policies()).prompt()));
      }

      @Override
      public String describe() {
        return "from run's prompt (" + promptTemplate.template + ", bank " + caseBank.bank + ", " + fewShot.examples + " examples)";
      }
    };
  }

  /** A database's CREATE TABLE statements, as the prompts show the schema. */
  private static String schemaText(SqliteRunner runner, String dbId) {
    Execution e;
    synchronized (runner) {
      e = runner.run(dbId, "SELECT sql FROM sqlite_master WHERE type = 'table' AND sql IS NOT NULL ORDER BY rowid");
    }
    if (e.status() != Execution.Status.OK) {
      throw new InputException(dbId + ": cannot read the schema (" + e.message() + ")");
    }
    List<String> statements = new ArrayList<>();
    e.rows().forEach(r -> statements.add(String.valueOf(r.get(0)).strip() + ";"));
    return String.join("\n\n", statements);
  }
}

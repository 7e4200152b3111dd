package rolepolicy.interact;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import rolepolicy.db.Execution;
import rolepolicy.db.SqliteRunner;
import rolepolicy.interact.QuestionLog.CqEntry;
import rolepolicy.interact.QuestionLog.FeedbackEntry;
import rolepolicy.interact.QuestionLog.Option;
import rolepolicy.interact.QuestionLog.RoundState;
import rolepolicy.interact.QuestionLog.SqlEntry;
import rolepolicy.llm.ModelAnswer;
import rolepolicy.model.ClarificationOption;
import rolepolicy.model.Violation;

/**
 * Plays one question: each round's SQL is run and compared with the gold result; a policy violation
 * gets a clarification from the rules answered by the policy user, a wrong result a question from
 * the source answered by the model user; an execution error gets one repair.
 */
public final class InteractLoop {
  /**
   * @param rounds the last round played (rounds 0 … {@code rounds})
   * @param earlyStop stop asking when the asking side sees no ambiguity left: one last SQL, then stop
   */
  public record Rounds(int rounds, boolean earlyStop, ResultComparison comparison) {}

  public static final String REFUSE = "REFUSE";

  private final Rounds settings;
  private final SqlSource source;
  private final SqliteRunner runner;
  private final PolicyClarifier clarifier;
  private final ModelUser modelUser;
  private final Map<List<String>, Execution> goldRuns = new ConcurrentHashMap<>();

  /** {@code clarifier} is null for questions without policies; {@code modelUser} null when no model answers. */
  public InteractLoop(Rounds settings, SqlSource source, SqliteRunner runner, PolicyClarifier clarifier, ModelUser modelUser) {
    this.settings = settings;
    this.source = source;
    this.runner = runner;
    this.clarifier = clarifier;
    this.modelUser = modelUser;
  }

  /** One question's conversation; the source's failures ({@code EndpointException}) pass through. */
  public QuestionLog play(InteractQuestion q) {
    if (!java.nio.file.Files.isRegularFile(runner.databaseFile(q.dbId()))) {
      return skipped(q, "no database: " + runner.databaseFile(q.dbId()) + " not found");
    }
    Execution gold = null;
    if (q.goldSql() != null) {
      gold = goldRuns.computeIfAbsent(List.of(q.dbId(), q.goldSql()), k -> execute(q.dbId(), q.goldSql()));
      if (gold.status() == Execution.Status.NO_DATABASE) {
        return skipped(q, "no database: " + gold.message());
      }
      if (gold.status() != Execution.Status.OK) {
        return skipped(q, "the gold SQL fails: " + gold.message());
      }
    }
    Play play = new Play(q, gold);
    play.run();
    return new QuestionLog(q.index(), q.id(), q.dbId(), q.question(), q.goldSql(), source.examples(q), play.sqlLog, play.cqLog,
        play.feedbackLog, play.success == null ? QuestionLog.FAILED : play.success, null, play.decision(),
        play.rounds, null);
  }

  private QuestionLog skipped(InteractQuestion q, String why) {
    return new QuestionLog(q.index(), q.id(), q.dbId(), q.question(), q.goldSql(), null, List.of(), List.of(), List.of(),
        QuestionLog.FAILED, null, null, List.of(), why);
  }

  /** The state of one question's conversation. */
  private final class Play {
    final InteractQuestion q;
    final Execution gold;
    final Conversation c = new Conversation();
    final List<SqlEntry> sqlLog = new ArrayList<>();
    final List<CqEntry> cqLog = new ArrayList<>();
    final List<FeedbackEntry> feedbackLog = new ArrayList<>();
    final List<RoundState> rounds = new ArrayList<>();
    Integer success;
    /** The kind of the next SQL text: a clarification's edit, or a round's SQL. */
    String nextKind = "generate";
    /** Rewrites applied since the source last wrote SQL, as the rewrite rules count them. */
    int policySteps;
    /** The perplexity of the text being checked, when a model wrote it. */
    Double perplexity;
    /** Whether the source's last text was cut off at the token limit. */
    boolean truncated;

    Play(InteractQuestion q, Execution gold) {
      this.q = q;
      this.gold = gold;
    }

    void run() {
      String text = take(source.generate(q, c));
      String kind = "generate";
      boolean lastRound = false;
      while (text != null) {
        int round = c.round();
        if (!kind.equals("clarified")) {
          policySteps = 0; // new SQL from the source: the rules count its rewrites afresh
        }
        if (truncated) { // cut off at the token limit: no final answer, neither SQL nor REFUSE
          sqlLog.add(new SqlEntry(sqlLog.size(), round, kind, text, "truncated: the answer reached the token limit", perplexity));
          rounds.add(new RoundState(round, null, false));
          return;
        }
        if (q.policy() != null && refuses(text, kind)) {
          sqlLog.add(new SqlEntry(sqlLog.size(), round, kind, REFUSE, q.policy().refuse() ? "match" : "mismatch", perplexity));
          refuse(round);
          return;
        }
        String sql;
        try {
          sql = kind.equals("clarified") || (q.policy() != null && !source.modelAnswers()) ? text.strip()
              : source.modelAnswers() ? ModelAnswer.extract(text) : ModelAnswer.authorsClean(text);
        } catch (ModelAnswer.NoSqlException e) {
          sqlLog.add(new SqlEntry(sqlLog.size(), round, kind, text, "no SQL: " + e.getMessage(), perplexity));
          sql = null;
        }
        if (sql != null) {
          c.sqls().add(sql);
          String refused = null;
          if (clarifier != null) {
            PolicyClarifier.Check check = clarifier.check(q.policy().record(), sql, policySteps);
            if (check.analysis() == null) {
              refused = "not analysable, so not compliant: " + check.problem();
            } else if (check.question() != null) {
              sqlLog.add(new SqlEntry(sqlLog.size(), round, kind, sql, "violates: " + describe(check), perplexity));
              rounds.add(new RoundState(round, sql, false));
              if (round >= settings.rounds()) {
                return;
              }
              text = clarify(check, sql, round);
              kind = nextKind;
              continue;
            }
          }
          if (refused != null) {
            sqlLog.add(new SqlEntry(sqlLog.size(), round, kind, sql, refused, perplexity));
            rounds.add(new RoundState(round, sql, false));
          } else {
            Execution run = execute(q.dbId(), sql);
            if (run.status() != Execution.Status.OK && !kind.equals("fix")) {
              sqlLog.add(new SqlEntry(sqlLog.size(), round, kind, sql, "error: " + run.message(), perplexity));
              String repair = take(source.repair(q, c, sql, run.message()));
              if (repair != null) {
                text = repair; // one repair, checked like any SQL of the round
                kind = "fix";
                continue;
              }
              rounds.add(new RoundState(round, sql, false));
            } else if (record(sql, kind, round, run)) {
              success = round;
              return;
            }
          }
        } else {
          rounds.add(new RoundState(round, null, false));
        }
        if (round >= settings.rounds() || lastRound) {
          return;
        }
        SqlSource.Generation asked = source.ask(q, c);
        if (asked != null) {
          String question = asked.text();
          boolean noAmbiguity = question.equals(SqlSource.NO_AMBIGUITY);
          cqLog.add(new CqEntry(cqLog.size(), round, "model", question, null, null, asked.perplexity(), null));
          if (noAmbiguity && settings.earlyStop()) {
            lastRound = true;
          } else if (!noAmbiguity) {
            SqlSource.Generation answer = modelUser == null
                ? new SqlSource.Generation("(no user answers: no model endpoint)", null) : modelUser.answer(q, question);
            feedbackLog.add(new FeedbackEntry(feedbackLog.size(), round, "model user", answer.text(), null, answer.perplexity()));
            c.exchanges().add(new Conversation.Exchange(question, answer.text()));
          }
        }
        c.nextRound();
        text = take(source.generate(q, c));
        kind = "generate";
      }
    }

    /** The text of a source's generation, keeping its perplexity for the log; null stays null. */
    String take(SqlSource.Generation g) {
      perplexity = g == null ? null : g.perplexity();
      truncated = g != null && g.truncated();
      return g == null ? null : g.text();
    }

    /** Whether the text is REFUSE: a model's answer as the answer reader reads it, a prediction as evaluate does. */
    boolean refuses(String text, String kind) {
      return source.modelAnswers() && !kind.equals("clarified") ? ModelAnswer.read(text).kind() == ModelAnswer.Kind.REFUSE
          : ModelAnswer.isRefusal(text);
    }

    /** Records a run SQL's result in the round; true on a match. */
    boolean record(String sql, String kind, int round, Execution run) {
      boolean matched = run.status() == Execution.Status.OK && gold != null
          && settings.comparison().matches(gold, run, q.goldSql());
      sqlLog.add(new SqlEntry(sqlLog.size(), round, kind, sql,
          run.status() != Execution.Status.OK ? "error: " + run.message() : matched ? "match" : "mismatch",
          kind.equals("clarified") ? null : perplexity));
      rounds.add(new RoundState(round, sql, matched));
      return matched;
    }

    /** Asks the rules' clarification; returns the next SQL text, or null when the answer ends the question. */
    String clarify(PolicyClarifier.Check check, String sql, int round) {
      List<Option> options = check.options().stream().map(o -> new Option(o.code(), o.text(), o.rule())).toList();
      List<QuestionLog.NotOffered> notOffered = check.edits().stream().filter(e -> !e.compliant() || !e.sameResult())
          .map(e -> new QuestionLog.NotOffered(e.edit().code(), e.edit().rule(), e.problem())).toList();
      cqLog.add(new CqEntry(cqLog.size(), round, "rules", check.question().text(), options, check.question().rule(), null,
          notOffered.isEmpty() ? null : notOffered));
      PolicyUser.Answer answer = PolicyUser.answer(q.policy(), check.options(), policySteps,
          clarifier.columnsInWords(q.policy().record()));
      ClarificationOption chosen = answer.option();
      feedbackLog.add(new FeedbackEntry(feedbackLog.size(), round, "policy user", answer.text(), chosen.code(), null));
      c.exchanges().add(new Conversation.Exchange(check.question().text(), answer.text()));
      c.nextRound();
      if (chosen.code().equals(REFUSE)) {
        sqlLog.add(new SqlEntry(sqlLog.size(), round + 1, "clarified", REFUSE, q.policy().refuse() ? "match" : "mismatch"));
        refuse(round + 1);
        return null;
      }
      if (chosen.edit() != null) {
        policySteps += chosen.step() != null ? 1 : 0;
        nextKind = "clarified";
        perplexity = null; // the rules' edit, not a model's text
        return chosen.edit().sql(); // made and checked before it was offered
      }
      nextKind = "generate";
      return take(source.generate(q, c));
    }

    /** The standing answer at the end: SQL, REFUSE, or null when no round had one. */
    String decision() {
      for (int i = rounds.size() - 1; i >= 0; i--) {
        if (rounds.get(i).answer() != null) {
          return rounds.get(i).answer().equals(REFUSE) ? REFUSE : "SQL";
        }
      }
      return null;
    }

    void refuse(int round) {
      boolean matched = q.policy() != null && q.policy().refuse();
      rounds.add(new RoundState(round, REFUSE, matched));
      if (matched) {
        success = round;
      }
    }
  }

  private static String describe(PolicyClarifier.Check check) {
    if (check.violations().isEmpty()) {
      return "SELECT *";
    }
    List<String> parts = new ArrayList<>();
    for (Violation v : check.violations()) {
      parts.add(v.ref().column() + " " + v.ref().role() + " " + v.policy());
    }
    return String.join(", ", parts);
  }

  private Execution execute(String dbId, String sql) {
    synchronized (runner) {
      return runner.run(dbId, sql);
    }
  }
}

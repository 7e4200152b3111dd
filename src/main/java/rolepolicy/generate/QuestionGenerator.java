package rolepolicy.generate;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import rolepolicy.engine.AstQuery;
import rolepolicy.engine.Audit;
import rolepolicy.engine.DatabasePolicies;
import rolepolicy.engine.PolicyLoop;
import rolepolicy.engine.QuerySource;
import rolepolicy.engine.QuestionEngine;
import rolepolicy.engine.TextQuery;
import rolepolicy.generate.Records.GoldLabel;
import rolepolicy.generate.Records.NegativeExample;
import rolepolicy.generate.Records.QuestionRecord;
import rolepolicy.generate.Records.RewriteStepRecord;
import rolepolicy.generate.Records.ViolationRecord;
import rolepolicy.model.Answer;
import rolepolicy.model.ColumnRef;
import rolepolicy.model.Decision;
import rolepolicy.model.Refusal;
import rolepolicy.model.RewriteStep;
import rolepolicy.spider.Question;
import rolepolicy.spider.Schema;

/**
 * Builds one output record: original violations, gold label and negative example, from what the
 * rules concluded in {@link PolicyLoop} over the question's Spider AST or its SQL text.
 */
public final class QuestionGenerator {
  private final PolicyLoop loop;
  private final Map<String, DatabaseContext> databases = new java.util.concurrent.ConcurrentHashMap<>();
  private final Map<String, Schema> schemas;
  private final Map<String, DatabasePolicies> policies;
  private final Facts facts;

  /** Where a question's facts come from. */
  public enum Facts {
    /** The Spider AST where the record has one, else the SQL text. */
    AUTO,
    /** Always the SQL text, even where the record has an AST. */
    TEXT
  }

  public QuestionGenerator(
      QuestionEngine engine, Map<String, Schema> schemas, Map<String, DatabasePolicies> policies) {
    this(engine, schemas, policies, Facts.AUTO);
  }

  public QuestionGenerator(
      QuestionEngine engine,
      Map<String, Schema> schemas,
      Map<String, DatabasePolicies> policies,
      Facts facts) {
    this(engine, schemas, policies, facts, rolepolicy.engine.ResultCheck.NONE);
  }

  /** {@code results} runs the rewrites that must keep the answer on the question's database. */
  public QuestionGenerator(
      QuestionEngine engine,
      Map<String, Schema> schemas,
      Map<String, DatabasePolicies> policies,
      Facts facts,
      rolepolicy.engine.ResultCheck results) {
    this.loop = new PolicyLoop(engine, results);
    this.schemas = schemas;
    this.policies = policies;
    this.facts = facts;
  }

  public boolean knowsDatabase(String dbId) {
    return schemas.containsKey(dbId);
  }

  /** The record of one question; {@code audit} may be null. */
  public QuestionRecord generate(String id, Question question, Audit audit) {
    DatabaseContext db =
        databases.computeIfAbsent(
            question.dbId(), d -> new DatabaseContext(schemas.get(d), policies.get(d)));
    boolean fromText = facts == Facts.TEXT || !question.hasAst();
    JsonNode ast = fromText ? null : question.sql();
    // an audit that keeps the facts inserted sees every session run, never a remembered outcome
    boolean keepsFacts = audit != null && audit.keepsFacts();
    Outcome outcome = keepsFacts ? null : db.recentOutcome(question.query(), ast, audit != null);
    if (outcome == null) {
      Audit trail = audit == null ? null : audit.fresh();
      outcome = decide(db, question, fromText, trail);
      db.rememberOutcome(question.query(), ast, outcome);
      if (keepsFacts) {
        audit.inserted().addAll(trail.inserted());
      }
    }
    if (audit != null) {
      audit.firings().addAll(outcome.firings());
    }
    return new QuestionRecord(
        id,
        question.dbId(),
        question.question(),
        question.extra(),
        question.query(),
        fromText ? "text" : null,
        db.columnPolicies,
        outcome.violations(),
        outcome.gold(),
        outcome.negatives(),
        outcome.problems());
  }

  /**
   * Everything of a record that follows from its database, SQL text and AST: the same three give
   * the same outcome, so a question repeating an earlier one's query reuses its outcome.
   *
   * @param firings the rules that fired, in order; null when no audit was asked for
   */
  record Outcome(
      List<ViolationRecord> violations,
      GoldLabel gold,
      List<NegativeExample> negatives,
      List<String> problems,
      List<Audit.Firing> firings) {}

  private Outcome decide(DatabaseContext db, Question question, boolean fromText, Audit audit) {
    QuerySource query =
        fromText
            ? TextQuery.of(db.texts, question.query())
            : AstQuery.of(db.walker, db.texts, question.sql(), question.query());
    PolicyLoop.Outcome outcome = loop.run(query, db.policies, audit);
    List<String> problems = new ArrayList<>(query.facts().problems());
    if (query.textProblem() != null && query.facts().problems().isEmpty()) {
      problems.add("the SQL text disagrees with its Spider AST: " + query.textProblem());
    }
    if (outcome.negativeProblem() != null) {
      problems.add(outcome.negativeProblem());
    }
    PolicyLoop.Negative negative = outcome.negative();
    return new Outcome(
        ViolationRecord.of(outcome.original().violations()),
        label(outcome),
        negative == null
            ? List.of()
            : List.of(new NegativeExample(negative.sql(), ViolationRecord.of(negative.violations()),
                negative.edit().code(), negative.edit().rule(), negative.described())),
        problems.isEmpty() ? null : List.copyOf(problems),
        audit == null ? null : List.copyOf(audit.firings()));
  }

  /** The gold label: the last round's answer with the SQL text the steps made, or its refusal. */
  private static GoldLabel label(PolicyLoop.Outcome outcome) {
    List<RewriteStepRecord> steps = new ArrayList<>();
    for (PolicyLoop.Step s : outcome.steps()) {
      RewriteStep step = s.step();
      ColumnRef ref = step.ref();
      steps.add(new RewriteStepRecord(
          steps.size() + 1,
          step.code(),
          step.rule(),
          ref.column(),
          ref.role().name(),
          s.policy() == null ? null : s.policy().name(),
          ref.position(),
          step.replacement() == null ? null : step.replacement().key(),
          step.wrap().none() ? null : step.wrap().id(),
          s.sql()));
    }
    Decision decision = outcome.last().decision();
    if (decision instanceof Answer answer) {
      return new GoldLabel("SQL", outcome.sql(), null, answer.rule(), null, null, null, steps);
    }
    Refusal refusal = (Refusal) decision;
    ColumnRef ref = refusal.ref();
    return new GoldLabel(
        "REFUSE",
        null,
        refusal.reason(),
        refusal.rule(),
        ref == null ? null : ref.column(),
        ref == null ? null : ref.role().name(),
        refusal.detail(),
        steps);
  }
}

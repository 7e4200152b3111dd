package rolepolicy.generate;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import rolepolicy.engine.Audit;
import rolepolicy.engine.DatabasePolicies;
import rolepolicy.engine.QuestionEngine;
import rolepolicy.engine.QuestionEngine.Round;
import rolepolicy.generate.Records.GoldLabel;
import rolepolicy.generate.Records.NegativeExample;
import rolepolicy.generate.Records.QuestionRecord;
import rolepolicy.generate.Records.RewriteStepRecord;
import rolepolicy.generate.Records.ViolationRecord;
import rolepolicy.model.Answer;
import rolepolicy.model.ColumnRef;
import rolepolicy.model.Decision;
import rolepolicy.model.NegativeEdit;
import rolepolicy.model.Refusal;
import rolepolicy.model.RewriteStep;
import rolepolicy.model.Role;
import rolepolicy.model.Violation;
import rolepolicy.spider.AstEdits;
import rolepolicy.spider.AstWalk;
import rolepolicy.spider.Question;
import rolepolicy.spider.Schema;
import rolepolicy.sql.SqlAnalysis;
import rolepolicy.sql.SqlAnalysisException;
import rolepolicy.sql.SqlEdits;
import rolepolicy.sql.TextRef;
import rolepolicy.sql.TextTable;

/**
 * Builds one output record: original violations, gold label (rewrite loop) and negative example.
 * The rules decide; this class applies their edits to the AST and the SQL text, and checks that the
 * edited text analyses to exactly the edited AST's references.
 */
public final class QuestionGenerator {
  /** Spider's aggregate ids, as SQL function names. */
  private static final String[] AGGREGATES = {"", "MAX", "MIN", "COUNT", "SUM", "AVG"};

  /** A guard against rule edits that never stop rewriting; the rules themselves stop at 2. */
  private static final int ROUND_LIMIT = 10;

  /** The reason of a REFUSE caused by SQL text that could not be produced and verified. */
  public static final String UNVERIFIED_SQL = "UNVERIFIED_SQL";

  /** How the problem of a question whose SQL text cannot be analysed begins. */
  public static final String UNANALYSABLE = "cannot analyse the SQL text: ";

  private final QuestionEngine engine;
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
    this.engine = engine;
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
      outcome = fromText ? decideFromText(db, question, trail) : decide(db, question, trail);
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

  private Outcome decide(DatabaseContext db, Question question, Audit audit) {
    AstWalk walk = db.walker.walk(question.sql());
    Round original = engine.decide(walk, db.policies, 0, true, audit, "original");
    List<String> problems = new ArrayList<>(walk.problems());
    TextCheck text =
        walk.problems().isEmpty()
            ? check(db, question.query(), walk)
            : new TextCheck(null, "the AST could not be resolved");
    if (text.problem() != null && walk.problems().isEmpty()) {
      problems.add("the SQL text disagrees with its Spider AST: " + text.problem());
    }
    GoldLabel gold = goldLabel(db, question, walk, text, original, audit);
    List<NegativeExample> negatives = new ArrayList<>();
    if (original.negative() != null && text.analysis() != null) {
      try {
        negatives.add(negative(db, question, text.analysis(), original.negative(), audit));
      } catch (SqlTextException | IllegalArgumentException | SqlAnalysisException e) {
        problems.add(original.negative().code() + " negative dropped: " + e.getMessage());
      }
    }
    return new Outcome(
        ViolationRecord.of(original.violations()),
        gold,
        List.copyOf(negatives),
        problems.isEmpty() ? null : List.copyOf(problems),
        audit == null ? null : List.copyOf(audit.firings()));
  }

  /**
   * The outcome of a question known by its SQL text alone: the facts come from the text analyser,
   * the same rules decide, and every edit is checked by analysing the edited text again.
   */
  private Outcome decideFromText(DatabaseContext db, Question question, Audit audit) {
    SqlAnalysis analysis = null;
    AstWalk walk;
    try {
      analysis = db.analyse(question.query());
      walk = analysis.facts();
    } catch (SqlAnalysisException e) {
      walk = SqlAnalysis.unanalysable(UNANALYSABLE + e.getMessage());
    }
    Round original = engine.decide(walk, db.policies, 0, true, audit, "original");
    List<String> problems = new ArrayList<>(walk.problems());
    GoldLabel gold =
        analysis == null
            ? label(original.decision(), question.query(), List.of())
            : textGoldLabel(db, question.query(), analysis, original, audit);
    List<NegativeExample> negatives = new ArrayList<>();
    if (original.negative() != null && analysis != null) {
      try {
        negatives.add(textNegative(db, analysis, original.negative(), audit));
      } catch (SqlTextException e) {
        problems.add(original.negative().code() + " negative dropped: " + e.getMessage());
      }
    }
    return new Outcome(
        ViolationRecord.of(original.violations()),
        gold,
        List.copyOf(negatives),
        problems.isEmpty() ? null : List.copyOf(problems),
        audit == null ? null : List.copyOf(audit.firings()));
  }

  /** The rewrite loop on text: each step's edited text must analyse to the edited references. */
  private GoldLabel textGoldLabel(
      DatabaseContext db, String sql, SqlAnalysis analysis, Round round, Audit audit) {
    List<RewriteStepRecord> steps = new ArrayList<>();
    while (round.decision() instanceof RewriteStep step) {
      if (steps.size() == ROUND_LIMIT) {
        throw new IllegalStateException("the rewrite rules did not stop after " + ROUND_LIMIT + " steps");
      }
      ColumnRef ref = step.ref();
      try {
        TextRef target = analysis.refs().get(ref.position());
        List<ColumnRef> expected = new ArrayList<>(analysis.columnRefs());
        String nextSql;
        if (step.replacement() != null) {
          nextSql = SqlEdits.replaceColumn(sql, target, step.replacement().name());
          expected.set(ref.position(), withColumn(ref, step.replacement().key()));
        } else {
          nextSql = SqlEdits.wrapItem(sql, target, AGGREGATES[step.wrapAggId()]);
          for (int i = 0; i < expected.size(); i++) {
            if (target.itemSpan().equals(analysis.refs().get(i).itemSpan())) {
              expected.set(i, withAggregate(expected.get(i), step.wrapAggId()));
            }
          }
        }
        analysis = db.analyseExpecting(nextSql, expected, "the edit should give");
        sql = nextSql;
      } catch (SqlTextException | IllegalArgumentException | SqlAnalysisException e) {
        return unverified(step.rule(), ref, e.getMessage(), steps);
      }
      steps.add(stepRecord(steps.size() + 1, step, policyOf(round, ref), sql));
      round = engine.decide(analysis.facts(), db.policies, steps.size(), false, audit, "step " + steps.size());
    }
    return label(round.decision(), sql, steps);
  }

  /** The negative edit on text, checked by analysing the edited text again. */
  private NegativeExample textNegative(
      DatabaseContext db, SqlAnalysis analysis, NegativeEdit edit, Audit audit)
      throws SqlTextException {
    String sql = analysis.sql();
    List<ColumnRef> before = analysis.columnRefs();
    String edited;
    String described;
    ColumnRef introduced;
    try {
      if (edit.appendColumn() != null) {
        TextTable table = analysis.fromTables().get(edit.fromTable().position());
        edited = SqlEdits.appendSelectItem(sql, analysis, table, edit.appendColumn().name());
        described = "append " + edit.appendColumn().key() + " to the SELECT list";
        introduced =
            new ColumnRef(-1, edit.appendColumn().key(), Role.SelectExpr, 0,
                analysis.selectItems().size(), null, null);
      } else {
        int item = edit.dropAggregateOf().index();
        int position = firstOfItem(analysis, item);
        TextRef target = analysis.refs().get(position);
        edited = SqlEdits.unwrapAggregate(sql, target);
        described = "drop the aggregate of SELECT item " + item + " (" + target.column() + ")";
        introduced = null;
        before.set(position, withoutAggregate(before.get(position)));
      }
    } catch (IllegalArgumentException | SqlAnalysisException e) {
      throw new SqlTextException(e.getMessage());
    }
    SqlAnalysis after;
    if (introduced == null) {
      after = db.analyseExpecting(edited, before, "the edit should give");
    } else {
      after = db.analyseExpectingOneMore(edited, before, introduced);
    }
    AstWalk facts = after.facts();
    List<Violation> violations =
        engine.violations(facts.refs(), facts.tables(), db.policies, audit, "negative");
    String column =
        edit.appendColumn() != null ? edit.appendColumn().key() : edit.dropAggregateOf().column();
    boolean found =
        violations.stream()
            .anyMatch(
                v ->
                    v.ref().column().equals(column)
                        && v.ref().role() == Role.SelectExpr
                        && v.ref().aggId() == 0);
    if (!found) {
      throw new SqlTextException(edit.code() + "'s edit introduced no violation: " + described);
    }
    return new NegativeExample(
        edited, ViolationRecord.of(violations), edit.code(), edit.rule(), described);
  }

  private static int firstOfItem(SqlAnalysis analysis, int item) {
    for (int i = 0; i < analysis.refs().size(); i++) {
      if (analysis.refs().get(i).selectItem() == item) {
        return i;
      }
    }
    throw new IllegalArgumentException("SELECT item " + item + " has no column reference");
  }

  private static ColumnRef withColumn(ColumnRef ref, String column) {
    return new ColumnRef(ref.position(), column, ref.role(), ref.aggId(), ref.selectItem(), null, null);
  }

  private static ColumnRef withAggregate(ColumnRef ref, int aggId) {
    return new ColumnRef(ref.position(), ref.column(), Role.AggArg, aggId, ref.selectItem(), null, null);
  }

  private static ColumnRef withoutAggregate(ColumnRef ref) {
    return new ColumnRef(ref.position(), ref.column(), Role.SelectExpr, 0, ref.selectItem(), null, null);
  }

  /** The analysis of a text that agrees with its AST, or why it does not. */
  private record TextCheck(SqlAnalysis analysis, String problem) {
    SqlAnalysis verified() throws SqlTextException {
      if (analysis == null) {
        throw new SqlTextException(problem);
      }
      return analysis;
    }
  }

  private static TextCheck check(DatabaseContext db, String sql, AstWalk walk) {
    try {
      return new TextCheck(db.analyseExpecting(sql, walk.refs()), null);
    } catch (SqlTextException e) {
      return new TextCheck(null, e.getMessage());
    }
  }

  /**
   * The rewrite loop: the rules decide each round; each step is applied to the AST and the text,
   * and the new text must analyse to the new AST's references.
   */
  private GoldLabel goldLabel(
      DatabaseContext db, Question question, AstWalk walk, TextCheck text, Round round, Audit audit) {
    JsonNode ast = question.sql();
    String sql = question.query();
    List<RewriteStepRecord> steps = new ArrayList<>();
    while (round.decision() instanceof RewriteStep step) {
      if (steps.size() == ROUND_LIMIT) {
        throw new IllegalStateException("the rewrite rules did not stop after " + ROUND_LIMIT + " steps");
      }
      ColumnRef ref = step.ref();
      try {
        TextRef target = text.verified().refs().get(ref.position());
        String nextSql;
        if (step.replacement() != null) {
          ast = AstEdits.replaceColumn(ast, ref.path(), step.replacement().index());
          nextSql = SqlEdits.replaceColumn(sql, target, step.replacement().name());
        } else {
          ast = AstEdits.wrapItem(ast, ref.itemPath(), step.wrapAggId());
          nextSql = SqlEdits.wrapItem(sql, target, AGGREGATES[step.wrapAggId()]);
        }
        walk = db.walker.walk(ast);
        text = new TextCheck(db.analyseExpecting(nextSql, walk.refs()), null);
        sql = nextSql;
      } catch (SqlTextException | IllegalArgumentException | SqlAnalysisException e) {
        return unverified(step.rule(), ref, e.getMessage(), steps);
      }
      steps.add(stepRecord(steps.size() + 1, step, policyOf(round, ref), sql));
      round = engine.decide(walk, db.policies, steps.size(), false, audit, "step " + steps.size());
    }
    if (round.decision() instanceof Answer answer
        && text.analysis() == null
        && !(steps.isEmpty() && textIsCompliant(db, sql))) {
      return unverified(answer.rule(), null, text.problem(), steps);
    }
    return label(round.decision(), sql, steps);
  }

  /**
   * Whether SQL text, analysed on its own, has no violation: the gold invariant, for an original
   * query whose Spider AST disagrees with its text.
   */
  private boolean textIsCompliant(DatabaseContext db, String sql) {
    List<ColumnRef> refs;
    try {
      refs = db.analyse(sql).columnRefs();
    } catch (SqlAnalysisException e) {
      return false;
    }
    return engine.violations(refs, List.of(), db.policies, null, "text").isEmpty();
  }

  private static GoldLabel unverified(
      String rule, ColumnRef ref, String detail, List<RewriteStepRecord> steps) {
    return new GoldLabel(
        "REFUSE", null, UNVERIFIED_SQL, rule, ref == null ? null : ref.column(),
        ref == null ? null : ref.role().name(), detail, steps);
  }

  private static GoldLabel label(Decision decision, String sql, List<RewriteStepRecord> steps) {
    if (decision instanceof Answer answer) {
      return new GoldLabel("SQL", sql, null, answer.rule(), null, null, null, steps);
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
        null,
        steps);
  }

  private static RewriteStepRecord stepRecord(
      int number, RewriteStep step, String policy, String sql) {
    ColumnRef ref = step.ref();
    return new RewriteStepRecord(
        number,
        step.code(),
        step.rule(),
        ref.column(),
        ref.role().name(),
        policy,
        ref.position(),
        step.replacement() == null ? null : step.replacement().key(),
        step.wrapAggId() == 0 ? null : step.wrapAggId(),
        sql);
  }

  private static String policyOf(Round round, ColumnRef ref) {
    return round.violations().stream()
        .filter(v -> v.ref().equals(ref))
        .map(v -> v.policy().name())
        .findFirst()
        .orElse(null);
  }

  private NegativeExample negative(
      DatabaseContext db, Question question, SqlAnalysis analysis, NegativeEdit edit, Audit audit)
      throws SqlTextException {
    JsonNode ast;
    String sql;
    String described;
    if (edit.appendColumn() != null) {
      TextTable table = analysis.fromTables().get(edit.fromTable().position());
      if (!table.table().equalsIgnoreCase(edit.fromTable().table())) {
        throw new SqlTextException(
            "FROM table " + edit.fromTable().position() + " is " + table.table() + " in the text");
      }
      ast = AstEdits.appendColumn(question.sql(), edit.appendColumn().index());
      sql = SqlEdits.appendSelectItem(question.query(), analysis, table, edit.appendColumn().name());
      described = "append " + edit.appendColumn().key() + " to the SELECT list";
    } else {
      int item = edit.dropAggregateOf().index();
      TextRef target =
          analysis.refs().stream().filter(r -> r.selectItem() == item).findFirst().orElseThrow();
      ast = AstEdits.dropAggregate(question.sql(), edit.dropAggregateOf().path());
      sql = SqlEdits.unwrapAggregate(question.query(), target);
      described = "drop the aggregate of SELECT item " + item + " (" + target.column() + ")";
    }
    AstWalk edited = db.walker.walk(ast);
    db.analyseExpecting(sql, edited.refs());
    List<Violation> violations =
        engine.violations(edited.refs(), edited.tables(), db.policies, audit, "negative");
    String introduced =
        edit.appendColumn() != null ? edit.appendColumn().key() : edit.dropAggregateOf().column();
    boolean found =
        violations.stream()
            .anyMatch(
                v ->
                    v.ref().column().equals(introduced)
                        && v.ref().role() == Role.SelectExpr
                        && v.ref().aggId() == 0);
    if (!found) {
      throw new SqlTextException(edit.code() + "'s edit introduced no violation: " + described);
    }
    return new NegativeExample(
        sql, ViolationRecord.of(violations), edit.code(), edit.rule(), described);
  }
}

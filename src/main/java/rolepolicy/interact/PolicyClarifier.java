package rolepolicy.interact;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import rolepolicy.db.Execution;
import rolepolicy.db.SqliteRunner;
import rolepolicy.engine.Audit;
import rolepolicy.engine.EditFailed;
import rolepolicy.engine.QuestionEngine;
import rolepolicy.engine.TextAnalyser;
import rolepolicy.engine.TextQuery;
import rolepolicy.evaluate.GoldRecord;
import rolepolicy.evaluate.QuestionScorer;
import rolepolicy.model.CheckedEdit;
import rolepolicy.model.ClarificationOption;
import rolepolicy.model.ClarificationQuestion;
import rolepolicy.model.ClarificationRequest;
import rolepolicy.model.ColumnRef;
import rolepolicy.model.ProposedEdit;
import rolepolicy.model.QueryFacts;
import rolepolicy.model.QueryViolation;
import rolepolicy.model.Violation;
import rolepolicy.spider.Schema;
import rolepolicy.sql.SqlAnalysis;
import rolepolicy.sql.SqlAnalysisException;
import rolepolicy.sql.SqlEdits;

/**
 * Policy clarifications from the rules: the question and its options come from {@code
 * rules/clarify.drl} over the facts of the SQL text. The rules propose edits; each is made and
 * checked here (the edited text analysed again; for an edit that must keep the result, both texts
 * executed on the database) and the rules fire again with the checks, to offer the edits that pass.
 */
public final class PolicyClarifier {
  private final QuestionEngine engine;
  private final Map<String, Schema> schemas;
  private final SqliteRunner runner;
  private final Map<String, TextAnalyser> analysers = new ConcurrentHashMap<>();

  /** Without a database, an edit that must keep the result fails its check and is not offered. */
  public PolicyClarifier(QuestionEngine engine, Map<String, Schema> schemas) {
    this(engine, schemas, null);
  }

  /** {@code runner} executes the SQL of an edit that must keep the result (queries are run one at a time on it). */
  public PolicyClarifier(QuestionEngine engine, Map<String, Schema> schemas, SqliteRunner runner) {
    this.engine = engine;
    this.schemas = schemas;
    this.runner = runner;
  }

  /**
   * What the rules make of one SQL text.
   *
   * @param analysis the text's analysis, or null when it cannot be analysed
   * @param problem why it cannot be analysed, or null
   * @param violations the policy violations, in walk order
   * @param queryViolations the violations of the query as a whole ({@code SELECT *})
   * @param question the clarification question, or null when the text is compliant
   * @param options the options offered, in the order their rules fired
   * @param edits the edits the rules proposed, checked, offered or not
   * @param firings the rules that fired
   */
  public record Check(
      SqlAnalysis analysis,
      String problem,
      List<Violation> violations,
      List<QueryViolation> queryViolations,
      ClarificationQuestion question,
      List<ClarificationOption> options,
      List<CheckedEdit> edits,
      List<Audit.Firing> firings) {
    public boolean compliant() {
      return analysis != null && violations.isEmpty() && queryViolations.isEmpty();
    }
  }

  /**
   * Checks SQL text against the record's policies; {@code stepsTaken} is how many rewrites the loop
   * has applied, as the rewrite rules count them.
   */
  public Check check(GoldRecord gold, String sql, int stepsTaken) {
    TextQuery query;
    try {
      query = TextQuery.of(analyser(gold.dbId()), sql);
    } catch (StackOverflowError e) {
      return unanalysable("SQL text nested too deeply to analyse");
    }
    SqlAnalysis analysis = query.analysis();
    if (analysis == null) {
      return unanalysable(query.analysisProblem());
    }
    Audit audit = new Audit();
    List<Object> facts = fire(gold, query, stepsTaken, List.of(), audit);
    List<ProposedEdit> proposals = new ArrayList<>();
    for (Object fact : facts) {
      if (fact instanceof ProposedEdit p) {
        proposals.add(p);
      }
    }
    if (proposals.isEmpty()) {
      return toCheck(analysis, facts, audit, List.of());
    }
    proposals.sort(java.util.Comparator.comparing(ProposedEdit::rule));
    List<CheckedEdit> checked = new ArrayList<>();
    for (ProposedEdit p : proposals) {
      checked.add(checkEdit(gold, query, p));
    }
    Audit checkedAudit = new Audit();
    return toCheck(analysis, fire(gold, query, stepsTaken, checked, checkedAudit), checkedAudit, checked);
  }

  private static Check unanalysable(String problem) {
    return new Check(null, problem, List.of(), List.of(), null, List.of(), List.of(), List.of());
  }

  private List<Object> fire(GoldRecord gold, TextQuery query, int stepsTaken, List<CheckedEdit> checked, Audit audit) {
    List<Object> extra = new ArrayList<>(List.of(new ClarificationRequest()));
    extra.addAll(checked);
    return engine.fireRound(
        query.facts(),
        QuestionScorer.policed(gold, schemas.get(gold.dbId()), query.facts().refs()),
        stepsTaken,
        extra,
        audit,
        "clarify");
  }

  private static Check toCheck(SqlAnalysis analysis, List<Object> facts, Audit audit, List<CheckedEdit> checked) {
    List<Violation> violations = new ArrayList<>();
    List<QueryViolation> whole = new ArrayList<>();
    ClarificationQuestion question = null;
    List<ClarificationOption> options = new ArrayList<>();
    for (Object fact : facts) {
      if (fact instanceof Violation v) {
        violations.add(v);
      } else if (fact instanceof QueryViolation w) {
        whole.add(w);
      } else if (fact instanceof ClarificationQuestion q) {
        question = q;
      } else if (fact instanceof ClarificationOption o) {
        options.add(o);
      }
    }
    violations.sort(java.util.Comparator.comparingInt(v -> v.ref().position()));
    List<String> order = audit.firings().stream().map(Audit.Firing::rule).toList();
    options.sort(java.util.Comparator.comparingInt((ClarificationOption o) -> order.indexOf(o.rule()))
        .thenComparing(ClarificationOption::code));
    whole.sort(java.util.Comparator.comparing(QueryViolation::reason));
    return new Check(analysis, null, List.copyOf(violations), List.copyOf(whole), question, List.copyOf(options), List.copyOf(checked),
        List.copyOf(audit.firings()));
  }

  /**
   * Makes a proposed edit and checks it: the edited text must break no policy and, when the edit
   * must keep the result, give the same rows as the original on the database.
   */
  CheckedEdit checkEdit(GoldRecord gold, TextQuery query, ProposedEdit p) {
    String sql = query.sql();
    String edited;
    try {
      edited = p.step() != null
          ? query.rewrite(p.step()).sql()
          : SqlEdits.countStar(sql, query.analysis().refs().get(p.ref().position()), p.notNullFilter());
    } catch (IllegalArgumentException | EditFailed e) {
      return new CheckedEdit(p, null, false, false, e.getMessage());
    }
    Check after = violationsOf(gold, edited);
    if (!after.compliant()) {
      return new CheckedEdit(p, edited, false, false, after.analysis() == null
          ? "the edited text cannot be analysed: " + after.problem() : "the edited text violates " + after.violations().stream()
          .map(v -> v.ref().column() + " " + v.ref().role() + " " + v.policy()).toList());
    }
    if (!p.keepsResult()) {
      return new CheckedEdit(p, edited, true, true, null);
    }
    if (runner == null) {
      return new CheckedEdit(p, edited, true, false, "no database to compare the results on");
    }
    Execution before;
    Execution now;
    synchronized (runner) {
      before = runner.run(gold.dbId(), sql);
      now = runner.run(gold.dbId(), edited);
    }
    if (before.status() != Execution.Status.OK || now.status() != Execution.Status.OK) {
      return new CheckedEdit(p, edited, true, false, "not both run: " + before.status() + ", " + now.status()
          + (now.message() == null ? "" : " (" + now.message() + ")"));
    }
    boolean same = ResultComparison.STRICT.matches(before, now, sql);
    return new CheckedEdit(p, edited, true, same, same ? null : "the edited text gives other rows on the database");
  }

  /** The violations of a text, by the permission rules alone (no clarification asked). */
  private Check violationsOf(GoldRecord gold, String sql) {
    SqlAnalysis analysis;
    try {
      analysis = analyser(gold.dbId()).analyse(sql);
    } catch (SqlAnalysisException | StackOverflowError e) {
      return unanalysable(String.valueOf(e.getMessage()));
    }
    QueryFacts facts = analysis.facts();
    QuestionEngine.Judgement judgement =
        engine.judge(facts, QuestionScorer.policed(gold, schemas.get(gold.dbId()), facts.refs()), null, "clarify-check");
    return new Check(analysis, null, judgement.violations(), judgement.queryViolations(), null, List.of(), List.of(), List.of());
  }

  /**
   * The columns a record's gold SQL uses, in words: {@code singer.name (selected), singer.age
   * (averaged)}, each column and use once, in text order; "no column" for none.
   */
  public String columnsInWords(GoldRecord gold) {
    if (gold.goldSql() == null || gold.refuse()) {
      return "no column";
    }
    java.util.Set<String> words = new java.util.LinkedHashSet<>();
    try {
      for (ColumnRef r : analyser(gold.dbId()).analyse(gold.goldSql()).columnRefs()) {
        if (r.role().unjudgedInSpec()) {
          continue; // GROUP BY, HAVING, ORDER BY: the user speaks of SPEC §4's uses
        }
        words.add(r.column() + " (" + r.role().purpose(r.aggregate()) + ")");
      }
    } catch (SqlAnalysisException | StackOverflowError e) {
      return "the columns of its gold SQL";
    }
    return words.isEmpty() ? "no column" : String.join(", ", words);
  }

  private TextAnalyser analyser(String dbId) {
    return analysers.computeIfAbsent(dbId, d -> new TextAnalyser(schemas.get(d)));
  }
}

package rolepolicy.interact;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import rolepolicy.engine.Audit;
import rolepolicy.engine.QuestionEngine;
import rolepolicy.evaluate.GoldRecord;
import rolepolicy.evaluate.QuestionScorer;
import rolepolicy.model.ClarificationOption;
import rolepolicy.model.ClarificationQuestion;
import rolepolicy.model.ClarificationRequest;
import rolepolicy.model.ColumnRef;
import rolepolicy.model.QueryShape;
import rolepolicy.model.RewriteStep;
import rolepolicy.model.Role;
import rolepolicy.model.Violation;
import rolepolicy.spider.Schema;
import rolepolicy.sql.SqlAnalysis;
import rolepolicy.sql.SqlAnalysisException;
import rolepolicy.sql.SqlAnalyzer;
import rolepolicy.sql.SqlEdits;
import rolepolicy.sql.TextRef;

/**
 * Policy clarifications from the rules: the question and its options come from {@code
 * rules/clarify.drl} over the facts of the SQL text; a chosen rewrite is applied as a text edit and
 * checked by analysing the edited text again.
 */
public final class PolicyClarifier {
  /** Spider's aggregate ids, as SQL function names. */
  private static final String[] AGGREGATES = {"", "MAX", "MIN", "COUNT", "SUM", "AVG"};

  private final QuestionEngine engine;
  private final Map<String, Schema> schemas;
  private final Map<String, SqlAnalyzer> analyzers = new ConcurrentHashMap<>();

  public PolicyClarifier(QuestionEngine engine, Map<String, Schema> schemas) {
    this.engine = engine;
    this.schemas = schemas;
  }

  /**
   * What the rules make of one SQL text.
   *
   * @param analysis the text's analysis, or null when it cannot be analysed
   * @param problem why it cannot be analysed, or null
   * @param violations the policy violations, in walk order
   * @param question the clarification question, or null when the text is compliant
   * @param options the options offered, in the order their rules fired
   * @param firings the rules that fired
   */
  public record Check(
      SqlAnalysis analysis,
      String problem,
      List<Violation> violations,
      ClarificationQuestion question,
      List<ClarificationOption> options,
      List<Audit.Firing> firings) {
    public boolean compliant() {
      return analysis != null && violations.isEmpty() && !analysis.selectStar();
    }
  }

  /**
   * Checks SQL text against the record's policies; {@code stepsTaken} is how many rewrites the loop
   * has applied, as the rewrite rules count them.
   */
  public Check check(GoldRecord gold, String sql, int stepsTaken) {
    SqlAnalysis analysis;
    try {
      analysis = analyzer(gold.dbId()).analyse(sql);
    } catch (SqlAnalysisException e) {
      return new Check(null, e.getMessage(), List.of(), null, List.of(), List.of());
    } catch (StackOverflowError e) {
      return new Check(null, "SQL text nested too deeply to analyse", List.of(), null, List.of(), List.of());
    }
    List<ColumnRef> refs = analysis.columnRefs();
    Audit audit = new Audit();
    List<Object> facts = engine.fireText(
        refs,
        new QueryShape(analysis.selectStar(), false, analysis.setOperation()),
        QuestionScorer.policed(gold, schemas.get(gold.dbId()), refs),
        stepsTaken,
        List.of(new ClarificationRequest()),
        audit,
        "clarify");
    List<Violation> violations = new ArrayList<>();
    ClarificationQuestion question = null;
    List<ClarificationOption> options = new ArrayList<>();
    for (Object fact : facts) {
      if (fact instanceof Violation v) {
        violations.add(v);
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
    return new Check(analysis, null, List.copyOf(violations), question, List.copyOf(options),
        List.copyOf(audit.firings()));
  }

  /**
   * The text after a rewrite step, checked: the edited text must analyse to the same references
   * but for the rewritten one (R1: the new column; R2: the SELECT item's bare columns now averaged).
   *
   * @throws IllegalArgumentException when the edit cannot be made or its result does not check
   */
  public String apply(String dbId, String sql, SqlAnalysis analysis, RewriteStep step) {
    ColumnRef ref = step.ref();
    TextRef target = analysis.refs().get(ref.position());
    String edited = step.replacement() != null
        ? SqlEdits.replaceColumn(sql, target, step.replacement().name())
        : SqlEdits.wrapItem(sql, target, AGGREGATES[step.wrapAggId()]);
    List<ColumnRef> expected = new ArrayList<>();
    for (ColumnRef r : analysis.columnRefs()) {
      if (step.replacement() != null && r.position() == ref.position()) {
        expected.add(new ColumnRef(r.position(), step.replacement().key(), r.role(), r.aggId(), r.selectItem(), null, null));
      } else if (step.replacement() == null && r.selectItem() == ref.selectItem() && r.aggId() == 0
          && r.role() == Role.SelectExpr) {
        expected.add(new ColumnRef(r.position(), r.column(), Role.AggArg, step.wrapAggId(), r.selectItem(), null, null));
      } else {
        expected.add(r);
      }
    }
    List<ColumnRef> found;
    try {
      found = analyzer(dbId).analyse(edited).columnRefs();
    } catch (SqlAnalysisException e) {
      throw new IllegalArgumentException(step.code() + " gives SQL that cannot be analysed (" + e.getMessage() + "): " + edited);
    }
    if (!found.equals(expected)) {
      throw new IllegalArgumentException(step.code() + " gives references " + found + ", expected " + expected + ": " + edited);
    }
    return edited;
  }

  private SqlAnalyzer analyzer(String dbId) {
    return analyzers.computeIfAbsent(dbId, d -> new SqlAnalyzer(schemas.get(d)));
  }
}

package rolepolicy.engine;

import java.util.ArrayList;
import java.util.List;
import rolepolicy.engine.QuestionEngine.Round;
import rolepolicy.model.NegativeEdit;
import rolepolicy.model.Policy;
import rolepolicy.model.Refusal;
import rolepolicy.model.ResultDiffers;
import rolepolicy.model.RewriteStep;
import rolepolicy.model.Role;
import rolepolicy.model.UnverifiedEdit;
import rolepolicy.model.UnverifiedText;
import rolepolicy.model.Violation;

/**
 * The one loop from a query to the rules' conclusions: the original query's violations and
 * negative edit, then rewrite rounds until the rules answer or refuse. The rules decide every
 * step; this loop makes the edits they ask for on the query and tells them when one could not be
 * made ({@link UnverifiedEdit}) or the text disagrees with the facts ({@link UnverifiedText}).
 */
public final class PolicyLoop {
  /** A guard against rule edits that never stop rewriting; the rules themselves stop at 2. */
  private static final int ROUND_LIMIT = 10;

  private final QuestionEngine engine;
  private final ResultCheck results;

  public PolicyLoop(QuestionEngine engine) {
    this(engine, ResultCheck.NONE);
  }

  /** {@code results} runs a rewrite that must keep the answer ({@link RewriteStep#keepsResult()}). */
  public PolicyLoop(QuestionEngine engine, ResultCheck results) {
    this.engine = engine;
    this.results = results;
  }

  /**
   * What the rules concluded about one query.
   *
   * @param original the original query's round: its violations, first decision, negative edit
   * @param steps the rewrite steps taken, in order
   * @param last the last round, whose decision is an Answer or a Refusal
   * @param sql the SQL text after the steps
   * @param negative the negative example, or null
   * @param negativeProblem why the negative edit the rules chose was dropped, or null
   */
  public record Outcome(
      Round original,
      List<Step> steps,
      Round last,
      String sql,
      Negative negative,
      String negativeProblem) {}

  /**
   * One rewrite step taken.
   *
   * @param step the rules' conclusion
   * @param policy the policy of the violation it mends, or null
   * @param sql the SQL text after it
   */
  public record Step(RewriteStep step, Policy policy, String sql) {}

  /**
   * The negative example.
   *
   * @param edit the negative rules' conclusion
   * @param sql the edited SQL text
   * @param violations its violations, in walk order
   * @param described the edit in words
   */
  public record Negative(NegativeEdit edit, String sql, List<Violation> violations, String described) {}

  /** Runs the rules over a query and the queries their rewrites make; {@code audit} may be null. */
  public Outcome run(QuerySource query, DatabasePolicies policies, Audit audit) {
    List<Object> textFacts = textFacts(query, policies);
    Round original = engine.decide(query.facts(), policies, 0, true, textFacts, audit, "original");
    QuerySource originalQuery = query;
    List<Step> steps = new ArrayList<>();
    // the rewrites that kept no answer, told to the rules for the rest of the run
    List<Object> withdrawn = new ArrayList<>();
    Round round = original;
    while (round.decision() instanceof RewriteStep step) {
      if (steps.size() + withdrawn.size() >= ROUND_LIMIT) {
        throw new IllegalStateException("the rewrite rules did not stop after " + ROUND_LIMIT
            + " steps (" + withdrawn.size() + " of them withdrawn)");
      }
      QuerySource next;
      try {
        next = query.rewrite(step);
        String differs = step.keepsResult() ? results.differs(policies.dbId(), query.sql(), next.sql()) : null;
        if (differs != null) {
          throw new EditFailed(differs);
        }
      } catch (EditFailed e) {
        if (step.keepsResult()) {
          // the rewrite is not used for this question: the rules decide again without it
          withdrawn.add(new ResultDiffers(step, e.getMessage()));
          textFacts = with(textFacts(query, policies), withdrawn);
          round = engine.decide(query.facts(), policies, steps.size(), false, textFacts, audit,
              "step " + (steps.size() + 1) + " keeps no answer");
          if (round.decision().equals(step)) {
            throw new IllegalStateException("the rules chose again the rewrite step whose result differs ("
                + step.rule() + ": " + e.getMessage() + "): a rule offering it must read ResultDiffers");
          }
          continue;
        }
        List<Object> failed = new ArrayList<>(textFacts);
        failed.add(new UnverifiedEdit(step, e.getMessage()));
        round = engine.decide(query.facts(), policies, steps.size(), false, failed, audit,
            "step " + (steps.size() + 1) + " not made");
        if (!(round.decision() instanceof Refusal)) {
          throw new IllegalStateException("the rules did not refuse a rewrite step whose edit could not be made ("
              + step.rule() + ": " + e.getMessage() + "); they concluded " + round.decision()
              + ": a rule on UnverifiedEdit must refuse (rewrites.drl's \"Refuse a rewrite whose SQL text cannot be verified\")");
        }
        break;
      }
      query = next;
      steps.add(new Step(step, policyOf(round, step), query.sql()));
      textFacts = with(textFacts(query, policies), withdrawn);
      round = engine.decide(query.facts(), policies, steps.size(), false, textFacts, audit, "step " + steps.size());
    }
    Negative negative = null;
    String negativeProblem = null;
    if (original.negative() != null) {
      try {
        negative = negative(originalQuery, original.negative(), policies, audit);
      } catch (EditFailed e) {
        negativeProblem = original.negative().code() + " negative dropped: " + e.getMessage();
      }
    }
    return new Outcome(original, List.copyOf(steps), round, query.sql(), negative, negativeProblem);
  }

  private static List<Object> with(List<Object> facts, List<Object> more) {
    if (more.isEmpty()) {
      return facts;
    }
    List<Object> all = new ArrayList<>(facts);
    all.addAll(more);
    return all;
  }

  /** The facts about the query's text the rules read beside the query's own. */
  private List<Object> textFacts(QuerySource query, DatabasePolicies policies) {
    String problem = query.textProblem();
    if (problem == null) {
      return List.of();
    }
    var refs = query.textRefs();
    int violations =
        refs == null ? -1 : engine.violations(refs, List.of(), policies, null, "text").size();
    return List.of(new UnverifiedText(problem, violations));
  }

  /** The negative edit made and checked: its violations must include the one the rules named. */
  private Negative negative(QuerySource query, NegativeEdit edit, DatabasePolicies policies, Audit audit)
      throws EditFailed {
    QuerySource.Edited edited = query.negative(edit);
    if (edited == null) {
      return null;
    }
    var facts = edited.query().facts();
    List<Violation> violations =
        engine.violations(facts.refs(), facts.tables(), policies, audit, "negative");
    boolean found =
        violations.stream()
            .anyMatch(
                v ->
                    v.ref().column().equals(edit.column())
                        && v.ref().role() == Role.SelectExpr
                        && v.ref().aggregate().none()
                        && v.policy() == edit.introduces());
    if (!found) {
      throw new EditFailed(edit.code() + "'s edit introduced no violation: " + edited.described());
    }
    return new Negative(edit, edited.query().sql(), violations, edited.described());
  }

  private static Policy policyOf(Round round, RewriteStep step) {
    return round.violations().stream()
        .filter(v -> v.ref().equals(step.ref()))
        .map(Violation::policy)
        .findFirst()
        .orElse(null);
  }
}

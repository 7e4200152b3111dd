package rolepolicy.engine;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.drools.core.common.InternalFactHandle;
import org.kie.api.KieBase;
import org.kie.api.event.rule.AgendaEventListener;
import org.kie.api.runtime.KieSession;
import org.kie.api.runtime.KieSessionsPool;
import org.kie.api.runtime.rule.ConsequenceException;

/**
 * Runs the rules once over a set of facts in a clean session and returns every fact after, in the
 * order each entered the session; a rule whose action throws is a {@link RuleFileException} naming
 * the rule and its file.
 * Sessions come from a pool: disposing one resets it (no fact, no listener, nothing left from the
 * round before) and keeps the node memories it built, which a new session would build again.
 */
final class Sessions {
  private final KieBase base;
  private final KieSessionsPool pool;

  Sessions(KieBase base) {
    this.base = base;
    this.pool = base.newKieSessionsPool(Runtime.getRuntime().availableProcessors());
  }

  List<Object> fire(Collection<?> facts, Audit audit, String stage) {
    KieSession session = pool.newKieSession();
    AgendaEventListener listener = audit == null ? null : audit.listener(stage);
    try {
      if (listener != null) {
        audit.recordFacts(stage, facts);
        session.addEventListener(listener);
      }
      for (Object fact : facts) {
        session.insert(fact);
      }
      RuleLimits limits = RuleLimits.current();
      int fired;
      try (RuleWatch watch = RuleWatch.start(base, session, limits)) {
        fired = session.fireAllRules(limits.firings() + 1);
        limits.observe(fired);
        if (watch.timedOut()) {
          throw new RuleFileException(about() + "the rules ran past the time limit of " + number(limits.seconds())
              + " s (--rule-timeout), and were stopped; the rules that fired most in the last moment: " + watch.mostFired());
        }
      }
      if (fired > limits.firings()) {
        throw new RuleFileException(about() + "the rules fired more than " + limits.firings()
            + " times (--rule-firings), and were stopped: does a rule's action insert or change a fact that makes it"
            + " match again? The rules that fired most: " + mostFired(facts, limits.firings()));
      }
      // in the order the facts entered the session (inserted, then by the rules as they fired), not the
      // store's hash order: the same input gives the same list
      List<InternalFactHandle> handles = new ArrayList<>();
      session.getFactHandles().forEach(h -> handles.add((InternalFactHandle) h));
      handles.sort(java.util.Comparator.comparingLong(InternalFactHandle::getId));
      List<Object> after = new ArrayList<>(handles.size());
      handles.forEach(h -> after.add(h.getObject()));
      return after;
    } catch (ConsequenceException e) {
      throw new RuleFileException(RuleBase.describe(base, e.getRule()) + ": its action (then) failed: "
          + (e.getCause() == null ? e.getMessage() : e.getCause().toString()));
    } catch (org.drools.mvel.ConstraintEvaluationException e) {
      // the message names the constraint, the rule and its file
      throw new RuleFileException(about() + "a condition (when) failed: " + e.getMessage()
          + (e.getCause() == null ? "" : " (" + e.getCause() + ")"));
    } finally {
      if (listener != null) {
        session.removeEventListener(listener);
      }
      session.dispose();
    }
  }

  /** {@link RuleBase#lacking} of this rule base. */
  RuleFileException lacking(String file, String what) {
    return RuleBase.lacking(base, file, what);
  }

  private static String about() {
    String subject = RuleLimits.subject();
    return subject == null ? "" : subject + ": ";
  }

  static String number(double seconds) {
    return seconds == Math.rint(seconds) ? String.valueOf((long) seconds) : String.valueOf(seconds);
  }

  /** The same facts fired again up to the limit, counting each rule's firings: the three most. */
  private String mostFired(Collection<?> facts, int limit) {
    KieSession session = pool.newKieSession();
    RuleWatch.Counter counter = new RuleWatch.Counter();
    try {
      session.addEventListener(counter);
      facts.forEach(session::insert);
      session.fireAllRules(limit);
      return counter.most(base);
    } finally {
      session.removeEventListener(counter);
      session.dispose();
    }
  }

  static <T> List<T> only(List<Object> facts, Class<T> type) {
    List<T> found = new ArrayList<>();
    for (Object fact : facts) {
      if (type.isInstance(fact)) {
        found.add(type.cast(fact));
      }
    }
    return found;
  }
}

package rolepolicy.engine;

import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.kie.api.KieBase;
import org.kie.api.definition.rule.Rule;
import org.kie.api.event.rule.AfterMatchFiredEvent;
import org.kie.api.event.rule.DefaultAgendaEventListener;
import org.kie.api.runtime.KieSession;

/**
 * The time limit of one session's firing. At the limit it watches which rules fire for a moment,
 * then halts the session (which takes effect between two firings). An action that still has not
 * returned a while later can't be stopped: it is reported through {@link RuleLimits#stuck}, naming
 * the rule from the firing thread's stack.
 */
final class RuleWatch implements AutoCloseable {
  /** How long the rules that fire are counted before the halt. */
  private static final long SAMPLE_MILLIS = 200;
  /** How long after the halt an action that has not returned counts as stuck. */
  private static final long STUCK_MILLIS = 2_000;

  private static final ScheduledExecutorService TIMER = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread thread = new Thread(r, "rule-time-limit");
    thread.setDaemon(true);
    return thread;
  });

  private final KieBase base;
  private final KieSession session;
  private final Thread firing;
  private final RuleLimits limits;
  private final String subject;
  private final Counter counter = new Counter();
  private ScheduledFuture<?> next;
  private boolean done;
  private boolean timedOut;

  private RuleWatch(KieBase base, KieSession session, RuleLimits limits) {
    this.base = base;
    this.session = session;
    this.firing = Thread.currentThread();
    this.limits = limits;
    this.subject = RuleLimits.subject();
  }

  static RuleWatch start(KieBase base, KieSession session, RuleLimits limits) {
    RuleWatch watch = new RuleWatch(base, session, limits);
    synchronized (watch) {
      watch.next = TIMER.schedule(watch::sample, Math.round(limits.seconds() * 1000), TimeUnit.MILLISECONDS);
    }
    return watch;
  }

  private synchronized void sample() {
    if (!done) {
      session.addEventListener(counter);
      next = TIMER.schedule(this::halt, SAMPLE_MILLIS, TimeUnit.MILLISECONDS);
    }
  }

  private synchronized void halt() {
    if (!done) {
      timedOut = true;
      session.halt();
      next = TIMER.schedule(this::stuck, STUCK_MILLIS, TimeUnit.MILLISECONDS);
    }
  }

  private synchronized void stuck() {
    if (!done) {
      RuleLimits.stuck((subject == null ? "" : subject + ": ") + runningRule()
          + " has run its action past the time limit of " + Sessions.number(limits.seconds())
          + " s (--rule-timeout) and does not return (a loop that never ends?); it cannot be stopped, so the run ends here");
    }
  }

  /** The rule whose action the firing thread is in, by its stack: Drools names an action's class after its rule. */
  private String runningRule() {
    List<Rule> rules = base.getKiePackages().stream().flatMap(p -> p.getRules().stream())
        .sorted(Comparator.comparing((Rule r) -> r.getName().length()).reversed()).toList();
    for (StackTraceElement frame : firing.getStackTrace()) {
      String simple = frame.getClassName().substring(frame.getClassName().lastIndexOf('.') + 1);
      if (!simple.startsWith("Rule_")) {
        continue;
      }
      for (Rule rule : rules) {
        if (simple.startsWith("Rule_" + rule.getName().replaceAll("[^A-Za-z0-9_]", "_"))) {
          return RuleBase.describe(base, rule);
        }
      }
    }
    return "a rule";
  }

  synchronized boolean timedOut() {
    return timedOut;
  }

  /** The rules counted in the moment before the halt, most first. */
  String mostFired() {
    return counter.most(base);
  }

  @Override
  public synchronized void close() {
    done = true;
    if (next != null) {
      next.cancel(false);
    }
    session.removeEventListener(counter);
  }

  /** Counts each rule's firings. */
  static final class Counter extends DefaultAgendaEventListener {
    private final Map<Rule, AtomicLong> counts = new ConcurrentHashMap<>();

    @Override
    public void afterMatchFired(AfterMatchFiredEvent event) {
      counts.computeIfAbsent(event.getMatch().getRule(), r -> new AtomicLong()).incrementAndGet();
    }

    /** The three rules that fired most, with their counts, most first (ties by name). */
    String most(KieBase base) {
      if (counts.isEmpty()) {
        return "none fired";
      }
      return String.join("; ", counts.entrySet().stream()
          .sorted(Comparator.comparing((Map.Entry<Rule, AtomicLong> e) -> -e.getValue().get())
              .thenComparing(e -> e.getKey().getName()))
          .limit(3)
          .map(e -> RuleBase.describe(base, e.getKey()) + " " + e.getValue().get() + " times")
          .toList());
    }
  }
}

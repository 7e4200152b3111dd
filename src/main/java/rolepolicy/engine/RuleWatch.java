package rolepolicy.engine;

import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.kie.api.KieBase;
import org.kie.api.definition.rule.Rule;
import org.kie.api.event.rule.AfterMatchFiredEvent;
import org.kie.api.event.rule.DefaultAgendaEventListener;
import org.kie.api.runtime.KieSession;

/**
 * The time limit of one session's firing. One watch per firing thread, reused for each of its
 * sessions (starting and ending one costs two uncontended locks), and one timer thread that looks at
 * every watch each {@value #PERIOD_MILLIS} ms. Past the limit it watches which rules fire for a
 * moment, then halts the session (which takes effect between two firings). An action that still
 * has not returned a while later can't be stopped: it is reported through {@link RuleLimits#stuck},
 * naming the rule from the firing thread's stack.
 */
final class RuleWatch implements AutoCloseable {
  /** How often the timer looks at the sessions under way. */
  private static final long PERIOD_MILLIS = 50;
  /** How long the rules that fire are counted before the halt. */
  private static final long SAMPLE_MILLIS = 200;
  /** How long after the halt an action that has not returned counts as stuck. */
  private static final long STUCK_MILLIS = 2_000;

  private static final List<RuleWatch> WATCHES = new CopyOnWriteArrayList<>();
  private static final ThreadLocal<RuleWatch> MINE = ThreadLocal.withInitial(RuleWatch::forThisThread);
  private static ScheduledExecutorService timer;

  private final Thread firing = Thread.currentThread();
  private KieBase base;
  private KieSession session;
  private RuleLimits limits;
  private String subject;
  private Counter counter;
  /** What the timer does next to a session under way, and when (System.nanoTime). */
  private Step step;
  private long due;
  private boolean timedOut;

  private enum Step { SAMPLE, HALT, REPORT, NONE }

  private RuleWatch() {}

  private static RuleWatch forThisThread() {
    RuleWatch watch = new RuleWatch();
    synchronized (RuleWatch.class) {
      if (timer == null) {
        timer = Executors.newSingleThreadScheduledExecutor(r -> {
          Thread thread = new Thread(r, "rule-time-limit");
          thread.setDaemon(true);
          return thread;
        });
        timer.scheduleWithFixedDelay(RuleWatch::lookAtAll, PERIOD_MILLIS, PERIOD_MILLIS, TimeUnit.MILLISECONDS);
      }
    }
    WATCHES.add(watch);
    return watch;
  }

  /** This thread's watch, on {@code session} from now until {@link #close}. */
  static RuleWatch start(KieBase base, KieSession session, RuleLimits limits) {
    RuleWatch watch = MINE.get();
    synchronized (watch) {
      watch.base = base;
      watch.session = session;
      watch.limits = limits;
      watch.subject = RuleLimits.subject();
      watch.counter = null;
      watch.step = Step.SAMPLE;
      watch.due = System.nanoTime() + Math.round(limits.seconds() * 1e9);
      watch.timedOut = false;
    }
    return watch;
  }

  private static void lookAtAll() {
    long now = System.nanoTime();
    for (RuleWatch watch : WATCHES) {
      if (!watch.firing.isAlive()) {
        WATCHES.remove(watch);
        continue;
      }
      String stuck = watch.lookAt(now);
      if (stuck != null) {
        RuleLimits.stuck(stuck); // outside the watch's lock: the command line's handler ends the process
      }
    }
  }

  /** Takes the next step on a session past its time, if one is due; the message when its action is stuck. */
  private synchronized String lookAt(long now) {
    if (session == null || now - due < 0) {
      return null;
    }
    switch (step) {
      case SAMPLE -> {
        counter = new Counter();
        session.addEventListener(counter);
        step = Step.HALT;
        due = now + SAMPLE_MILLIS * 1_000_000;
      }
      case HALT -> {
        timedOut = true;
        session.halt();
        step = Step.REPORT;
        due = now + STUCK_MILLIS * 1_000_000;
      }
      case REPORT -> {
        step = Step.NONE;
        return (subject == null ? "" : subject + ": ") + runningRule()
            + " has run its action past the time limit of " + Sessions.number(limits.seconds())
            + " s (--rule-timeout) and does not return (a loop that never ends?); it cannot be stopped, so the run ends here";
      }
      case NONE -> { }
    }
    return null;
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
  synchronized String mostFired() {
    return counter == null ? "none counted" : counter.most(base);
  }

  @Override
  public synchronized void close() {
    if (counter != null) {
      session.removeEventListener(counter);
    }
    session = null;
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

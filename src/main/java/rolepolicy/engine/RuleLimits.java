package rolepolicy.engine;

import java.util.concurrent.atomic.LongAccumulator;
import java.util.function.Consumer;

/**
 * How far one session's rules may run: at most {@code firings} rule firings, and at most {@code
 * seconds}. A rule that keeps re-triggering itself stops at the first; an action that never returns
 * is found by the second. Set per command run (the command line's {@code --rule-firings} and {@code
 * --rule-timeout}), for its thread and the threads it starts; the defaults lie far above what the
 * shipped rules need (docs/rules.md). The most firings a session took under them is kept.
 */
public final class RuleLimits {
  /** The default firings and seconds: far above the shipped rules' most in one session (docs/rules.md). */
  public static final int FIRINGS = 100_000;
  public static final double SECONDS = 60;

  private static final RuleLimits DEFAULT = new RuleLimits(FIRINGS, SECONDS);

  private static final InheritableThreadLocal<RuleLimits> CURRENT = new InheritableThreadLocal<>();
  /** What the rules are working on, for the messages: e.g. a question's id and place. */
  private static final ThreadLocal<String> SUBJECT = new ThreadLocal<>();
  private static volatile Consumer<String> onStuck = message -> {};

  private final int firings;
  private final double seconds;
  /** The most firings seen in one session under these limits. */
  private final LongAccumulator most = new LongAccumulator(Math::max, 0);

  public RuleLimits(int firings, double seconds) {
    if (firings < 1 || !(seconds > 0)) {
      throw new IllegalArgumentException("rule limits must be at least 1 firing and above 0 s");
    }
    this.firings = firings;
    this.seconds = seconds;
  }

  public int firings() {
    return firings;
  }

  public double seconds() {
    return seconds;
  }

  /** The most rule firings one session under these limits has taken so far. */
  public long mostFirings() {
    return most.get();
  }

  void observe(int fired) {
    most.accumulate(fired);
  }

  /** This thread's limits (the defaults unless set). */
  public static RuleLimits current() {
    RuleLimits limits = CURRENT.get();
    return limits == null ? DEFAULT : limits;
  }

  /** Sets this thread's limits (and those of the threads it starts from now on); null: the defaults. */
  public static void set(RuleLimits limits) {
    CURRENT.set(limits);
  }

  /** Names what this thread's rules work on from now on, for the messages (null: nothing named). */
  public static void subject(String subject) {
    SUBJECT.set(subject);
  }

  static String subject() {
    return SUBJECT.get();
  }

  /**
   * What to do with a rule's action still running past the time limit: it cannot be stopped, so the
   * command line reports it and ends the process (its outputs are removed as on Ctrl-C). The
   * handler gets the message; by default nothing is done.
   */
  public static void onStuck(Consumer<String> handler) {
    onStuck = handler;
  }

  static void stuck(String message) {
    onStuck.accept(message);
  }
}

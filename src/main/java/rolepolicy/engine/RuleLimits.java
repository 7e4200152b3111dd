package rolepolicy.engine;

import java.util.function.Consumer;

/**
 * How far one session's rules may run: at most {@code firings} rule firings, and at most {@code
 * seconds}. A rule that keeps re-triggering itself stops at the first; an action that never returns
 * is found by the second. Set per command run (the command line's {@code --rule-firings} and {@code
 * --rule-timeout}), for its thread and the threads it starts; the defaults lie far above what the
 * shipped rules need (docs/rules.md).
 */
public record RuleLimits(int firings, double seconds) {
  /** The defaults: the shipped rules fire at most a few hundred times in one session. */
  public static final RuleLimits DEFAULT = new RuleLimits(100_000, 60);

  private static final InheritableThreadLocal<RuleLimits> CURRENT = new InheritableThreadLocal<>();
  /** What the rules are working on, for the messages: e.g. a question's id and place. */
  private static final ThreadLocal<String> SUBJECT = new ThreadLocal<>();
  private static volatile Consumer<String> onStuck = message -> {};

  public RuleLimits {
    if (firings < 1 || !(seconds > 0)) {
      throw new IllegalArgumentException("rule limits must be at least 1 firing and above 0 s");
    }
  }

  /** This thread's limits ({@link #DEFAULT} unless set). */
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

package rolepolicy.io;

import java.io.PrintStream;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Time stamps of a command's phases, and time summed over the calls of its parts, printed to
 * standard error when the system property {@code rolepolicy.phases} is set (for profiling:
 * {@code JAVA_OPTS=-Drolepolicy.phases bin/rolepolicy evaluate ...}); otherwise nothing is kept.
 */
public final class Phases {
  private static final boolean ON = System.getProperty("rolepolicy.phases") != null;
  private static final PrintStream OUT = System.err;
  private static final Map<String, LongAdder> SUMS = new ConcurrentSkipListMap<>();
  private static final Map<String, LongAdder> COUNTS = new ConcurrentHashMap<>();
  private static final long BEGIN = ON ? startNanos() : 0;
  private static long last = BEGIN;

  private Phases() {}

  /** Whether phases are printed. */
  public static boolean on() {
    return ON;
  }

  /** The JVM's start, as {@link System#nanoTime} would have read then (the launcher script before it is not counted). */
  private static long startNanos() {
    long now = System.nanoTime();
    long startMillis = java.lang.management.ManagementFactory.getRuntimeMXBean().getStartTime();
    return now - (System.currentTimeMillis() - startMillis) * 1_000_000L;
  }

  /** Prints that the phase {@code name} ended now: the time since the JVM started and since the last mark. */
  public static synchronized void mark(String name) {
    if (!ON) {
      return;
    }
    long now = System.nanoTime();
    OUT.printf("phase %-40s ends at %6.3f s, took %6.3f s%n", name, (now - BEGIN) / 1e9, (now - last) / 1e9);
    last = now;
  }

  /** The current time for {@link #add}, or 0 when off. */
  public static long start() {
    return ON ? System.nanoTime() : 0;
  }

  /** Adds the time since {@code start} to the sum of {@code part}. */
  public static void add(String part, long start) {
    if (!ON) {
      return;
    }
    long took = System.nanoTime() - start;
    SUMS.computeIfAbsent(part, p -> new LongAdder()).add(took);
    COUNTS.computeIfAbsent(part, p -> new LongAdder()).increment();
  }

  /** Prints the sums of the parts (summed over threads: they may exceed the wall time). */
  public static void printSums() {
    if (!ON) {
      return;
    }
    SUMS.forEach((part, sum) -> OUT.printf("part  %-40s %6.3f s in %d calls%n", part, sum.sum() / 1e9, COUNTS.get(part).sum()));
  }
}

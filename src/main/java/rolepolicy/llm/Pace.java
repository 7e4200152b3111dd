package rolepolicy.llm;

import java.util.function.LongSupplier;

/**
 * Client-side limits on requests per minute and tokens per minute, shared by every worker of one
 * endpoint: each request takes the next free slot, at least {@code 60/rpm} s after the previous
 * one, and a request of {@code t} tokens keeps the token budget for {@code 60·t/tpm} s. Requests
 * are spread evenly over the minute rather than sent in a burst.
 */
public final class Pace {
  /** Waits; a test gives one that only moves its clock. */
  public interface Sleeper {
    void sleep(long nanos) throws InterruptedException;
  }

  /** No limit. */
  public static final Pace NONE = new Pace(0, 0);

  private final double rpm;
  private final double tpm;
  private final LongSupplier clock;
  private final Sleeper sleeper;
  private long requestSlot = Long.MIN_VALUE;
  private long tokenSlot = Long.MIN_VALUE;

  /** {@code rpm}, {@code tpm}: the limits, 0 for none. */
  public Pace(double rpm, double tpm) {
    this(rpm, tpm, System::nanoTime, nanos -> Thread.sleep(nanos / 1_000_000, (int) (nanos % 1_000_000)));
  }

  Pace(double rpm, double tpm, LongSupplier clock, Sleeper sleeper) {
    if (!(rpm >= 0) || !(tpm >= 0)) {
      throw new IllegalArgumentException("the request and token limits are at least 0");
    }
    this.rpm = rpm;
    this.tpm = tpm;
    this.clock = clock;
    this.sleeper = sleeper;
  }

  public boolean limits() {
    return rpm > 0 || tpm > 0;
  }

  /** Waits for this request's slot; {@code tokens} is its estimated size. */
  public void acquire(long tokens) throws InterruptedException {
    if (!limits()) {
      return;
    }
    long slot;
    synchronized (this) {
      long now = clock.getAsLong();
      slot = Math.max(now, Math.max(requestSlot, tokenSlot));
      if (rpm > 0) {
        requestSlot = slot + Math.round(60e9 / rpm);
      }
      if (tpm > 0) {
        tokenSlot = slot + Math.round(60e9 * tokens / tpm);
      }
    }
    long wait = slot - clock.getAsLong();
    if (wait > 0) {
      sleeper.sleep(wait);
    }
  }

  /**
   * A request's estimated tokens for {@code --tpm}: its body's bytes over four (about the bytes per
   * token of English and SQL) plus the answer's limit when one is set, as OpenAI counts a request
   * against its limit.
   */
  public static long estimate(int bodyBytes, Integer maxTokens) {
    return bodyBytes / 4 + (maxTokens == null ? 0 : maxTokens);
  }
}

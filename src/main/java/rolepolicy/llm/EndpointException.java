package rolepolicy.llm;

import rolepolicy.io.Secrets;

/**
 * A model endpoint failed: errors, time-outs and unreadable answers that retries did not mend. Its
 * message has its secrets masked ({@link Secrets}): a server may echo the key.
 */
public final class EndpointException extends RuntimeException {
  private final Integer status;
  private final int retries;

  public EndpointException(String message) {
    this(message, null, 0);
  }

  public EndpointException(String message, Throwable cause) {
    super(Secrets.redact(message), cause);
    this.status = null;
    this.retries = 0;
  }

  /** {@code status}: the last HTTP status, or null when none came (time-out, no connection, a bad body). */
  public EndpointException(String message, Integer status, int retries) {
    super(Secrets.redact(message));
    this.status = status;
    this.retries = retries;
  }

  public Integer status() {
    return status;
  }

  /** How many times the request was tried again before giving up. */
  public int retries() {
    return retries;
  }
}

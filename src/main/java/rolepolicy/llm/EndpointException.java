package rolepolicy.llm;

/** A model endpoint failed: errors, time-outs and unreadable answers that retries did not mend. */
public final class EndpointException extends RuntimeException {
  public EndpointException(String message) {
    super(message);
  }

  public EndpointException(String message, Throwable cause) {
    super(message, cause);
  }
}

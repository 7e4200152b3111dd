package rolepolicy.io;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;

/** Waiting for a task of a worker pool: its result, or its failure as it was thrown. */
public final class Futures {
  private Futures() {}

  /** The task's result; its runtime exception or error rethrown; {@code what} says what was awaited. */
  public static <T> T await(Future<T> task, String what) {
    try {
      return task.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while " + what, e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException cause) {
        throw cause;
      } else if (e.getCause() instanceof Error error) {
        throw error;
      }
      throw new IllegalStateException(e.getCause());
    }
  }
}

package rolepolicy.llm;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * A reply body read as UTF-8 text, up to a limit: past it the reply is cancelled and the body
 * fails with {@link TooLarge}, so no more than the limit is ever held.
 */
final class BoundedBody implements HttpResponse.BodySubscriber<String> {
  /** A reply longer than the limit. */
  static final class TooLarge extends IOException {
    TooLarge(long limit) {
      super("the reply is longer than " + limit + " bytes");
    }
  }

  private final long limit;
  private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
  private final CompletableFuture<String> body = new CompletableFuture<>();
  private Flow.Subscription subscription;

  private BoundedBody(long limit) {
    this.limit = limit;
  }

  /** The handler: each response's body read up to {@code limit} bytes. */
  static HttpResponse.BodyHandler<String> handler(long limit) {
    return info -> new BoundedBody(limit);
  }

  @Override
  public void onSubscribe(Flow.Subscription subscription) {
    this.subscription = subscription;
    subscription.request(Long.MAX_VALUE);
  }

  @Override
  public void onNext(List<ByteBuffer> items) {
    if (body.isDone()) {
      return;
    }
    for (ByteBuffer item : items) {
      if (bytes.size() + (long) item.remaining() > limit) {
        subscription.cancel();
        body.completeExceptionally(new TooLarge(limit));
        return;
      }
      byte[] chunk = new byte[item.remaining()];
      item.get(chunk);
      bytes.writeBytes(chunk);
    }
  }

  @Override
  public void onError(Throwable error) {
    body.completeExceptionally(error);
  }

  @Override
  public void onComplete() {
    body.complete(bytes.toString(StandardCharsets.UTF_8));
  }

  @Override
  public CompletionStage<String> getBody() {
    return body;
  }
}

package dev.travertine.io.s3;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.random.RandomGenerator;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;
import software.amazon.awssdk.http.SdkHttpFullResponse;
import software.amazon.awssdk.http.async.AsyncExecuteRequest;
import software.amazon.awssdk.http.async.SdkAsyncHttpClient;
import software.amazon.awssdk.http.async.SdkAsyncHttpResponseHandler;

/**
 * A transport between the S3 client and the network that adds latency to every request and fails
 * a fraction of them — a third each with HTTP 503 "SlowDown", a connection reset, and (GETs) a
 * body cut short — below the SDK's retries, as a real network and service would. For tests and benchmarks only
 * ({@code s3.test.latency_ms}, {@code s3.test.failure_rate}, {@code s3.test.seed}), put under the
 * client by its {@link Decorator} (registered for {@link java.util.ServiceLoader} in this test jar).
 */
public final class FaultInjectingHttpClient implements SdkAsyncHttpClient {
  /** Puts the client under S3 clients configured with {@code s3.test.latency_ms} or {@code s3.test.failure_rate}. */
  public static final class Decorator implements S3HttpClientDecorator {
    @Override public SdkAsyncHttpClient decorate(SdkAsyncHttpClient client, java.util.Map<String, String> p) {
      long latency = Long.parseLong(p.getOrDefault("s3.test.latency_ms", "0"));
      double failureRate = Double.parseDouble(p.getOrDefault("s3.test.failure_rate", "0"));
      if (latency <= 0 && failureRate <= 0) {
        return client;
      }
      return new FaultInjectingHttpClient(client, latency, failureRate, Long.parseLong(p.getOrDefault("s3.test.seed", "1")));
    }
  }

  /** Faults injected by all instances (tests compare it with what succeeded). */
  public static final AtomicLong INJECTED = new AtomicLong();

  private static final ScheduledExecutorService DELAY = Executors.newScheduledThreadPool(2, r -> {
    Thread t = new Thread(r, "travertine-s3-latency");
    t.setDaemon(true);
    return t;
  });

  private final SdkAsyncHttpClient delegate;
  private final long latencyMillis;
  private final double failureRate;
  private final RandomGenerator random;

  public FaultInjectingHttpClient(SdkAsyncHttpClient delegate, long latencyMillis, double failureRate, long seed) {
    this.delegate = delegate;
    this.latencyMillis = latencyMillis;
    this.failureRate = failureRate;
    this.random = new java.util.SplittableRandom(seed);
  }

  private synchronized double next() {
    return random.nextDouble();
  }

  @Override
  public CompletableFuture<Void> execute(AsyncExecuteRequest request) {
    double r = next();
    if (latencyMillis <= 0) {
      return run(request, r);
    }
    CompletableFuture<Void> out = new CompletableFuture<>();
    DELAY.schedule(() -> run(request, r).whenComplete((v, e) -> {
      if (e != null) {
        out.completeExceptionally(e);
      } else {
        out.complete(v);
      }
    }), latencyMillis, TimeUnit.MILLISECONDS);
    return out;
  }

  private CompletableFuture<Void> run(AsyncExecuteRequest request, double r) {
    if (r >= failureRate) {
      return delegate.execute(request);
    }
    INJECTED.incrementAndGet();
    if (r >= failureRate * 2 / 3 && request.request().method() == software.amazon.awssdk.http.SdkHttpMethod.GET) {
      return delegate.execute(truncated(request)); // a body cut short: the connection dropped mid-response
    }
    if (r < failureRate / 3) {
      request.responseHandler().onHeaders(SdkHttpFullResponse.builder().statusCode(503)
          .putHeader("Content-Type", "application/xml").build());
      byte[] body = ("<Error><Code>SlowDown</Code><Message>Please reduce your request rate (injected)</Message>"
          + "</Error>").getBytes(java.nio.charset.StandardCharsets.UTF_8);
      try {
        request.responseHandler().onStream(subscriber -> emit(subscriber, body));
      } catch (IllegalArgumentException e) {
        // The SDK settled this attempt on the 503's headers alone and prepared its next one
        // before the body came ("headersFuture is still not completed when onStream() is
        // invoked"): the body is not wanted, and the attempt is over as a real one would be.
      }
      return CompletableFuture.completedFuture(null);
    }
    IOException reset = new IOException("Connection reset (injected)");
    request.responseHandler().onError(reset);
    return CompletableFuture.failedFuture(reset);
  }

  /** The same request, whose response body ends after half of its first chunk. */
  private static AsyncExecuteRequest truncated(AsyncExecuteRequest request) {
    SdkAsyncHttpResponseHandler h = request.responseHandler();
    SdkAsyncHttpResponseHandler cut = new SdkAsyncHttpResponseHandler() {
      @Override
      public void onHeaders(software.amazon.awssdk.http.SdkHttpResponse headers) {
        h.onHeaders(headers);
      }

      @Override
      public void onStream(org.reactivestreams.Publisher<ByteBuffer> stream) {
        h.onStream(subscriber -> stream.subscribe(new Subscriber<ByteBuffer>() {
          private Subscription upstream;
          private boolean done;

          @Override
          public void onSubscribe(Subscription s) {
            upstream = s;
            subscriber.onSubscribe(s);
          }

          @Override
          public void onNext(ByteBuffer b) {
            if (done) {
              return;
            }
            done = true;
            ByteBuffer part = b.duplicate();
            part.limit(part.position() + part.remaining() / 2);
            subscriber.onNext(part);
            upstream.cancel();
            subscriber.onComplete();
          }

          @Override
          public void onError(Throwable t) {
            if (!done) {
              subscriber.onError(t);
            }
          }

          @Override
          public void onComplete() {
            if (!done) {
              subscriber.onComplete();
            }
          }
        }));
      }

      @Override
      public void onError(Throwable error) {
        h.onError(error);
      }
    };
    AsyncExecuteRequest.Builder b = AsyncExecuteRequest.builder().request(request.request())
        .requestContentPublisher(request.requestContentPublisher()).responseHandler(cut)
        .fullDuplex(request.fullDuplex()).httpExecutionAttributes(request.httpExecutionAttributes());
    request.metricCollector().ifPresent(b::metricCollector);
    return b.build();
  }

  private static void emit(Subscriber<? super ByteBuffer> s, byte[] body) {
    s.onSubscribe(new Subscription() {
      private boolean sent;

      @Override
      public void request(long n) {
        if (!sent && n > 0) {
          sent = true;
          s.onNext(ByteBuffer.wrap(body));
          s.onComplete();
        }
      }

      @Override
      public void cancel() {}
    });
  }

  @Override
  public String clientName() {
    return "FaultInjecting(" + delegate.clientName() + ")";
  }

  @Override
  public void close() {
    delegate.close();
  }
}

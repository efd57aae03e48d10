package dev.travertine.rpc.exchange;

import dev.travertine.mergetree.scan.TaskFeed;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The replica's side of one exchange call: the first message is the fragment request, which runs
 * on the server's executor; the request's scan asks the initiator for read tasks through the
 * same stream; blocks go out as the client's flow control allows (senders wait while the stream
 * is not ready). A cancelled call (the initiator cancelled, failed or went away) stops the work
 * at its next batch.
 */
final class ReplicaCall implements StreamObserver<byte[]> {
  private static final Logger LOG = LoggerFactory.getLogger(ReplicaCall.class);
  /** Tasks a replica asks for at once: a few per scan thread, so its prefetch sees what comes next. */
  static final int TASKS_PER_REQUEST = 4;

  private final ServerCallStreamObserver<byte[]> out;
  private final ReplicaRunner runner;
  private final ExecutorService executor;
  private final BlockingQueue<List<String>> grants = new LinkedBlockingQueue<>();
  private final Object ready = new Object();
  private volatile boolean cancelled;
  private volatile boolean started;

  ReplicaCall(ServerCallStreamObserver<byte[]> out, ReplicaRunner runner, ExecutorService executor) {
    this.out = out;
    this.runner = runner;
    this.executor = executor;
    out.setOnCancelHandler(() -> {
      cancelled = true;
      wake();
    });
    out.setOnReadyHandler(this::wake);
  }

  private void wake() {
    synchronized (ready) {
      ready.notifyAll();
    }
  }

  @Override public void onNext(byte[] m) {
    try {
      byte type = ExchangeProtocol.type(m);
      if (type == ExchangeProtocol.REQUEST && !started) {
        started = true;
        FragmentRequest r = FragmentRequest.decode(m, 2, m.length - 2);
        try {
          executor.execute(() -> run(r));
        } catch (RejectedExecutionException e) {
          fail(Status.UNAVAILABLE.withDescription("This node is shutting down"));
        }
      } else if (type == ExchangeProtocol.TASKS && started) {
        grants.add(ExchangeProtocol.readTasks(m));
      } else {
        throw new IOException("Unexpected exchange message of type " + type);
      }
    } catch (IOException e) {
      fail(Status.INVALID_ARGUMENT.withDescription(e.getMessage()));
    }
  }

  private synchronized void fail(Status s) {
    cancelled = true;
    try {
      out.onError(s.asRuntimeException());
    } catch (IllegalStateException e) {
      // The call is closed already.
    }
  }

  @Override public void onError(Throwable t) {
    cancelled = true; // the initiator's side went away
    wake();
  }

  @Override public void onCompleted() {
    // The initiator sends nothing more; the run goes on.
  }

  private void checkCancelled() {
    if (cancelled) {
      throw new StatusRuntimeException(Status.CANCELLED.withDescription("The initiator cancelled the query"));
    }
  }

  /** Sends one message once the stream is ready (gRPC's flow control), unless cancelled. */
  private void send(byte[] m) throws IOException {
    synchronized (ready) {
      while (!out.isReady()) {
        checkCancelled();
        try {
          ready.wait(100);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IOException("Interrupted while sending", e);
        }
      }
    }
    checkCancelled();
    synchronized (this) { // onNext of a stream is not thread-safe
      out.onNext(m);
    }
  }

  private final TaskFeed feed = () -> {
    send(ExchangeProtocol.control(ExchangeProtocol.NEED_TASKS));
    while (true) {
      checkCancelled();
      try {
        List<String> keys = grants.poll(100, TimeUnit.MILLISECONDS);
        if (keys != null) {
          return keys;
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("Interrupted while waiting for read tasks", e);
      }
    }
  };

  private void run(FragmentRequest r) {
    try {
      ReplicaRunner.Stats st = runner.run(r, feed, this::send, this::checkCancelled);
      send(ExchangeProtocol.done(st.rows(), st.bytes()));
      synchronized (this) {
        out.onCompleted();
      }
    } catch (Throwable t) {
      if (cancelled) {
        LOG.debug("Fragment of query {} cancelled", r.queryId());
        return;
      }
      LOG.warn("Fragment of query {} failed", r.queryId(), t);
      String msg = t.getMessage() == null ? t.toString() : t.getMessage();
      fail(Status.INTERNAL.withDescription(msg));
    }
  }
}

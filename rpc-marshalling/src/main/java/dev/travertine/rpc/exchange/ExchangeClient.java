package dev.travertine.rpc.exchange;

import io.grpc.CallOptions;
import io.grpc.ClientCall;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.ClientResponseObserver;
import io.grpc.stub.MetadataUtils;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The initiator's connection to one peer's exchange endpoint (one gRPC channel, shared by the
 * queries that use the peer). {@link #start} opens one call per query and replica.
 */
public final class ExchangeClient implements AutoCloseable {
  /** What a call reports; methods run on gRPC's threads, one at a time per call. */
  public interface Listener {
    /** A marshalled block of {@code call}; {@link Call#consumed} once it is taken off the wire's hands. */
    void onBlock(Call call, byte[] block);

    /** The replica wants read tasks: the next ones for it, empty when none are left. */
    List<String> onNeedTasks() throws InterruptedException;

    /** The replica finished: rows and bytes it read. */
    void onDone(long rows, long bytes);

    /** The call failed (the replica failed, died, was refused, or the deadline passed). */
    void onError(Throwable t);
  }

  private final String address;
  private final ManagedChannel channel;
  private final String secret;

  public ExchangeClient(String host, int port, String secret) {
    this.address = host + ":" + port;
    this.secret = secret;
    this.channel = NettyChannelBuilder.forAddress(host, port).usePlaintext()
        .maxInboundMessageSize(ExchangeServer.MAX_MESSAGE).build();
  }

  public String address() {
    return address;
  }

  /** One query's call to the replica. */
  public final class Call {
    private volatile ClientCallStreamObserver<byte[]> requests;

    /** Lets one more message come (inbound flow control: blocks wait on the replica's side). */
    public void consumed() {
      requests.request(1);
    }

    /** Cancels the call: the replica stops its work. */
    public void cancel(String why) {
      ClientCallStreamObserver<byte[]> r = requests;
      if (r != null) {
        r.cancel(why, null);
      }
    }

    synchronized void send(byte[] m) {
      requests.onNext(m);
    }

    public String address() {
      return address;
    }
  }

  /**
   * Starts a call that runs {@code r} on the replica. At most {@code inflight} messages are on
   * their way or waiting for {@link Call#consumed}; {@code deadlineMillis} (0 = none) ends the
   * call with an error when it has not finished by then.
   */
  public Call start(FragmentRequest r, long deadlineMillis, int inflight, Listener listener) {
    Metadata headers = new Metadata();
    headers.put(ExchangeProtocol.SECRET, secret);
    CallOptions options = CallOptions.DEFAULT;
    if (deadlineMillis > 0) {
      options = options.withDeadlineAfter(deadlineMillis, TimeUnit.MILLISECONDS);
    }
    ClientCall<byte[], byte[]> call = io.grpc.ClientInterceptors.intercept(channel,
        MetadataUtils.newAttachHeadersInterceptor(headers)).newCall(ExchangeProtocol.RUN, options);
    Call c = new Call();
    ClientResponseObserver<byte[], byte[]> responses = new ClientResponseObserver<>() {
      @Override public void beforeStart(ClientCallStreamObserver<byte[]> requestStream) {
        c.requests = requestStream;
        requestStream.disableAutoRequestWithInitial(Math.max(1, inflight));
      }

      @Override public void onNext(byte[] m) {
        if (ExchangeProtocol.isBlock(m)) {
          listener.onBlock(c, m);
          return;
        }
        try {
          byte type = ExchangeProtocol.type(m);
          c.consumed(); // control messages are handled here and now
          if (type == ExchangeProtocol.NEED_TASKS) {
            c.send(ExchangeProtocol.tasks(listener.onNeedTasks()));
          } else if (type == ExchangeProtocol.DONE) {
            long[] d = ExchangeProtocol.readDone(m);
            listener.onDone(d[0], d[1]);
          } else {
            throw new IOException("Unexpected exchange message of type " + type + " from " + address);
          }
        } catch (IOException | RuntimeException | InterruptedException e) {
          c.cancel(e.getMessage());
          listener.onError(e);
        }
      }

      @Override public void onError(Throwable t) {
        listener.onError(t);
      }

      @Override public void onCompleted() {}
    };
    ClientCalls.asyncBidiStreamingCall(call, responses);
    c.send(ExchangeProtocol.request(r));
    return c;
  }

  @Override public void close() {
    channel.shutdownNow();
    try {
      channel.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}

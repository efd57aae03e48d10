package dev.travertine.rpc.exchange;

import io.grpc.Grpc;
import io.grpc.Metadata;
import io.grpc.Server;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.grpc.ServerServiceDefinition;
import io.grpc.Status;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.ServerCalls;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A node's exchange endpoint: the gRPC server that runs fragments for initiators
 * ({@link ReplicaCall}). Calls without the cluster's secret are refused (UNAUTHENTICATED) before
 * anything runs.
 */
public final class ExchangeServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ExchangeServer.class);

  /** The largest message either side accepts (a block of a wide, long batch; a request of many parts). */
  static final int MAX_MESSAGE = 256 << 20;

  private final Server server;

  private ExchangeServer(Server server) {
    this.server = server;
  }

  /**
   * Starts listening on {@code host:port} (port 0: any free one). Fragments run on
   * {@code executor} (one task per call, which waits on flow control as it sends).
   */
  public static ExchangeServer start(String host, int port, String secret, ReplicaRunner runner,
      ExecutorService executor) throws IOException {
    if (secret == null || secret.isEmpty()) {
      throw new IllegalArgumentException("The exchange needs a cluster secret");
    }
    ServerServiceDefinition service = ServerServiceDefinition.builder(ExchangeProtocol.SERVICE)
        .addMethod(ExchangeProtocol.RUN, ServerCalls.asyncBidiStreamingCall(
            out -> new ReplicaCall((ServerCallStreamObserver<byte[]>) out, runner, executor)))
        .build();
    InetSocketAddress at = host == null || host.isEmpty() ? new InetSocketAddress(port) : new InetSocketAddress(host, port);
    Server s = NettyServerBuilder.forAddress(at)
        .addService(ServerInterceptors.intercept(service, new SecretCheck(secret)))
        .maxInboundMessageSize(MAX_MESSAGE)
        .build();
    s.start();
    LOG.info("Exchange endpoint listening on port {}", s.getPort());
    return new ExchangeServer(s);
  }

  public int port() {
    return server.getPort();
  }

  @Override public void close() {
    server.shutdownNow();
    try {
      server.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Refuses a call whose secret is missing or wrong (compared in constant time). */
  private static final class SecretCheck implements ServerInterceptor {
    private final byte[] secret;

    SecretCheck(String secret) {
      this.secret = secret.getBytes(StandardCharsets.UTF_8);
    }

    @Override public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
        ServerCallHandler<Q, R> next) {
      String given = headers.get(ExchangeProtocol.SECRET);
      if (given == null || !MessageDigest.isEqual(secret, given.getBytes(StandardCharsets.UTF_8))) {
        LOG.warn("Refused an exchange call from {}: {}", call.getAttributes().get(Grpc.TRANSPORT_ATTR_REMOTE_ADDR),
            given == null ? "no cluster secret" : "wrong cluster secret");
        call.close(Status.UNAUTHENTICATED.withDescription("This node refuses the exchange call: "
            + (given == null ? "no cluster secret" : "wrong cluster secret")), new Metadata());
        return new ServerCall.Listener<>() {};
      }
      return next.startCall(call, headers);
    }
  }
}

package dev.travertine.calcite.cluster;

import dev.travertine.calcite.schema.TravertineSchema;
import dev.travertine.mergetree.Database;
import dev.travertine.rpc.exchange.ExchangeClient;
import dev.travertine.rpc.exchange.ExchangeServer;
import dev.travertine.rpc.exchange.ReplicaRunner;
import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * This node's part in a cluster (docs/design/exchange.md, "Cluster"): the clusters it knows
 * (ClickHouse's {@code remote_servers}: named lists of the nodes' exchange addresses), its own
 * exchange endpoint, which runs other nodes' fragments, and one connection per peer, with what
 * the last calls to it said. One per open database, from the node properties:
 *
 * <pre>
 * exchange.port = 9100                 # this node's exchange endpoint (absent: none)
 * exchange.host = 127.0.0.1            # the address it listens on and is known by
 * cluster.secret = …                   # what every node of the clusters shares
 * cluster.&lt;name&gt;.replicas = h1:p1,h2:p2 # a cluster's nodes (this one may be among them)
 * </pre>
 */
public final class NodeExchange implements AutoCloseable {
  private static final Map<Database, NodeExchange> OPEN = new IdentityHashMap<>();

  /** A peer of a cluster and what its calls said lately. */
  public static final class Peer {
    final String cluster;
    final int number;
    final String host;
    final int port;
    final boolean local;
    final AtomicLong errors = new AtomicLong();
    volatile String lastError = "";
    volatile String state = "unknown";

    Peer(String cluster, int number, String host, int port, boolean local) {
      this.cluster = cluster;
      this.number = number;
      this.host = host;
      this.port = port;
      this.local = local;
    }

    public String address() {
      return host + ":" + port;
    }
  }

  private final Map<String, List<Peer>> clusters;
  private final String secret;
  private final ExchangeServer server;
  private final ExecutorService executor;
  private final ReplicaRunner runner;
  private final Map<String, ExchangeClient> clients = new ConcurrentHashMap<>();

  private NodeExchange(Map<String, List<Peer>> clusters, String secret, ExchangeServer server,
      ExecutorService executor, ReplicaRunner runner) {
    this.clusters = clusters;
    this.secret = secret;
    this.server = server;
    this.executor = executor;
    this.runner = runner;
  }

  /** Whether a node property belongs here. */
  public static boolean isKey(String k) {
    return k.startsWith("exchange.") || k.startsWith("cluster.");
  }

  /**
   * Starts the exchange of {@code db} from its node properties (no cluster and no endpoint:
   * nothing). Bad properties are errors that name them.
   */
  public static synchronized void open(Database db, Map<String, String> props) throws IOException {
    String portText = props.getOrDefault("exchange.port", "").trim();
    String host = props.getOrDefault("exchange.host", "127.0.0.1").trim();
    String secret = props.getOrDefault("cluster.secret", "");
    Map<String, List<Peer>> clusters = new TreeMap<>();
    Integer port = null;
    if (!portText.isEmpty()) {
      try {
        port = Integer.parseInt(portText);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("Invalid exchange.port: '" + portText + "' (expected 0..65535)");
      }
      if (port < 0 || port > 65535) {
        throw new IllegalArgumentException("Invalid exchange.port: " + port + " (expected 0..65535)");
      }
    }
    for (Map.Entry<String, String> e : props.entrySet()) {
      String k = e.getKey();
      if (k.equals("exchange.port") || k.equals("exchange.host") || k.equals("cluster.secret")) {
        continue;
      }
      if (k.startsWith("cluster.") && k.endsWith(".replicas")) {
        String name = k.substring("cluster.".length(), k.length() - ".replicas".length());
        if (!name.matches("[A-Za-z0-9_.-]+")) {
          throw new IllegalArgumentException("Invalid cluster name in " + k);
        }
        clusters.put(name, List.of()); // filled below, once the own address is known
      } else if (isKey(k)) {
        throw new IllegalArgumentException("Unknown cluster setting: " + k
            + " (known: exchange.port, exchange.host, cluster.secret, cluster.<name>.replicas)");
      }
    }
    if (port == null && clusters.isEmpty()) {
      return;
    }
    if (secret.isEmpty()) {
      throw new IllegalArgumentException("A cluster needs cluster.secret (the same on every node)");
    }
    ExecutorService executor = null;
    ExchangeServer server = null;
    ReplicaRunner runner = null;
    if (port != null) {
      AtomicInteger n = new AtomicInteger();
      executor = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "travertine-exchange-" + n.incrementAndGet());
        t.setDaemon(true);
        return t;
      });
      runner = new ReplicaRunner(db.context(), db.storageProperties(), db.queries());
      try {
        server = ExchangeServer.start(host, port, secret, runner, executor);
      } catch (IOException | RuntimeException e) {
        executor.shutdownNow();
        throw new IOException("Cannot start the exchange endpoint on " + host + ":" + port + ": " + e.getMessage(), e);
      }
    }
    String self = server == null ? null : normalize(host, server.port());
    for (String name : List.copyOf(clusters.keySet())) {
      List<Peer> peers = new ArrayList<>();
      int i = 0;
      for (String a : props.get("cluster." + name + ".replicas").split(",")) {
        if (a.isBlank()) {
          continue;
        }
        int colon = a.strip().lastIndexOf(':');
        String h = colon <= 0 ? "" : a.strip().substring(0, colon);
        int p;
        try {
          p = Integer.parseInt(a.strip().substring(colon + 1));
        } catch (NumberFormatException | IndexOutOfBoundsException e) {
          p = -1;
        }
        if (h.isEmpty() || p <= 0 || p > 65535) {
          throw new IllegalArgumentException("Invalid replica '" + a.strip() + "' of cluster " + name
              + " (expected host:port)");
        }
        peers.add(new Peer(name, ++i, h, p, normalize(h, p).equals(self)));
      }
      clusters.put(name, List.copyOf(peers));
    }
    OPEN.put(db, new NodeExchange(Map.copyOf(clusters), secret, server, executor, runner));
  }

  private static String normalize(String host, int port) {
    try {
      return InetAddress.getByName(host).getHostAddress() + ":" + port;
    } catch (UnknownHostException e) {
      return host.toLowerCase(Locale.ROOT) + ":" + port;
    }
  }

  /** The exchange of a database, or null when it has none. */
  public static synchronized NodeExchange of(Database db) {
    return OPEN.get(db);
  }

  public static synchronized void close(Database db) {
    NodeExchange x = OPEN.remove(db);
    if (x != null) {
      x.close();
    }
  }

  /** The port of the exchange endpoint of the database a connection uses, or -1 when it has none. */
  public static int port(java.sql.Connection c) throws java.sql.SQLException {
    Database db = TravertineSchema.session(c).database();
    NodeExchange x = of(db);
    return x == null ? -1 : x.port();
  }

  /** The port of this node's exchange endpoint, or -1. */
  public int port() {
    return server == null ? -1 : server.port();
  }

  /**
   * The other nodes of a cluster, at most {@code max}, with a connection each; an unknown cluster
   * is an error that lists the known ones.
   */
  public List<Map.Entry<Peer, ExchangeClient>> replicas(String cluster, int max) {
    List<Peer> peers = clusters.get(cluster);
    if (peers == null) {
      throw new IllegalArgumentException("Cluster '" + cluster + "' is not configured"
          + (clusters.isEmpty() ? "" : " (known: " + String.join(", ", clusters.keySet()) + ")"));
    }
    List<Map.Entry<Peer, ExchangeClient>> out = new ArrayList<>();
    for (Peer p : peers) {
      if (!p.local && out.size() < max) {
        out.add(Map.entry(p, clients.computeIfAbsent(p.address(), a -> new ExchangeClient(p.host, p.port, secret))));
      }
    }
    return out;
  }

  /** Rows of system.clusters: one per peer of each cluster. */
  public List<Object[]> rows() {
    List<Object[]> out = new ArrayList<>();
    for (List<Peer> peers : clusters.values()) {
      for (Peer p : peers) {
        out.add(new Object[] {p.cluster, (long) p.number, p.host, (long) p.port, p.local,
            p.local ? "local" : p.state, p.errors.get(), p.lastError});
      }
    }
    return out;
  }

  /** What the last call to a peer said (the query went on, or how it failed). */
  static void report(Peer p, String error) {
    if (error == null) {
      p.state = "ok";
    } else {
      p.state = "failing";
      p.errors.incrementAndGet();
      p.lastError = error;
    }
  }

  /** Clusters by name with their peers' addresses (for EXPLAIN and errors). */
  public Map<String, List<String>> clusters() {
    Map<String, List<String>> m = new LinkedHashMap<>();
    clusters.forEach((k, v) -> m.put(k, v.stream().map(Peer::address).toList()));
    return m;
  }

  @Override public void close() {
    clients.values().forEach(ExchangeClient::close);
    clients.clear();
    if (server != null) {
      server.close();
    }
    if (executor != null) {
      executor.shutdownNow();
    }
    if (runner != null) {
      try {
        runner.close();
      } catch (IOException e) {
        // parts of other nodes' queries: nothing of ours to lose
      }
    }
  }
}

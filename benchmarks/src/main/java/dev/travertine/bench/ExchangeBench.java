package dev.travertine.bench;

import dev.travertine.io.ChildJvm;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * Parallel replicas and parallel block marshalling (docs/design/exchange.md), with real node
 * processes on loopback: this JVM is the initiator and owns the ClickBench-like hits table (the
 * one {@link ClickBench} loads, reused); replica processes read its parts from the shared
 * directory. Queries whose partial results are large run on this node alone, then with 1 and 3
 * replicas, each with {@code enable_parallel_blocks_marshalling} 0 and 1 (taking turns run by
 * run): median of the hot runs, QPS, bytes received per second, cores busy (the CPU time of all
 * node processes over the runs' wall time: 2.0 is a saturated 2-core machine), and whether the
 * answer equals the single node's.
 *
 * <p>Usage: {@code bench/run exchange [rows=10000000] [runs=5] [threads=2] [dataDir|-] [queries=all|0,2]
 * [storage=local|s3|both]}. With s3, the table is copied to S3Proxy in this JVM (in memory) as
 * {@code hits_s3} and the replicas read it from there.
 */
public final class ExchangeBench {
  private ExchangeBench() {}

  private static final String SECRET = "exchange-bench";
  /** Which setups and marshalling modes run (for profiling one of them): -Dexchange.setups=r1, -Dexchange.marshalling=1. */
  private static final List<String> SETUPS = List.of(System.getProperty("exchange.setups", "r1,r3").split(","));
  private static final int[] MARSHALLING = java.util.Arrays.stream(System.getProperty("exchange.marshalling", "0,1")
      .split(",")).mapToInt(Integer::parseInt).toArray();
  /** network_compression_method of the runs with replicas: -Dexchange.compression=zstd. */
  private static final String COMPRESSION = System.getProperty("exchange.compression", "lz4");
  /** network_zstd_compression_level of the runs with replicas (with zstd): -Dexchange.zstdLevel=9. */
  private static final String ZSTD_LEVEL = System.getProperty("exchange.zstdLevel", "1");
  /**
   * More JVM options of the replica processes (a profiler's), split at spaces, {@code %n} replaced
   * by the replica's directory name: -Dexchange.replicaOptions=-XX:StartFlightRecording=filename=/tmp/%n.jfr.
   */
  private static final String REPLICA_OPTIONS = System.getProperty("exchange.replicaOptions", "");

  /**
   * Queries whose replicas send much: many groups, a top-N over a string key, many rows, many rows
   * in order (each node sorts its share; the initiator merges the sorted runs).
   */
  static final List<String[]> QUERIES = List.of(
      new String[] {"top-10 SearchPhrase", "SELECT SearchPhrase, COUNT(*) AS c FROM hits WHERE SearchPhrase <> '' "
          + "GROUP BY SearchPhrase ORDER BY c DESC, SearchPhrase LIMIT 10"},
      new String[] {"GROUP BY UserID", "SELECT UserID, COUNT(*) AS c FROM hits GROUP BY UserID "
          + "ORDER BY c DESC, UserID LIMIT 10"},
      new String[] {"wide SELECT", "SELECT WatchID, UserID, EventTime, URL, Title, SearchPhrase, Referer FROM hits "
          + "WHERE URL LIKE '%google%'"},
      new String[] {"sorted SELECT", "SELECT WatchID, UserID, EventTime, URL, SearchPhrase FROM hits "
          + "WHERE URL LIKE '%google%' ORDER BY EventTime DESC, WatchID"});

  private static int freePort() throws Exception {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  public static void main(String[] args) throws Exception {
    long rows = args.length > 0 ? Long.parseLong(args[0]) : 10_000_000L;
    int runs = args.length > 1 ? Integer.parseInt(args[1]) : 5;
    int threads = args.length > 2 ? Integer.parseInt(args[2]) : 2;
    Path dataDir = (args.length > 3 && !args[3].equals("-") ? Path.of(args[3])
        : Path.of(System.getProperty("java.io.tmpdir"), "travertine-clickbench")).toAbsolutePath();
    Files.createDirectories(dataDir);
    String only = args.length > 4 ? args[4] : "all";
    String storage = args.length > 5 ? args[5] : "local";
    boolean onS3 = storage.equals("s3") || storage.equals("both");
    String key = rows + "-v" + HitsGenerator.VERSION;
    Path csv = dataDir.resolve("hits-" + key + ".csv");
    if (!Files.exists(csv)) {
      HitsGenerator.write(csv, rows);
    }
    int[] ports = {freePort(), freePort(), freePort(), freePort()};
    String r1 = addr(ports[0]) + "," + addr(ports[1]);
    String r3 = r1 + "," + addr(ports[2]) + "," + addr(ports[3]);
    String cache = ";use_uncompressed_cache=1;uncompressed_cache_size=1610612736";
    String cluster = ";cluster.secret=" + SECRET + ";cluster.r1.replicas=" + r1 + ";cluster.r3.replicas=" + r3;
    List<Process> nodes = new ArrayList<>();
    dev.travertine.io.S3ProxyFixture s3 = onS3 ? new dev.travertine.io.S3ProxyFixture("bench") : null;
    StringBuilder s3Settings = new StringBuilder();
    if (s3 != null) {
      s3.properties().forEach((k, v) -> s3Settings.append(';').append(k).append('=').append(v));
    }
    try (TravertineHits trav = new TravertineHits(dataDir.resolve("travertine-" + key),
        ";exchange.port=" + ports[0] + cluster + s3Settings)) {
      trav.open(csv, threads);
      List<String> tables = new ArrayList<>();
      if (!storage.equals("s3")) {
        tables.add("hits");
      }
      if (s3 != null) {
        long t0 = System.nanoTime();
        BenchSql.exec(trav.connection(), "DROP TABLE IF EXISTS hits_s3");
        BenchSql.exec(trav.connection(), "CREATE TABLE hits_s3 " + HitsSchema.columnDefinitions()
            + " ENGINE = MergeTree ORDER BY (" + HitsSchema.SORT_KEY + ") SETTINGS storage = 's3://bench/warehouse'");
        BenchSql.exec(trav.connection(), "INSERT INTO hits_s3 SELECT * FROM hits");
        BenchSql.exec(trav.connection(), "OPTIMIZE TABLE hits_s3 FINAL");
        System.out.printf(Locale.ROOT, "# hits copied to S3Proxy as hits_s3 in %.1f s%n", (System.nanoTime() - t0) / 1e9);
        tables.add("hits_s3");
      }
      for (int i = 1; i <= (SETUPS.contains("r3") ? 3 : 1); i++) {
        Path dir = dataDir.resolve("exchange-replica-" + i);
        nodes.add(start(dir, cache + ";exchange.port=" + ports[i] + cluster + s3Settings + ";max_threads=" + threads));
      }
      Connection c = trav.connection();
      String context = String.format(Locale.ROOT, "hits-like, %,d rows, %d hot runs, max_threads = %d on every node; "
          + "initiator + 1 or 3 replica processes on loopback, parts on shared storage (" + storage + "); %d cores, Java %s, %s", rows,
          runs, threads, Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"),
          LocalDate.now());
      System.out.println("# " + context);
      System.out.println("| Table | Query | Setup | Marshalling | Median ms | QPS | Received MiB | MiB/s | Cores busy | Answer |");
      System.out.println("|---|---|---|---|--:|--:|--:|--:|--:|---|");
      try (QueryRunner runner = new QueryRunner(900)) {
        for (String table : tables) {
        for (int qi = 0; qi < QUERIES.size(); qi++) {
          String[] q = QUERIES.get(qi).clone();
          if (!only.equals("all") && !List.of(only.split(",")).contains(Integer.toString(qi))) {
            continue;
          }
          q[0] = table + " | " + q[0];
          q[1] = q[1].replace("FROM hits", "FROM " + table);
          BenchSql.exec(c, "SET enable_parallel_replicas = 0");
          Measured alone = measure(runner, c, q[1], runs, List.of(List.of()), nodes).get(0);
          boolean ordered = q[1].contains("ORDER BY"); // each ends on a unique key
          print(q[0], "1 node", "-", alone, alone, ordered);
          for (String setup : SETUPS) {
            BenchSql.exec(c, "SET enable_parallel_replicas = 1");
            BenchSql.exec(c, "SET cluster_for_parallel_replicas = '" + setup + "'");
            // The marshalling modes take turns run by run, so that a drift of the machine (a collection,
            // another process) falls on both alike.
            List<List<String>> modes = new ArrayList<>();
            for (int parallel : MARSHALLING) {
              modes.add(List.of("SET enable_parallel_blocks_marshalling = " + parallel,
                  "SET network_compression_method = '" + COMPRESSION + "'",
                  "SET network_zstd_compression_level = " + Integer.parseInt(ZSTD_LEVEL)));
            }
            List<Measured> ms = measure(runner, c, q[1], runs, modes, nodes);
            for (int k = 0; k < MARSHALLING.length; k++) {
              print(q[0], setup.equals("r1") ? "initiator + 1 replica" : "initiator + 3 replicas",
                  MARSHALLING[k] == 1 ? "parallel" : "connection thread", ms.get(k), alone, ordered);
            }
          }
          BenchSql.exec(c, "SET enable_parallel_replicas = 0");
        }
        }
      }
    } finally {
      if (s3 != null) {
        s3.close();
      }
      for (Process p : nodes) {
        p.getOutputStream().close();
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
          p.destroyForcibly();
        }
      }
    }
  }

  private static String addr(int port) {
    return "127.0.0.1:" + port;
  }

  private static Process start(Path dir, String settings) throws Exception {
    // As bin/travertine server runs a node (a young generation of a quarter of the heap, 32 MiB
    // regions, huge pages, no preventive collections), with a 3 GiB heap: four nodes share the machine.
    List<String> options = new ArrayList<>(List.of("-XX:NewSize=768m"));
    for (String o : ServerProcess.collectorOptions()) {
      if (!o.contains("NewSize")) {
        options.add(o);
      }
    }
    for (String o : REPLICA_OPTIONS.trim().split("\\s+")) {
      if (!o.isEmpty()) {
        options.add(o.replace("%n", dir.getFileName().toString()));
      }
    }
    Process p = ChildJvm.of(ExchangeNode.class).maxHeap("3g").jvmOptions(options).args(dir.toString(), settings).start();
    BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
    String line;
    StringBuilder seen = new StringBuilder();
    while ((line = out.readLine()) != null && !line.equals("READY")) {
      seen.append(line).append('\n');
    }
    if (line == null) {
      throw new IllegalStateException("A replica did not start:\n" + seen);
    }
    Thread drain = new Thread(() -> {
      try {
        while (out.readLine() != null) {
          // the node's log
        }
      } catch (java.io.IOException e) {
        // gone
      }
    });
    drain.setDaemon(true);
    drain.start();
    return p;
  }

  /** {@code coresBusy}: CPU time of every node process over the hot runs, divided by their wall time. */
  private record Measured(double medianMs, double receivedMiB, double coresBusy, List<List<Object>> rows,
      String error) {}

  /** CPU time so far of this JVM (the initiator) and the replica processes, in nanoseconds. */
  private static long cpuNanos(List<Process> nodes) {
    long t = BenchStats.jvmCpuNanos();
    for (Process p : nodes) {
      t += p.toHandle().info().totalCpuDuration().map(java.time.Duration::toNanos).orElse(0L);
    }
    return t;
  }

  /**
   * Each variant (the statements that set it up) runs once cold, then {@code runs} times hot, the
   * variants taking turns.
   */
  private static List<Measured> measure(QueryRunner runner, Connection c, String sql, int runs,
      List<List<String>> variants, List<Process> nodes) throws Exception {
    int n = variants.size();
    List<List<List<Object>>> answers = new ArrayList<>();
    String[] errors = new String[n];
    List<List<Double>> times = new ArrayList<>();
    long[] bytes = new long[n];
    long[] cpu = new long[n];
    double[] wallMs = new double[n];
    for (int v = 0; v < n; v++) {
      times.add(new ArrayList<>());
      setUp(c, variants.get(v));
      QueryRunner.Run cold = runner.run(c, sql);
      errors[v] = cold.error();
      answers.add(cold.rows());
    }
    for (int r = 0; r < runs; r++) {
      for (int v = 0; v < n; v++) {
        if (errors[v] != null) {
          continue;
        }
        setUp(c, variants.get(v));
        long before = BenchSql.event(c, "ExchangeReceivedBytes");
        long cpuBefore = cpuNanos(nodes);
        QueryRunner.Run run = runner.run(c, sql);
        long cpuAfter = cpuNanos(nodes);
        if (run.error() != null) {
          errors[v] = run.error();
          continue;
        }
        cpu[v] += cpuAfter - cpuBefore;
        wallMs[v] += run.millis();
        bytes[v] += BenchSql.event(c, "ExchangeReceivedBytes") - before;
        times.get(v).add(run.millis());
      }
    }
    List<Measured> out = new ArrayList<>();
    for (int v = 0; v < n; v++) {
      if (errors[v] != null) {
        out.add(new Measured(Double.NaN, 0, Double.NaN, null, errors[v]));
        continue;
      }
      out.add(new Measured(BenchStats.median(times.get(v)), bytes[v] / (double) runs / (1 << 20), cpu[v] / 1e6 / wallMs[v], answers.get(v),
          null));
    }
    return out;
  }

  private static void setUp(Connection c, List<String> statements) throws Exception {
    for (String s : statements) {
      BenchSql.exec(c, s);
    }
  }

  /** {@code ordered}: the query's ORDER BY keys are unique, so its rows compare in order (else as a set). */
  private static void print(String query, String setup, String marshalling, Measured m, Measured alone,
      boolean ordered) {
    String answer = m.error() != null ? "error: " + m.error()
        : (ordered ? String.valueOf(m.rows()).equals(String.valueOf(alone.rows()))
            : sorted(m.rows()).equals(sorted(alone.rows()))) ? "same (" + m.rows().size() + " rows)" : "DIFFERENT";
    System.out.printf(Locale.ROOT, "| %s | %s | %s | %.0f | %.2f | %.1f | %.0f | %.2f | %s |%n", query, setup, marshalling,
        m.medianMs(), 1000 / m.medianMs(), m.receivedMiB(), m.receivedMiB() / (m.medianMs() / 1000), m.coresBusy(),
        answer);
    System.out.flush();
  }

  private static List<String> sorted(List<List<Object>> rows) {
    List<String> s = new ArrayList<>();
    if (rows != null) {
      rows.forEach(r -> s.add(String.valueOf(r)));
    }
    s.sort(null);
    return s;
  }
}

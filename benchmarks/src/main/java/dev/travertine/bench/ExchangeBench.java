package dev.travertine.bench;

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
 * replicas, each with {@code enable_parallel_blocks_marshalling} 0 and 1: median of the hot
 * runs, QPS, bytes received per second, and whether the answer equals the single node's.
 *
 * <p>Usage: {@code bench/run exchange [rows=10000000] [runs=5] [threads=2] [dataDir|-] [queries=all|0,2]
 * [storage=local|s3|both]}. With s3, the table is copied to S3Proxy in this JVM (in memory) as
 * {@code hits_s3} and the replicas read it from there.
 */
public final class ExchangeBench {
  private ExchangeBench() {}

  private static final String SECRET = "exchange-bench";

  /** Queries whose replicas send much: many groups, a top-N over a string key, many rows. */
  static final List<String[]> QUERIES = List.of(
      new String[] {"top-10 SearchPhrase", "SELECT SearchPhrase, COUNT(*) AS c FROM hits WHERE SearchPhrase <> '' "
          + "GROUP BY SearchPhrase ORDER BY c DESC, SearchPhrase LIMIT 10"},
      new String[] {"GROUP BY UserID", "SELECT UserID, COUNT(*) AS c FROM hits GROUP BY UserID "
          + "ORDER BY c DESC, UserID LIMIT 10"},
      new String[] {"wide SELECT", "SELECT WatchID, UserID, EventTime, URL, Title, SearchPhrase, Referer FROM hits "
          + "WHERE URL LIKE '%google%'"});

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
      for (int i = 1; i <= 3; i++) {
        Path dir = dataDir.resolve("exchange-replica-" + i);
        nodes.add(start(dir, cache + ";exchange.port=" + ports[i] + cluster + s3Settings + ";max_threads=" + threads));
      }
      Connection c = trav.connection();
      String context = String.format(Locale.ROOT, "hits-like, %,d rows, %d hot runs, max_threads = %d on every node; "
          + "initiator + 1 or 3 replica processes on loopback, parts on shared storage (" + storage + "); %d cores, Java %s, %s", rows,
          runs, threads, Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"),
          LocalDate.now());
      System.out.println("# " + context);
      System.out.println("| Table | Query | Setup | Marshalling | Median ms | QPS | Received MiB | MiB/s | Answer |");
      System.out.println("|---|---|---|---|--:|--:|--:|--:|---|");
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
          Measured alone = measure(runner, c, q[1], runs);
          print(q[0], "1 node", "-", alone, alone);
          for (String setup : List.of("r1", "r3")) {
            BenchSql.exec(c, "SET enable_parallel_replicas = 1");
            BenchSql.exec(c, "SET cluster_for_parallel_replicas = '" + setup + "'");
            for (int parallel : new int[] {0, 1}) {
              BenchSql.exec(c, "SET enable_parallel_blocks_marshalling = " + parallel);
              Measured m = measure(runner, c, q[1], runs);
              print(q[0], setup.equals("r1") ? "initiator + 1 replica" : "initiator + 3 replicas",
                  parallel == 1 ? "parallel" : "connection thread", m, alone);
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
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    ProcessBuilder pb = new ProcessBuilder(java, "-Xmx3g", "-Dcom.google.protobuf.use_unsafe_pre22_gencode=true",
        "-cp", System.getProperty("java.class.path"), ExchangeNode.class.getName(), dir.toString(), settings);
    pb.redirectErrorStream(true);
    Process p = pb.start();
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

  private record Measured(double medianMs, double receivedMiB, List<List<Object>> rows, String error) {}

  private static Measured measure(QueryRunner runner, Connection c, String sql, int runs) throws Exception {
    QueryRunner.Run cold = runner.run(c, sql);
    if (cold.error() != null) {
      return new Measured(Double.NaN, 0, null, cold.error());
    }
    List<Double> times = new ArrayList<>();
    long bytes = 0;
    for (int r = 0; r < runs; r++) {
      long before = BenchSql.event(c, "ExchangeReceivedBytes");
      QueryRunner.Run run = runner.run(c, sql);
      if (run.error() != null) {
        return new Measured(Double.NaN, 0, null, run.error());
      }
      bytes += BenchSql.event(c, "ExchangeReceivedBytes") - before;
      times.add(run.millis());
    }
    times.sort(null);
    double median = times.size() % 2 == 1 ? times.get(times.size() / 2)
        : (times.get(times.size() / 2 - 1) + times.get(times.size() / 2)) / 2;
    return new Measured(median, bytes / (double) runs / (1 << 20), cold.rows(), null);
  }

  private static void print(String query, String setup, String marshalling, Measured m, Measured alone) {
    String answer = m.error() != null ? "error: " + m.error()
        : sorted(m.rows()).equals(sorted(alone.rows())) ? "same (" + m.rows().size() + " rows)" : "DIFFERENT";
    System.out.printf(Locale.ROOT, "| %s | %s | %s | %.0f | %.2f | %.1f | %.0f | %s |%n", query, setup, marshalling,
        m.medianMs(), 1000 / m.medianMs(), m.receivedMiB(), m.receivedMiB() / (m.medianMs() / 1000), answer);
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

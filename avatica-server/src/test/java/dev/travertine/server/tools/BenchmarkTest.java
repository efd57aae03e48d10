package dev.travertine.server.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BenchmarkTest {
  @TempDir Path dir;

  @Test
  void percentilesUseNearestRank() {
    List<Long> ns = new ArrayList<>();
    for (long i = 1; i <= 100; i++) {
      ns.add(i * 1_000_000L);
    }
    Map<String, Double> p = Benchmark.percentiles(ns);
    assertEquals(0.001, p.get("0%"), 1e-9);
    assertEquals(0.050, p.get("50%"), 1e-9);
    assertEquals(0.090, p.get("90%"), 1e-9);
    assertEquals(0.099, p.get("99%"), 1e-9);
    assertEquals(0.100, p.get("99.99%"), 1e-9);
  }

  @Test
  void queriesSplitOnLinesAndSemicolons() {
    assertEquals(List.of("SELECT 1", "SELECT 2", "SELECT 3"),
        Benchmark.splitQueries("SELECT 1;\n-- comment\nSELECT 2\n\nSELECT 3;"));
  }

  /** An embedded database in {@code dir} with table b of k = 0 … rows - 1; returns its URL. */
  private String tableOfNumbers(int rows) throws Exception {
    String url = "jdbc:travertine:" + dir;
    try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
      s.execute("CREATE TABLE b (k BIGINT) ORDER BY k");
      s.execute("INSERT INTO b SELECT number FROM TABLE(numbers(" + rows + "))");
    }
    return url;
  }

  @Test
  void reportsQueriesRowsReadAndPercentiles() throws Exception {
    String url = tableOfNumbers(100000);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    int rc = Benchmark.run(new Benchmark.Options(url, null, null,
        List.of("SELECT count(*) FROM b WHERE k > 10", "SELECT k FROM b WHERE k < 3"), 20, 2, -1, 1, false),
        out, out);
    String text = bytes.toString(StandardCharsets.UTF_8);
    assertEquals(0, rc, text);
    assertTrue(text.startsWith("Queries executed: 20."), text);
    assertTrue(text.contains("Query 2: SELECT k FROM b WHERE k < 3"), text);
    assertTrue(text.contains("queries: 10,"), text);
    assertTrue(text.contains("99.99%"), text);
    // Rows read come from the engine's counters: 10 full scans of 100,000 rows plus 10 one-granule reads.
    double rps = Double.parseDouble(text.replaceAll("(?s).*All queries:.*?RPS: ([0-9.]+),.*", "$1"));
    double qps = Double.parseDouble(text.replaceAll("(?s).*All queries:.*?QPS: ([0-9.]+),.*", "$1"));
    double rowsPerQuery = rps / qps;
    assertTrue(rowsPerQuery > 40_000 && rowsPerQuery < 60_000, text);
  }

  private static int freePort() throws Exception {
    try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  private static long received(Connection c) throws Exception {
    try (Statement s = c.createStatement();
        java.sql.ResultSet rs = s.executeQuery("SELECT \"value\" FROM system.events WHERE event = 'ExchangeReceivedBytes'")) {
      return rs.next() ? rs.getLong(1) : 0;
    }
  }

  /**
   * With parallel replicas (a second node in this JVM reading the same directory), the report
   * gives the bytes received from replicas, as the initiator's counter counts them; settings
   * turn the replicas on. Without them, nothing is received and the report says nothing of it.
   */
  @Test
  void reportsBytesReceivedFromReplicas() throws Exception {
    int[] ports = {freePort(), freePort()};
    String cluster = ";cluster.secret=bench-test;cluster.c.replicas=127.0.0.1:" + ports[0] + ",127.0.0.1:" + ports[1];
    String url = "jdbc:travertine:" + dir.resolve("node0") + ";exchange.port=" + ports[0] + cluster;
    try (Connection replica = DriverManager.getConnection("jdbc:travertine:" + dir.resolve("node1") + ";exchange.port="
        + ports[1] + cluster); Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
      s.execute("CREATE TABLE b (k BIGINT, g BIGINT) ORDER BY k SETTINGS index_granularity = 1000");
      for (int part = 0; part < 12; part++) {
        s.execute("INSERT INTO b SELECT number + " + part * 20_000 + ", number % 5000 FROM TABLE(numbers(20000))");
        s.execute("SYSTEM FLUSH TABLE b");
      }
      String q = "SELECT g, count(*), sum(k) FROM b GROUP BY g ORDER BY g LIMIT 3";
      Map<String, String> on = Map.of("enable_parallel_replicas", "1", "cluster_for_parallel_replicas", "c",
          "enable_parallel_blocks_marshalling", "0");
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
      // Whether the replica gets tasks depends on timing (the initiator steals what is left), so
      // each run is checked against what the counter says it received.
      for (boolean json : new boolean[] {true, false, false}) {
        bytes.reset();
        long before = received(c);
        assertEquals(0, Benchmark.run(new Benchmark.Options(url, null, null, List.of(q), 10, 1, -1, 0, json, on), out,
            out));
        long delta = received(c) - before;
        String text = bytes.toString(StandardCharsets.UTF_8);
        if (json) {
          assertTrue(text.contains("\"bytes_received\": " + delta + ","), "counter moved by " + delta + ": " + text);
        } else {
          assertEquals(delta > 0, text.contains("received from replicas MiB/s: "), delta + " bytes: " + text);
        }
      }
      bytes.reset();
      assertEquals(0, Benchmark.run(new Benchmark.Options(url, null, null, List.of(q), 3, 1, -1, 0, false), out, out));
      assertTrue(!bytes.toString(StandardCharsets.UTF_8).contains("received from replicas"), bytes.toString());
    }
  }

  /**
   * Settings are SET on the measuring connections (a limit fails the run without a warm-up), in
   * the order given but readonly last (it forbids the SETs after it), and not on the connection
   * that reads the counters (a result limit would fail that query).
   */
  @Test
  void settingsReachTheMeasuringConnections() throws Exception {
    String url = tableOfNumbers(50000);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    String q = "SELECT count(*) FROM b WHERE k > 10";
    Exception e = org.junit.jupiter.api.Assertions.assertThrows(Exception.class, () -> Benchmark.run(
        new Benchmark.Options(url, null, null, List.of(q), 4, 2, -1, 0, false, Map.of("max_rows_to_read", "10")), out,
        out));
    assertTrue(String.valueOf(e.getMessage()).contains("max_rows_to_read"), String.valueOf(e));
    Map<String, String> ordered = new java.util.LinkedHashMap<>();
    ordered.put("readonly", "1");
    ordered.put("use_uncompressed_cache", "1");
    ordered.put("max_result_rows", "1");
    assertEquals(0, Benchmark.run(new Benchmark.Options(url, null, null, List.of(q), 4, 2, -1, 1, false, ordered),
        out, out), bytes.toString(StandardCharsets.UTF_8));
    assertTrue(bytes.toString(StandardCharsets.UTF_8).contains("queries: 4,"), bytes.toString(StandardCharsets.UTF_8));
  }
}

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

  @Test
  void reportsQueriesRowsReadAndPercentiles() throws Exception {
    String url = "jdbc:travertine:" + dir;
    try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
      s.execute("CREATE TABLE b (k BIGINT) ORDER BY k");
      s.execute("INSERT INTO b SELECT number FROM TABLE(numbers(100000))");
    }
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
}

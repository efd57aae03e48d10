package dev.travertine.bench;

import dev.travertine.io.S3ProxyFixture;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Scans of a table on S3 (S3Proxy in this JVM, every request delayed by an injected latency)
 * with prefetching off and on, for max_threads 1 and 2, against the same table on local disk.
 * Reports wall time, requests and bytes read. The table is loaded without latency; the database
 * is then reopened with it.
 *
 * <p>Usage: {@code RemoteBench [rows=18000000] [latencyMs=20] [runs=2] [dir]}
 */
public final class RemoteBench {
  private RemoteBench() {}

  public static void main(String[] args) throws Exception {
    long rows = args.length > 0 ? Long.parseLong(args[0]) : 18_000_000L;
    int latency = args.length > 1 ? Integer.parseInt(args[1]) : 20;
    int runs = args.length > 2 ? Integer.parseInt(args[2]) : 2;
    Path dir = args.length > 3 ? Path.of(args[3]) : Files.createTempDirectory("travertine-remote-bench");
    try (S3ProxyFixture s3 = new S3ProxyFixture("bench-bucket")) {
      Map<String, String> props = new TreeMap<>(s3.properties());
      String columns = "(id BIGINT NOT NULL, a BIGINT, b DOUBLE, s VARCHAR) ORDER BY id";
      // Pseudo-random values: the table stays large after compression.
      String select = "SELECT number, number * 2654435761 - MOD(number * 40503, 99991) * 7919, "
          + "MOD(number * 2246822519, 1000003) * 0.001, 'k' || CAST(MOD(number * 3266489917, 1000000007) AS VARCHAR)"
          + " || '-' || CAST(MOD(number * 668265263, 998244353) AS VARCHAR) FROM TABLE(numbers(" + rows + "))";
      try (Connection c = connect(dir.resolve("load"), props)) {
        BenchSql.exec(c, "CREATE TABLE on_s3 " + columns + " SETTINGS storage = 's3://bench-bucket/warehouse'");
        BenchSql.exec(c, "CREATE TABLE on_disk " + columns);
        long t0 = System.nanoTime();
        BenchSql.exec(c, "INSERT INTO on_s3 " + select);
        BenchSql.exec(c, "INSERT INTO on_disk SELECT * FROM on_s3");
        BenchSql.exec(c, "OPTIMIZE TABLE on_s3 FINAL");
        BenchSql.exec(c, "OPTIMIZE TABLE on_disk FINAL");
        System.out.printf(Locale.ROOT, "# loaded %,d rows twice in %.1f s; remote table %,d bytes in %s parts%n", rows,
            (System.nanoTime() - t0) / 1e9, Long.parseLong(BenchSql.one(c, "SELECT sum(bytes_on_disk) FROM system.parts WHERE"
                + " \"table\" = 'on_s3'")), BenchSql.one(c, "SELECT count(*) FROM system.parts WHERE \"table\" = 'on_s3'"));
      }
      props.put("s3.test.latency_ms", Integer.toString(latency));
      System.out.printf(Locale.ROOT, "# %d ms injected per S3 request, %d cores, best of %d runs%n", latency,
          Runtime.getRuntime().availableProcessors(), runs);
      // All four columns (decoding dominates); b, stored as plain doubles (transferring bytes dominates); a, which
      // ORC's integer encoding shrinks to a few bytes per stripe (the requests' latency dominates).
      List<String> queries = List.of("SELECT count(*), sum(a), sum(b), min(s), max(s) FROM %s",
          "SELECT sum(b) FROM %s", "SELECT sum(a) FROM %s");
      try (Connection c = connect(dir.resolve("load"), props)) {
        for (String query : queries) {
          System.out.println("# " + String.format(query, "t"));
          measure(c, query, runs);
        }
      }
    }
  }

  /**
   * Runs the query on both tables for max_threads 1 and 2, prefetch off and on, with each {@code
   * filesystem_prefetches_limit} of the system property {@code bench.prefetch_ahead} (default: one stripe ahead
   * and the default, 200); prints the best run of each.
   */
  private static void measure(Connection c, String query, int runs) throws SQLException {
    String expected = null;
    List<String[]> configs = new ArrayList<>();
    for (String threads : List.of("1", "2")) {
      configs.add(new String[] {"on_s3", threads, "0", "0"});
      for (String ahead : System.getProperty("bench.prefetch_ahead", "1,200").split(",")) {
        configs.add(new String[] {"on_s3", threads, "1", ahead.strip()});
      }
      configs.add(new String[] {"on_disk", threads, "1", "200"});
    }
    for (String[] cfg : configs) {
      BenchSql.exec(c, "SET max_threads = " + cfg[1]);
      BenchSql.exec(c, "SET remote_filesystem_read_prefetch = " + cfg[2]);
      BenchSql.exec(c, "SET filesystem_prefetches_limit = " + cfg[3]);
      double best = Double.MAX_VALUE;
      long requests = 0;
      long bytes = 0;
      String result = null;
      for (int r = 0; r < runs; r++) {
        long q0 = BenchSql.event(c, "ReadRequests");
        long b0 = BenchSql.event(c, "ReadBytes");
        long t0 = System.nanoTime();
        result = BenchSql.one(c, String.format(query, cfg[0]));
        double s = (System.nanoTime() - t0) / 1e9;
        if (s < best) {
          best = s;
          requests = BenchSql.event(c, "ReadRequests") - q0;
          bytes = BenchSql.event(c, "ReadBytes") - b0;
        }
      }
      if (expected == null) {
        expected = result;
      } else if (!sameAnswer(expected, result)) {
        throw new IllegalStateException("Different answers: " + expected + " vs " + result);
      }
      System.out.printf(Locale.ROOT, "%-7s max_threads=%s prefetch=%-13s %6.2f s, %,6d requests, %,d bytes%n",
          cfg[0], cfg[1], cfg[2].equals("1") ? "on, " + cfg[3] + " ahead:" : "off:", best, requests, bytes);
    }
  }

  /** Equal, except that a DOUBLE sum may differ in its last digits with the summation order (threads). */
  private static boolean sameAnswer(String a, String b) {
    String[] x = a.split(", ");
    String[] y = b.split(", ");
    for (int i = 0; i < x.length; i++) {
      if (!x[i].equals(y[i])) {
        try {
          double p = Double.parseDouble(x[i]);
          double q = Double.parseDouble(y[i]);
          if (Math.abs(p - q) > 1e-9 * Math.max(Math.abs(p), Math.abs(q))) {
            return false;
          }
        } catch (NumberFormatException e) {
          return false;
        }
      }
    }
    return x.length == y.length;
  }

  private static Connection connect(Path dir, Map<String, String> props) throws SQLException {
    StringBuilder url = new StringBuilder("jdbc:travertine:" + dir);
    props.forEach((k, v) -> url.append(';').append(k).append('=').append(v));
    return DriverManager.getConnection(url.toString());
  }
}

package dev.travertine.server.tools;

import java.io.PrintStream;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * {@code travertine benchmark}: runs queries repeatedly from several connections and reports what
 * clickhouse-benchmark does — queries executed, QPS, RPS (rows read per second), MiB/s read,
 * result rows/s and result MiB/s, and latency percentiles — per query and overall. Rows and bytes
 * read come from the server's counters (system.events SelectedRows / ReadBytes), sampled
 * before and after the run, and so do the bytes its queries received from other nodes
 * (ExchangeReceivedBytes: parallel replicas). Settings ({@code --max_threads=2} on the command
 * line, as clickhouse-benchmark takes them) are SET on every connection before it runs queries.
 */
public final class Benchmark {
  /** What to run. */
  public record Options(String url, String user, String password, List<String> queries, long iterations,
      int concurrency, double seconds, int warmup, boolean json, Map<String, String> settings) {
    /** {@code settings}: SET in the order given ({@code readonly} last, since it forbids the SETs after it). */
    public Options {
      Map<String, String> ordered = new LinkedHashMap<>(settings);
      String readonly = ordered.remove("readonly");
      if (readonly != null) {
        ordered.put("readonly", readonly);
      }
      settings = java.util.Collections.unmodifiableMap(ordered);
      for (String name : settings.keySet()) {
        if (!name.matches("[A-Za-z_][A-Za-z0-9_.]*")) {
          throw new IllegalArgumentException("Not a setting name: " + name);
        }
      }
    }

    /** Without settings. */
    public Options(String url, String user, String password, List<String> queries, long iterations, int concurrency,
        double seconds, int warmup, boolean json) {
      this(url, user, password, queries, iterations, concurrency, seconds, warmup, json, Map.of());
    }
  }

  /** Measurements of one query (or all). */
  static final class Stats {
    final String query;
    final List<Long> latenciesNanos = new ArrayList<>();
    long resultRows;
    long resultBytes;
    long errors;

    Stats(String query) {
      this.query = query;
    }

    synchronized void add(long nanos, long rows, long bytes) {
      latenciesNanos.add(nanos);
      resultRows += rows;
      resultBytes += bytes;
    }
  }

  private Benchmark() {}

  /** The latency at each percentile, in seconds, by the nearest-rank method. */
  static Map<String, Double> percentiles(List<Long> nanos) {
    long[] s = nanos.stream().mapToLong(Long::longValue).sorted().toArray();
    Map<String, Double> out = new LinkedHashMap<>();
    double[] ps = {0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.9, 99.99};
    for (double p : ps) {
      String key = p == Math.rint(p) ? String.format(Locale.ROOT, "%.0f%%", p) : String.format(Locale.ROOT, "%s%%", p);
      if (s.length == 0) {
        out.put(key, 0.0);
        continue;
      }
      int idx = p == 0 ? 0 : (int) Math.ceil(p / 100.0 * s.length) - 1;
      out.put(key, s[Math.max(0, Math.min(s.length - 1, idx))] / 1e9);
    }
    return out;
  }

  /** Runs the benchmark; returns the process exit code. */
  public static int run(Options o, PrintStream out, PrintStream err) throws Exception {
    List<Stats> perQuery = new ArrayList<>();
    for (String q : o.queries()) {
      perQuery.add(new Stats(q));
    }
    // One connection for the whole run reads the server's counters (without the run's settings,
    // which could forbid that query) and keeps an embedded database (and its counters) open
    // between the measuring connections.
    try (Connection control = connect(o, false)) {
      return run(o, control, perQuery, out);
    }
  }

  private static int run(Options o, Connection control, List<Stats> perQuery, PrintStream out) throws Exception {
    // Warm-up: each query a few times, not measured, with the run's settings.
    if (o.warmup() > 0) {
      try (Connection warm = connect(o, true)) {
        for (int w = 0; w < o.warmup(); w++) {
          for (String q : o.queries()) {
            execute(warm, q);
          }
        }
      }
    }
    long[] before = serverCounters(control);
    AtomicLong next = new AtomicLong();
    long deadline = o.seconds() > 0 ? System.nanoTime() + (long) (o.seconds() * 1e9) : Long.MAX_VALUE;
    LongSupplier take = () -> {
      long n = next.getAndIncrement();
      return (o.iterations() > 0 && n >= o.iterations()) || System.nanoTime() > deadline ? -1 : n;
    };
    ExecutorService pool = Executors.newFixedThreadPool(o.concurrency());
    long start = System.nanoTime();
    try {
      List<Future<?>> fs = new ArrayList<>();
      for (int t = 0; t < o.concurrency(); t++) {
        fs.add(pool.submit(() -> {
          try (Connection c = connect(o, true)) {
            long n;
            while ((n = take.getAsLong()) >= 0) {
              Stats st = perQuery.get((int) (n % perQuery.size()));
              long t0 = System.nanoTime();
              long[] rb = execute(c, st.query);
              st.add(System.nanoTime() - t0, rb[0], rb[1]);
            }
          }
          return null;
        }));
      }
      for (Future<?> f : fs) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
    double elapsed = (System.nanoTime() - start) / 1e9;
    long[] after = serverCounters(control);
    long rowsRead = after[0] - before[0];
    long bytesRead = after[1] - before[1];
    long received = after[2] - before[2];
    Stats all = new Stats("all");
    for (Stats s : perQuery) {
      all.latenciesNanos.addAll(s.latenciesNanos);
      all.resultRows += s.resultRows;
      all.resultBytes += s.resultBytes;
    }
    long executed = all.latenciesNanos.size();
    if (o.json()) {
      out.println(json(o, perQuery, all, elapsed, rowsRead, bytesRead, received));
      return 0;
    }
    out.printf(Locale.ROOT, "Queries executed: %d.%n%n", executed);
    if (perQuery.size() > 1) {
      for (int i = 0; i < perQuery.size(); i++) {
        Stats s = perQuery.get(i);
        out.printf(Locale.ROOT, "Query %d: %s%n", i + 1, s.query);
        report(out, o, s, elapsed, -1, -1, 0);
      }
      out.println("All queries:");
    }
    report(out, o, all, elapsed, rowsRead, bytesRead, received);
    return 0;
  }

  /** {@code received}: bytes from other nodes (shown when there were any). */
  private static void report(PrintStream out, Options o, Stats s, double elapsed, long rowsRead, long bytesRead,
      long received) {
    long n = s.latenciesNanos.size();
    out.printf(Locale.ROOT, "%s, queries: %d, QPS: %.3f, %s%sresult RPS: %.3f, result MiB/s: %.3f.%n%n",
        o.url(), n, n / elapsed,
        rowsRead < 0 ? "" : String.format(Locale.ROOT, "RPS: %.3f, MiB/s: %.3f, ", rowsRead / elapsed,
            bytesRead / elapsed / 1048576.0),
        received <= 0 ? "" : String.format(Locale.ROOT, "received from replicas MiB/s: %.3f, ",
            received / elapsed / 1048576.0),
        s.resultRows / elapsed, s.resultBytes / elapsed / 1048576.0);
    for (Map.Entry<String, Double> e : percentiles(s.latenciesNanos).entrySet()) {
      out.printf(Locale.ROOT, "%s\t\t%.3f sec.%n", e.getKey(), e.getValue());
    }
    out.println();
  }

  private static String json(Options o, List<Stats> perQuery, Stats all, double elapsed, long rowsRead,
      long bytesRead, long received) {
    StringBuilder sb = new StringBuilder("{\"url\": \"").append(esc(o.url())).append("\", \"seconds\": ")
        .append(String.format(Locale.ROOT, "%.3f", elapsed)).append(", \"rows_read\": ").append(rowsRead)
        .append(", \"bytes_read\": ").append(bytesRead).append(", \"bytes_received\": ").append(received)
        .append(", \"queries\": [");
    List<Stats> list = new ArrayList<>(perQuery);
    list.add(all);
    for (int i = 0; i < list.size(); i++) {
      Stats s = list.get(i);
      sb.append(i > 0 ? ", " : "").append("{\"query\": \"").append(esc(s.query)).append("\", \"executed\": ")
          .append(s.latenciesNanos.size()).append(", \"qps\": ")
          .append(String.format(Locale.ROOT, "%.3f", s.latenciesNanos.size() / elapsed))
          .append(", \"result_rows\": ").append(s.resultRows).append(", \"percentiles_sec\": {");
      int k = 0;
      for (Map.Entry<String, Double> e : percentiles(s.latenciesNanos).entrySet()) {
        sb.append(k++ > 0 ? ", " : "").append('"').append(e.getKey()).append("\": ")
            .append(String.format(Locale.ROOT, "%.6f", e.getValue()));
      }
      sb.append("}}");
    }
    return sb.append("]}").toString();
  }

  private static String esc(String s) {
    return s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", " ");
  }

  /** A connection to the target; {@code withSettings}: the run's settings SET on it. */
  private static Connection connect(Options o, boolean withSettings) throws SQLException {
    java.util.Properties p = new java.util.Properties();
    if (o.user() != null) {
      p.setProperty("user", o.user());
      p.setProperty("password", o.password() == null ? "" : o.password());
    }
    Connection c = DriverManager.getConnection(o.url(), p);
    if (!withSettings) {
      return c;
    }
    try (Statement s = c.createStatement()) {
      for (Map.Entry<String, String> e : o.settings().entrySet()) {
        s.execute("SET " + e.getKey() + " = " + literal(e.getValue()));
      }
    } catch (SQLException e) {
      c.close();
      throw e;
    }
    return c;
  }

  /** A setting's value as SET takes it: a number as it is, anything else quoted. */
  static String literal(String value) {
    return value.matches("-?[0-9]+(\\.[0-9]+)?") ? value : "'" + value.replace("'", "''") + "'";
  }

  /** Runs a query to the end; returns {result rows, result bytes (approximate text size)}. */
  static long[] execute(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement()) {
      if (!s.execute(sql)) {
        return new long[] {0, 0};
      }
      try (ResultSet rs = s.getResultSet()) {
        ResultSetMetaData md = rs.getMetaData();
        int n = md.getColumnCount();
        long rows = 0;
        long bytes = 0;
        while (rs.next()) {
          rows++;
          for (int i = 1; i <= n; i++) {
            String v = rs.getString(i);
            bytes += v == null ? 1 : v.length();
          }
        }
        return new long[] {rows, bytes};
      }
    }
  }

  private static final List<String> COUNTERS = List.of("SelectedRows", "ReadBytes", "ExchangeReceivedBytes");

  /** {SelectedRows, ReadBytes, ExchangeReceivedBytes} from the server's system.events (0: none yet). */
  private static long[] serverCounters(Connection c) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT event, \"value\" FROM system.events WHERE event IN ('"
            + String.join("', '", COUNTERS) + "')")) {
      long[] v = new long[COUNTERS.size()];
      while (rs.next()) {
        v[COUNTERS.indexOf(rs.getString(1))] = rs.getLong(2);
      }
      return v;
    }
  }

  public static List<String> splitQueries(String text) {
    List<String> out = new ArrayList<>();
    for (String part : text.split(";\\s*(\\n|$)|\\n")) {
      String q = part.strip();
      if (q.endsWith(";")) {
        q = q.substring(0, q.length() - 1).strip();
      }
      if (!q.isEmpty() && !q.startsWith("--")) {
        out.add(q);
      }
    }
    return out;
  }

}

package dev.travertine.bench;

import dev.travertine.calcite.dml.TableLoad;
import dev.travertine.formats.BulkLoad;
import dev.travertine.formats.TextFormat;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Loading the ClickBench-like CSV ({@link HitsGenerator}, the file {@code bench/run clickbench}
 * keeps) into Travertine (embedded: the loader's path, {@link TableLoad}) and into DuckDB
 * ({@code INSERT INTO hits SELECT * FROM read_csv(…)}, then CHECKPOINT), in the same run, each
 * into a fresh database, {@code runs} times alternating; prints each time and the medians. For
 * Travertine also: part files right after the load, and the write amplification once background
 * merges have settled (bytes written by the load and the merges / bytes of the active parts).
 *
 * <p>The same file also goes to a real {@code travertine server} process through its HTTP insert
 * ({@code POST /?query=INSERT INTO hits FORMAT CSVWithNames}, the file streamed as the body by the
 * remote {@code bin/travertine load}'s code, {@link dev.travertine.server.tools.Loader}). The first
 * run of each Travertine JVM includes the JIT compiling the loader; later runs are what a running
 * server sees. Prints the first run and the median of the later ones, and the ratios to DuckDB's.
 *
 * <p>Usage: {@code IngestBench [rows=10000000] [threads=2] [runs=3] [dataDir|-]}; {@code -Dingest.duckdb=false},
 * {@code -Dingest.http=false} and {@code -Dingest.embedded=false} leave those out (for profiles).
 */
public final class IngestBench {
  private IngestBench() {}

  public static void main(String[] args) throws Exception {
    long rows = args.length > 0 ? Long.parseLong(args[0]) : 10_000_000L;
    int threads = args.length > 1 ? Integer.parseInt(args[1]) : 2;
    int runs = args.length > 2 ? Integer.parseInt(args[2]) : 3;
    Path dataDir = args.length > 3 && !args[3].equals("-") ? Path.of(args[3])
        : Path.of(System.getProperty("java.io.tmpdir"), "travertine-clickbench");
    dataDir = dataDir.toAbsolutePath();
    Files.createDirectories(dataDir);
    Path csv = dataDir.resolve("hits-" + rows + "-v" + HitsGenerator.VERSION + ".csv");
    if (!Files.exists(csv)) {
      long t0 = System.nanoTime();
      HitsGenerator.write(csv, rows);
      System.out.printf(Locale.ROOT, "# generated %s in %.1f s%n", csv.getFileName(), (System.nanoTime() - t0) / 1e9);
    }
    System.out.printf(Locale.ROOT, "# %s: %,d rows, %,d bytes; threads = %d; %d cores, Java %s%n", csv.getFileName(),
        rows, Files.size(csv), threads, Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"));
    List<Double> trav = new ArrayList<>();
    List<Double> http = new ArrayList<>();
    List<Double> duck = new ArrayList<>();
    boolean withDuck = Boolean.parseBoolean(System.getProperty("ingest.duckdb", "true"));
    boolean withHttp = Boolean.parseBoolean(System.getProperty("ingest.http", "true"));
    boolean withEmbedded = Boolean.parseBoolean(System.getProperty("ingest.embedded", "true"));
    try (ServerProcess server = withHttp ? ServerProcess.startTouched(dataDir.resolve("ingest-server"), threads,
        dataDir.resolve("ingest-server.log")) : null) {
      for (int run = 0; run < runs; run++) {
        if (withEmbedded) {
          trav.add(travertine(dataDir.resolve("ingest-travertine"), csv, rows, threads, run == runs - 1));
        }
        if (server != null) {
          http.add(load(server, csv, rows));
        }
        if (withDuck) {
          duck.add(duckdb(dataDir.resolve("ingest-duckdb.db"), csv, rows, threads));
        }
      }
    }
    System.out.println("# first run (JVM just started: the JIT compiles while it loads) and median of the later runs:");
    report("Travertine embedded", trav, duck);
    report("Travertine over HTTP", http, duck);
    report("DuckDB", duck, duck);
  }

  private static void report(String what, List<Double> times, List<Double> duck) {
    if (times.isEmpty()) {
      return;
    }
    double first = times.get(0);
    double later = times.size() > 1 ? BenchStats.median(times.subList(1, times.size())) : Double.NaN;
    String ratio = "";
    if (!duck.isEmpty()) {
      double dFirst = duck.get(0);
      double dLater = duck.size() > 1 ? BenchStats.median(duck.subList(1, duck.size())) : Double.NaN;
      ratio = String.format(Locale.ROOT, "; ratio to DuckDB %.2f first, %.2f later", first / dFirst, later / dLater);
    }
    System.out.printf(Locale.ROOT, "%s: first %.2f s, later %.2f s%s%n", what, first, later, ratio);
  }

  /** A fresh table on the server, then the CSV as one streamed HTTP insert; returns the seconds it took. */
  private static double load(ServerProcess server, Path csv, long rows) throws Exception {
    try (Connection c = server.connect()) {
      BenchSql.exec(c, "DROP TABLE IF EXISTS hits");
      BenchSql.exec(c, "CREATE TABLE hits " + HitsSchema.columnDefinitions() + " ENGINE = MergeTree ORDER BY ("
          + HitsSchema.SORT_KEY + ")");
      double serverCpu0 = server.cpuSeconds();
      long cpu0 = BenchStats.jvmCpuNanos();
      long t0 = System.nanoTime();
      // What `bin/travertine load --port P --table hits --format csv --header FILE` runs: the file
      // streamed as the body of the server's HTTP insert.
      java.io.ByteArrayOutputStream said = new java.io.ByteArrayOutputStream();
      java.io.PrintStream to = new java.io.PrintStream(said, true, java.nio.charset.StandardCharsets.UTF_8);
      int rc = dev.travertine.server.tools.Loader.run(new dev.travertine.server.tools.Loader.Options(
          "jdbc:avatica:remote:url=" + server.base() + ";serialization=protobuf", null, null, "hits", "csv", true, 0,
          0, List.of(csv), false), to, to);
      double secs = (System.nanoTime() - t0) / 1e9;
      double clientCpu = (BenchStats.jvmCpuNanos() - cpu0) / 1e9;
      double serverCpu = server.cpuSeconds() - serverCpu0;
      if (rc != 0) {
        throw new IllegalStateException("the load over HTTP failed: " + said.toString(java.nio.charset.StandardCharsets.UTF_8));
      }
      long n = Long.parseLong(BenchSql.one(c, "SELECT COUNT(*) FROM hits"));
      if (n != rows) {
        throw new IllegalStateException("the server loaded " + n + " rows, expected " + rows);
      }
      System.out.printf(Locale.ROOT, "Travertine over HTTP: %.2f s (%,.0f rows/s; CPU %.1f s in the server, %.1f s in"
          + " this JVM, whose loader sends the file)%n", secs, rows / secs, serverCpu, clientCpu);
      BenchSql.exec(c, "DROP TABLE hits"); // its merges would compete with the next load
      return secs;
    }
  }

  private static double travertine(Path dir, Path csv, long rows, int threads, boolean settle) throws Exception {
    HitsEngine.deleteAll(dir);
    try (Connection c = DriverManager.getConnection("jdbc:travertine:" + dir + ";max_threads=" + threads + System.getProperty("ingest.travertine", ""))) {
      BenchSql.exec(c, "CREATE TABLE hits " + HitsSchema.columnDefinitions() + " ENGINE = MergeTree ORDER BY ("
          + HitsSchema.SORT_KEY + ")");
      long written0 = BenchSql.event(c, "WriteBufferFromFileDescriptorWriteBytes");
      long cpu0 = BenchStats.jvmCpuNanos();
      long t0 = System.nanoTime();
      BulkLoad.Result r = TableLoad.load(c, new TableLoad.Request("hits", TextFormat.csv().withHeader(true), 0,
          List.of(BulkLoad.Source.file(csv)), null, null));
      double secs = (System.nanoTime() - t0) / 1e9;
      double cpu = (BenchStats.jvmCpuNanos() - cpu0) / 1e9;
      if (r.rows() != rows) {
        throw new IllegalStateException("loaded " + r.rows() + " rows, expected " + rows);
      }
      System.out.printf(Locale.ROOT, "Travertine: %.2f s (%,.0f rows/s, %.0f MB/s of CSV; CPU %.1f s), %d parts of %,d"
          + " bytes%n", secs, rows / secs, r.bytesRead() / secs / 1e6, cpu, r.parts(), r.partBytes());
      if (settle) {
        long t1 = System.nanoTime();
        while (Long.parseLong(BenchSql.one(c, "SELECT COUNT(*) FROM system.merges")) > 0
            || Long.parseLong(BenchSql.one(c, "SELECT COUNT(*) FROM system.parts WHERE \"table\" = 'hits' AND active"))
            > 1 && (System.nanoTime() - t1) < 20e9) {
          Thread.sleep(200);
        }
        long written = BenchSql.event(c, "WriteBufferFromFileDescriptorWriteBytes") - written0;
        long active = Long.parseLong(BenchSql.one(c,
            "SELECT SUM(bytes_on_disk) FROM system.parts WHERE \"table\" = 'hits' AND active"));
        long parts = Long.parseLong(BenchSql.one(c,
            "SELECT COUNT(*) FROM system.parts WHERE \"table\" = 'hits' AND active"));
        System.out.printf(Locale.ROOT, "Travertine after merges (%.0f s): %d active parts, %,d bytes; written %,d bytes:"
            + " write amplification %.2f%n", (System.nanoTime() - t1) / 1e9, parts, active, written,
            (double) written / active);
      } else {
        BenchSql.exec(c, "DROP TABLE hits"); // its merges would compete with the next load
      }
      return secs;
    }
  }

  private static double duckdb(Path file, Path csv, long rows, int threads) throws Exception {
    Files.deleteIfExists(file);
    Files.deleteIfExists(file.resolveSibling(file.getFileName() + ".wal"));
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + file)) {
      BenchSql.exec(c, "SET threads = " + threads);
      BenchSql.exec(c, "CREATE TABLE hits " + HitsSchema.columnDefinitions());
      long t0 = System.nanoTime();
      BenchSql.exec(c, "INSERT INTO hits SELECT * FROM read_csv('" + csv
          + "', header = true, delim = ',', quote = '\"', escape = '\"', allow_quoted_nulls = false, "
          + "dateformat = '%Y-%m-%d', timestampformat = '%Y-%m-%d %H:%M:%S', columns = "
          + HitsSchema.duckDbCsvColumns() + ")");
      BenchSql.exec(c, "CHECKPOINT");
      double secs = (System.nanoTime() - t0) / 1e9;
      long n = Long.parseLong(BenchSql.one(c, "SELECT COUNT(*) FROM hits"));
      if (n != rows) {
        throw new IllegalStateException("DuckDB loaded " + n + " rows, expected " + rows);
      }
      System.out.printf(Locale.ROOT, "DuckDB: %.2f s (%,.0f rows/s)%n", secs, rows / secs);
      return secs;
    }
  }
}

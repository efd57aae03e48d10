package dev.travertine.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A ClickBench-style comparison of Travertine and DuckDB in one run, on the same generated data
 * ({@link HitsGenerator}): both engines load the same CSV file (kept in the data directory under the
 * row count and the generator's version, as are both databases, for later runs), then each of
 * ClickBench's queries
 * ({@code clickbench-queries.sql}) runs once cold and {@code runs} times hot on each engine, the
 * engines alternating. Both engines' answers are compared. Prints a table (cold time, median hot
 * time per engine, their ratio, whether the answers match) and writes it as TSV, Markdown and an
 * SVG bar chart to the output directory ({@code -Dclickbench.out}, default {@code dataDir/results}).
 * A query that fails or exceeds {@code -Dclickbench.timeout} seconds (default 600) is reported and
 * the run goes on.
 *
 * <p>Usage: {@code ClickBench [rows=10000000] [runs=3] [threads=2] [dataDir] [queryFilter]}, where
 * dataDir {@code -} means the default ({@code java.io.tmpdir/travertine-clickbench}) and the filter
 * is {@code all} or query numbers and ranges, e.g. {@code 0,3,20-25}.
 *
 * <p>With {@code -Dclickbench.baseline=PROPERTY} the peer is Travertine itself with the system
 * property {@code PROPERTY} set to {@code false} during its runs (an engine switch read per query,
 * such as {@code travertine.scan.narrowDecode}, which the Travertine side then runs with as given:
 * {@code -Dtravertine.scan.narrowDecode=true}): the same database and JVM, the two sides' runs
 * alternating, so that a change is measured against its "off" side by side, with the JIT and the
 * page cache shared. DuckDB is not opened; the report's second columns are the baseline's.
 */
public final class ClickBench {
  private ClickBench() {}

  public static void main(String[] args) throws Exception {
    long rows = args.length > 0 ? Long.parseLong(args[0]) : 10_000_000L;
    int runs = args.length > 1 ? Integer.parseInt(args[1]) : 3;
    int threads = args.length > 2 ? Integer.parseInt(args[2]) : 2;
    Path dataDir = args.length > 3 && !args[3].equals("-") ? Path.of(args[3])
        : Path.of(System.getProperty("java.io.tmpdir"), "travertine-clickbench");
    Set<Integer> wanted = ClickBenchQueries.filter(args.length > 4 ? args[4] : "all");
    int timeout = Integer.getInteger("clickbench.timeout", 600);
    Path outDir = Path.of(System.getProperty("clickbench.out", dataDir.resolve("results").toString()));
    dataDir = dataDir.toAbsolutePath();
    Files.createDirectories(dataDir);
    Files.createDirectories(outDir);

    String key = rows + "-v" + HitsGenerator.VERSION;
    Path csv = dataDir.resolve("hits-" + key + ".csv");
    if (Files.exists(csv)) {
      System.out.printf(Locale.ROOT, "# reusing %s (%,d bytes)%n", csv, Files.size(csv));
    } else {
      long t0 = System.nanoTime();
      HitsGenerator.write(csv, rows);
      System.out.printf(Locale.ROOT, "# generated %s: %,d rows, %,d bytes in %.1f s%n", csv, rows, Files.size(csv),
          (System.nanoTime() - t0) / 1e9);
    }
    String baseline = System.getProperty("clickbench.baseline");
    if (baseline != null) {
      baseline(csv, dataDir.resolve("travertine-" + key), rows, runs, threads, wanted, timeout, outDir, baseline);
      return;
    }
    List<QueryOutcome> outcomes = new ArrayList<>();
    String context;
    try (HitsEngine trav = new TravertineHits(dataDir.resolve("travertine-" + key));
        HitsEngine duck = new DuckDbHits(dataDir.resolve("duckdb-" + key + ".db"));
        QueryRunner runner = new QueryRunner(timeout)) {
      for (HitsEngine e : List.of(trav, duck)) {
        e.open(csv, threads);
        long count = Long.parseLong(BenchSql.one(e.connection(), "SELECT COUNT(*) AS loaded FROM hits"));
        if (count != rows) {
          throw new IllegalStateException(e.name() + " has " + count + " rows in hits, expected " + rows
              + "; delete " + e.location() + " and its .loaded file to load it again");
        }
        System.out.printf(Locale.ROOT, "# %s: %s, %s%n", e.name(), e.loadNote(), size(e));
      }
      context = String.format(Locale.ROOT, "ClickBench-like hits, %,d rows, %d hot run%s, threads = %d; DuckDB %s; "
          + "%d cores, Java %s, %s", rows, runs, runs == 1 ? "" : "s", threads,
          BenchSql.one(duck.connection(), "SELECT version()"), Runtime.getRuntime().availableProcessors(),
          System.getProperty("java.version"), LocalDate.now());
      System.out.println("# " + context + "; timeout " + timeout + " s per query");
      System.out.println(ClickBenchReport.header());
      for (ClickBenchQueries.Query q : ClickBenchQueries.load(rows)) {
        if (wanted.contains(q.number())) {
          QueryOutcome o = measure(q, runner, trav.connection(), duck.connection(), runs);
          outcomes.add(o);
          System.out.println(ClickBenchReport.line(o));
        }
      }
      long cached = Long.parseLong(BenchSql.one(trav.connection(),
          "SELECT \"value\" FROM system.metrics WHERE metric = 'UncompressedCacheBytes'"));
      if (cached > 0) {
        System.out.printf(Locale.ROOT, "# Travertine's decoded-column cache holds %,d bytes (%s entries)%n", cached,
            BenchSql.one(trav.connection(), "SELECT \"value\" FROM system.metrics WHERE metric = 'UncompressedCacheCells'"));
      }
    }
    new ClickBenchReport(context, outcomes).finish(outDir, "clickbench-" + rows, String.format(Locale.ROOT,
        "ClickBench-like hits, %,d rows, threads = %d: hot median per query", rows, threads));
  }

  /** Travertine against itself with {@code property} set to {@code false} (see the class comment). */
  private static void baseline(Path csv, Path db, long rows, int runs, int threads, Set<Integer> wanted, int timeout,
      Path outDir, String property) throws Exception {
    List<QueryOutcome> outcomes = new ArrayList<>();
    String peer = "Travertine " + property + "=false";
    String context;
    try (HitsEngine trav = new TravertineHits(db); QueryRunner runner = new QueryRunner(timeout)) {
      trav.open(csv, threads);
      System.out.printf(Locale.ROOT, "# %s: %s, %s%n", trav.name(), trav.loadNote(), size(trav));
      context = String.format(Locale.ROOT, "ClickBench-like hits, %,d rows, %d hot run%s, threads = %d; Travertine "
          + "against itself with %s=false; %d cores, Java %s, %s", rows, runs, runs == 1 ? "" : "s", threads, property,
          Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"), LocalDate.now());
      System.out.println("# " + context + "; timeout " + timeout + " s per query");
      System.out.println(ClickBenchReport.header("off"));
      Engine on = sql -> runner.run(trav.connection(), sql);
      Engine off = sql -> {
        String before = System.getProperty(property); // what the Travertine side runs with (-D…=true, or unset)
        System.setProperty(property, "false");
        try {
          return runner.run(trav.connection(), sql);
        } finally {
          if (before == null) {
            System.clearProperty(property);
          } else {
            System.setProperty(property, before);
          }
        }
      };
      for (ClickBenchQueries.Query q : ClickBenchQueries.load(rows)) {
        if (wanted.contains(q.number())) {
          QueryOutcome o = measure(q, on, off, runs);
          outcomes.add(o);
          System.out.println(ClickBenchReport.line(o));
        }
      }
    }
    new ClickBenchReport(context, outcomes, peer).finish(outDir, "clickbench-" + rows + "-baseline",
        String.format(Locale.ROOT, "ClickBench-like hits, %,d rows, threads = %d: hot median per query, against %s",
            rows, threads, peer));
  }

  /** One side of a comparison: runs a query. */
  interface Engine {
    QueryRunner.Run run(String sql);
  }

  /** A cold run on each engine, then the hot runs alternating; then the answers compared. */
  static QueryOutcome measure(ClickBenchQueries.Query q, QueryRunner runner, Connection trav, Connection duck,
      int runs) {
    return measure(q, sql -> runner.run(trav, sql), sql -> runner.run(duck, sql), runs);
  }

  /** As above, over two engines as functions. */
  static QueryOutcome measure(ClickBenchQueries.Query q, Engine trav, Engine duck, int runs) {
    QueryRunner.Run travCold = trav.run(q.sql());
    QueryRunner.Run duckCold = duck.run(q.sql());
    List<Double> travHot = new ArrayList<>();
    List<Double> duckHot = new ArrayList<>();
    String travError = travCold.error();
    String duckError = duckCold.error();
    for (int r = 0; r < runs; r++) {
      if (travError == null) {
        QueryRunner.Run run = trav.run(q.sql());
        travError = run.error();
        travHot.add(run.millis());
      }
      if (duckError == null) {
        QueryRunner.Run run = duck.run(q.sql());
        duckError = run.error();
        duckHot.add(run.millis());
      }
    }
    QueryOutcome.Timing t = timing(travCold, travHot, travError);
    QueryOutcome.Timing d = timing(duckCold, duckHot, duckError);
    long rows = duckCold.rows() != null ? duckCold.rows().size()
        : travCold.rows() != null ? travCold.rows().size() : -1;
    if (t.failed() || d.failed()) {
      return new QueryOutcome(q.number(), t, d, QueryOutcome.Match.NOT_COMPARED, null, rows);
    }
    String diff = ResultComparison.difference(q, travCold.rows(), duckCold.rows());
    QueryOutcome.Match m = diff != null ? QueryOutcome.Match.MISMATCH
        : q.rowCountOnly() ? QueryOutcome.Match.ROW_COUNT : QueryOutcome.Match.YES;
    return new QueryOutcome(q.number(), t, d, m, diff, rows);
  }

  private static QueryOutcome.Timing timing(QueryRunner.Run cold, List<Double> hot, String error) {
    double coldMs = cold.failed() ? Double.NaN : cold.millis();
    if (error != null) {
      return new QueryOutcome.Timing(coldMs, Double.NaN, error);
    }
    return new QueryOutcome.Timing(coldMs, hot.isEmpty() ? coldMs : BenchStats.median(hot), null);
  }

  private static String size(HitsEngine e) throws Exception {
    if (e instanceof TravertineHits) {
      return String.format(Locale.ROOT, "%,d bytes in %s part(s)", Long.parseLong(BenchSql.one(e.connection(),
          "SELECT COALESCE(SUM(bytes_on_disk), 0) FROM system.parts WHERE \"table\" = 'hits'")),
          BenchSql.one(e.connection(), "SELECT COUNT(*) FROM system.parts WHERE \"table\" = 'hits'"));
    }
    return String.format(Locale.ROOT, "%,d bytes", Files.size(e.location()));
  }
}

package dev.travertine.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * TPC-H on Travertine and DuckDB in one run, on the same data: the generator's CSV files at scale
 * factor {@code sf} ({@link TpchData}, kept in the data directory for later runs, as are both
 * databases), loaded by each engine (Travertine: MergeTree tables sorted by primary key, merged),
 * then each of the 22 queries once cold and {@code runs} times hot on each engine, the engines
 * alternating, and both engines' answers compared. Prints the table of {@link ClickBenchReport}
 * and writes it as TSV, Markdown and an SVG chart to {@code -Dtpch.out} (default
 * {@code dataDir/results}). A query that fails or runs past {@code -Dtpch.timeout} seconds
 * (default 300) is reported and the run goes on.
 *
 * <p>Usage: {@code TpchBench [sf=1] [runs=3] [threads=2] [dataDir|-] [queries=all, e.g. 1,3,5-9]}.
 */
public final class TpchBench {
  private TpchBench() {}

  public static void main(String[] args) throws Exception {
    double sf = args.length > 0 ? Double.parseDouble(args[0]) : 1;
    int runs = args.length > 1 ? Integer.parseInt(args[1]) : 3;
    int threads = args.length > 2 ? Integer.parseInt(args[2]) : 2;
    Path dataDir = (args.length > 3 && !args[3].equals("-") ? Path.of(args[3])
        : Path.of(System.getProperty("java.io.tmpdir"), "travertine-tpch")).toAbsolutePath();
    Set<Integer> wanted = ClickBenchQueries.filter(args.length > 4 ? args[4] : "all");
    int timeout = Integer.getInteger("tpch.timeout", 300);
    Path outDir = Path.of(System.getProperty("tpch.out", dataDir.resolve("results").toString()));
    Files.createDirectories(dataDir);
    Files.createDirectories(outDir);

    Path csv = TpchData.csvDirectory(dataDir, sf);
    long t0 = System.nanoTime();
    TpchData.generate(sf, csv);
    System.out.printf(Locale.ROOT, "# TPC-H SF %s data in %s (%.1f s)%n", TpchData.scale(sf), csv,
        (System.nanoTime() - t0) / 1e9);
    String key = "sf" + TpchData.scale(sf) + "-v" + TpchData.VERSION;
    List<QueryOutcome> outcomes = new ArrayList<>();
    String context;
    try (Engine trav = new Engine("Travertine", dataDir.resolve("travertine-tpch-" + key), csv);
        Engine duck = new Engine("DuckDB", dataDir.resolve("duckdb-tpch-" + key + ".db"), csv);
        QueryRunner runner = new QueryRunner(timeout)) {
      for (Engine e : List.of(trav, duck)) {
        e.open(csv, threads);
        System.out.printf(Locale.ROOT, "# %s: %s, lineitem %s rows%n", e.name(), e.loadNote(),
            BenchSql.one(e.connection(), "SELECT count(*) FROM lineitem"));
      }
      context = String.format(Locale.ROOT, "TPC-H SF %s, %d hot run%s, threads = %d; DuckDB %s; %d cores, Java %s, %s",
          TpchData.scale(sf), runs, runs == 1 ? "" : "s", threads, BenchSql.one(duck.connection(), "SELECT version()"),
          Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"), LocalDate.now());
      long w0 = System.nanoTime();
      Path warmCsv = TpchData.csvDirectory(dataDir, WARM_UP_SF);
      TpchData.generate(WARM_UP_SF, warmCsv);
      for (Engine e : List.of(trav, duck)) {
        e.loadWarmUpTable(warmCsv.resolve("lineitem.csv"));
        warmUp(e.connection(), e == trav);
      }
      System.out.printf(Locale.ROOT, "# both engines warmed up (%.1f s): %d statements on nation, region and %s "
          + "(SF %s's lineitem), Travertine's cache dropped after each round, so a query's cold run is its first "
          + "in a warm JVM and no table it reads is cached%n",
          (System.nanoTime() - w0) / 1e9, WARM_UP_ROUNDS * WARM_UP.size(), WARM_UP_TABLE, TpchData.scale(WARM_UP_SF));
      System.out.println("# " + context + "; timeout " + timeout + " s per query");
      System.out.println(ClickBenchReport.header());
      for (int n = 1; n <= 22; n++) {
        if (wanted.contains(n)) {
          ClickBenchQueries.Query q = new ClickBenchQueries.Query(n, TpchData.query(n), TpchData.ordered(n), false);
          QueryOutcome o = ClickBench.measure(q, runner, trav.connection(), duck.connection(), runs);
          outcomes.add(o);
          System.out.println(ClickBenchReport.line(o));
        }
      }
    }
    new ClickBenchReport(context, outcomes).finish(outDir, "tpch-" + key, String.format(Locale.ROOT,
        "TPC-H SF %s, threads = %d: hot median per query", TpchData.scale(sf), threads));
  }

  /**
   * Statements that warm the JVM (class loading, the planner, code generation, joins, aggregation,
   * sorts, subqueries) on the two tiny tables and on a scratch table of lineitem's columns at a
   * small scale ({@link #WARM_UP_TABLE}), so that the engine's scan, decode and aggregation loops
   * have run over a few thousand batches, as in a server that has answered queries before. No
   * table a TPC-H query reads is scanned: the cold run of each query then measures that query's
   * planning, code generation and first reads, as the "first run in a warm JVM" asks, not
   * the JIT compiling the engine.
   */
  static final List<String> WARM_UP = List.of(
      "SELECT r_name, count(*) AS c, min(n_name) FROM nation JOIN region ON n_regionkey = r_regionkey "
          + "WHERE n_name LIKE '%A%' GROUP BY r_name ORDER BY r_name",
      "SELECT n_name, sum(n_nationkey) AS s FROM nation WHERE n_regionkey IN (SELECT r_regionkey FROM region "
          + "WHERE r_name <> 'ASIA') GROUP BY n_name ORDER BY s DESC, n_name LIMIT 3",
      "SELECT count(*) FROM nation n1 LEFT JOIN nation n2 ON n1.n_regionkey = n2.n_nationkey "
          + "WHERE NOT EXISTS (SELECT 1 FROM region WHERE r_regionkey = n1.n_nationkey)",
      "SELECT n_regionkey, sum(CAST(n_nationkey AS DECIMAL(15, 2)) * (1 - 0.05)) AS v FROM nation "
          + "WHERE n_nationkey > (SELECT avg(r_regionkey) FROM region) GROUP BY n_regionkey ORDER BY v DESC",
      "SELECT l_returnflag, l_linestatus, sum(l_quantity) AS q, sum(l_extendedprice * (1 - l_discount) * (1 + l_tax)) "
          + "AS c, avg(l_discount) AS d, count(*) AS n FROM warm_up_lineitem WHERE l_shipdate <= DATE '1998-09-01' "
          + "GROUP BY l_returnflag, l_linestatus ORDER BY l_returnflag, l_linestatus",
      "SELECT sum(l_extendedprice * l_discount) AS r FROM warm_up_lineitem WHERE l_shipdate >= DATE '1994-01-01' "
          + "AND l_shipdate < DATE '1995-01-01' AND l_discount BETWEEN 0.05 AND 0.07 AND l_quantity < 24",
      "SELECT n_name, count(*) AS c, sum(l_extendedprice) AS s FROM warm_up_lineitem JOIN nation "
          + "ON n_nationkey = l_linenumber WHERE l_shipmode IN ('AIR', 'MAIL') GROUP BY n_name ORDER BY s DESC LIMIT 5",
      "SELECT l_orderkey, l_comment FROM warm_up_lineitem WHERE l_comment LIKE '%ly%' "
          + "ORDER BY l_extendedprice DESC, l_orderkey LIMIT 10");

  /** The scratch table of the warm-up: lineitem's columns and key, the rows of {@link #WARM_UP_SF}. */
  static final String WARM_UP_TABLE = "warm_up_lineitem";
  static final double WARM_UP_SF = 0.1;

  static final int WARM_UP_ROUNDS = 10;

  /**
   * Runs the warm-up statements {@link #WARM_UP_ROUNDS} times; Travertine's decoded-column cache is
   * emptied after each round, so that every round decodes and fills it again (the path a cold
   * query takes) and no table is left cached for the queries.
   */
  private static void warmUp(Connection c, boolean travertine) throws SQLException {
    for (int round = 0; round < WARM_UP_ROUNDS; round++) {
      for (String sql : WARM_UP) {
        BenchSql.rows(c, sql);
      }
      if (travertine) {
        BenchSql.exec(c, "SYSTEM DROP UNCOMPRESSED CACHE");
      }
    }
  }

  /** One engine's TPC-H database, loaded the first time and reused by later runs. */
  private static final class Engine extends HitsEngine {
    private final Path csv;

    Engine(String name, Path location, Path csv) {
      super(name, location);
      this.csv = csv;
    }

    private boolean duck() {
      return name().equals("DuckDB");
    }

    @Override Connection connect() throws SQLException {
      return DriverManager.getConnection(duck() ? "jdbc:duckdb:" + location()
          : "jdbc:travertine:" + location() + TravertineHits.URL_SETTINGS);
    }

    @Override String load(Path ignored) throws Exception {
      if (duck()) {
        TpchData.loadDuckDb(connection(), csv);
        return "";
      }
      return TpchData.loadTravertine(connection(), csv);
    }

    /** (Re)creates the warm-up's scratch table from {@code csv} (SF 0.1's lineitem). */
    void loadWarmUpTable(Path csv) throws Exception {
      BenchSql.exec(connection(), "DROP TABLE IF EXISTS " + WARM_UP_TABLE);
      TpchData.Table lineitem = TpchData.table("lineitem");
      if (duck()) {
        TpchData.createAndLoadDuckDb(connection(), lineitem, WARM_UP_TABLE, csv);
      } else {
        TpchData.createAndLoadTravertine(connection(), lineitem, WARM_UP_TABLE, csv);
        BenchSql.exec(connection(), "OPTIMIZE TABLE " + WARM_UP_TABLE + " FINAL");
      }
    }

    @Override void setThreads(int threads) throws SQLException {
      BenchSql.exec(connection(), duck() ? "SET threads = " + threads : "SET max_threads = " + threads);
    }
  }
}

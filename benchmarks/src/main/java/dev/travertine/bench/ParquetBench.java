package dev.travertine.bench;

import dev.travertine.calcite.dml.TableLoad;
import dev.travertine.formats.BulkLoad;
import dev.travertine.formats.FileLoad;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Parquet against DuckDB on the ClickBench-like data ({@link HitsGenerator}): the CSV is turned
 * into one Parquet file by DuckDB's own writer (ZSTD, its default row groups), then, in the same
 * run and alternating, {@code runs} times: loading it into a fresh table (Travertine's
 * {@link FileLoad} through {@link TableLoad}; DuckDB's {@code INSERT … SELECT * FROM
 * read_parquet(…)} and CHECKPOINT), and two queries straight over the file: {@code count(*)} and
 * a GROUP BY (Travertine's {@code file()}; DuckDB's {@code read_parquet}). Answers are compared.
 * Prints each time, the medians of the runs after the first, and the ratios.
 *
 * <p>Usage: {@code ParquetBench [rows=10000000] [threads=2] [runs=3] [dataDir|-]}.
 */
public final class ParquetBench {
  private ParquetBench() {}

  private static final String GROUP_BY = "SELECT SearchEngineID, COUNT(*) AS c, SUM(ResolutionWidth) AS w FROM %s"
      + " GROUP BY SearchEngineID ORDER BY c DESC, SearchEngineID LIMIT 10";

  public static void main(String[] args) throws Exception {
    long rows = args.length > 0 ? Long.parseLong(args[0]) : 10_000_000L;
    int threads = args.length > 1 ? Integer.parseInt(args[1]) : 2;
    int runs = args.length > 2 ? Integer.parseInt(args[2]) : 3;
    Path dataDir = (args.length > 3 && !args[3].equals("-") ? Path.of(args[3])
        : Path.of(System.getProperty("java.io.tmpdir"), "travertine-clickbench")).toAbsolutePath();
    Files.createDirectories(dataDir);
    Path csv = dataDir.resolve("hits-" + rows + "-v" + HitsGenerator.VERSION + ".csv");
    if (!Files.exists(csv)) {
      HitsGenerator.write(csv, rows);
    }
    Path parquet = dataDir.resolve("hits-" + rows + "-v" + HitsGenerator.VERSION + ".parquet");
    if (!Files.exists(parquet)) {
      try (Connection c = DriverManager.getConnection("jdbc:duckdb:")) {
        BenchSql.exec(c, "SET threads = " + threads);
        BenchSql.exec(c, "COPY (SELECT * FROM read_csv('" + csv + "', header = true, delim = ',', quote = '\"',"
            + " escape = '\"', allow_quoted_nulls = false, dateformat = '%Y-%m-%d', timestampformat = "
            + "'%Y-%m-%d %H:%M:%S', columns = " + HitsSchema.duckDbCsvColumns() + ")) TO '" + parquet
            + "' (FORMAT parquet, COMPRESSION zstd)");
      }
    }
    System.out.printf(Locale.ROOT, "# %s: %,d rows, %,d bytes; threads = %d; %d cores, Java %s%n",
        parquet.getFileName(), rows, Files.size(parquet), threads, Runtime.getRuntime().availableProcessors(),
        System.getProperty("java.version"));
    Path tdir = dataDir.resolve("parquet-travertine");
    Path duckFile = dataDir.resolve("parquet-duckdb.db");
    List<Double> tLoad = new ArrayList<>();
    List<Double> dLoad = new ArrayList<>();
    List<Double> tCount = new ArrayList<>();
    List<Double> dCount = new ArrayList<>();
    List<Double> tGroup = new ArrayList<>();
    List<Double> dGroup = new ArrayList<>();
    HitsEngine.deleteAll(tdir);
    Files.createDirectories(tdir.resolve("user_files"));
    Path linked = tdir.resolve("user_files").resolve("hits.parquet");
    try {
      Files.createLink(linked, parquet);
    } catch (java.io.IOException | UnsupportedOperationException e) {
      Files.copy(parquet, linked);
    }
    String tFile = "TABLE(file('hits.parquet'))";
    String dFile = "read_parquet('" + parquet + "')";
    for (int run = 0; run < runs; run++) {
      try (Connection c = DriverManager.getConnection("jdbc:travertine:" + tdir + ";max_threads=" + threads)) {
        BenchSql.exec(c, "DROP TABLE IF EXISTS hits");
        BenchSql.exec(c, "CREATE TABLE hits " + HitsSchema.columnDefinitions() + " ENGINE = MergeTree ORDER BY ("
            + HitsSchema.SORT_KEY + ")");
        long t0 = System.nanoTime();
        BulkLoad.Result r = TableLoad.load(c, new TableLoad.FilesRequest("hits", FileLoad.Kind.PARQUET,
            List.of(FileLoad.Input.local(parquet)), null, null));
        double secs = (System.nanoTime() - t0) / 1e9;
        check(r.rows(), rows, "Travertine loaded");
        tLoad.add(secs);
        System.out.printf(Locale.ROOT, "Travertine load: %.2f s (%,.0f rows/s), %d parts%n", secs, rows / secs, r.parts());
        BenchSql.exec(c, "DROP TABLE hits"); // its merges would compete with what follows
        tCount.add(timed(c, "SELECT COUNT(*) FROM " + tFile, "Travertine count(*) over file()", String.valueOf(rows)));
        tGroup.add(timed(c, String.format(GROUP_BY, tFile), "Travertine GROUP BY over file()", null));
      }
      Files.deleteIfExists(duckFile);
      Files.deleteIfExists(duckFile.resolveSibling(duckFile.getFileName() + ".wal"));
      try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + duckFile)) {
        BenchSql.exec(c, "SET threads = " + threads);
        BenchSql.exec(c, "CREATE TABLE hits " + HitsSchema.columnDefinitions());
        long t0 = System.nanoTime();
        BenchSql.exec(c, "INSERT INTO hits SELECT * FROM " + dFile);
        BenchSql.exec(c, "CHECKPOINT");
        double secs = (System.nanoTime() - t0) / 1e9;
        check(Long.parseLong(BenchSql.one(c, "SELECT COUNT(*) FROM hits")), rows, "DuckDB loaded");
        dLoad.add(secs);
        System.out.printf(Locale.ROOT, "DuckDB load: %.2f s (%,.0f rows/s)%n", secs, rows / secs);
        BenchSql.exec(c, "DROP TABLE hits");
        dCount.add(timed(c, "SELECT COUNT(*) FROM " + dFile, "DuckDB count(*) over read_parquet", String.valueOf(rows)));
        dGroup.add(timed(c, String.format(GROUP_BY, dFile), "DuckDB GROUP BY over read_parquet", null));
      }
    }
    try (Connection t = DriverManager.getConnection("jdbc:travertine:" + tdir);
        Connection d = DriverManager.getConnection("jdbc:duckdb:")) {
      String a = String.join("\n", BenchSql.rows(t, String.format(GROUP_BY, tFile)));
      String b = String.join("\n", BenchSql.rows(d, String.format(GROUP_BY, dFile)));
      if (!a.equals(b)) {
        throw new IllegalStateException("GROUP BY answers differ:\nTravertine:\n" + a + "\nDuckDB:\n" + b);
      }
      System.out.println("# GROUP BY answers equal");
    }
    System.out.println("# median of the runs after the first (the first includes the JIT):");
    report("load", tLoad, dLoad);
    report("count(*) over the file", tCount, dCount);
    report("GROUP BY over the file", tGroup, dGroup);
  }

  private static void check(long got, long expected, String what) {
    if (got != expected) {
      throw new IllegalStateException(what + " " + got + " rows, expected " + expected);
    }
  }

  private static double timed(Connection c, String sql, String what, String expected) throws Exception {
    long t0 = System.nanoTime();
    List<String> r = BenchSql.rows(c, sql);
    double secs = (System.nanoTime() - t0) / 1e9;
    if (expected != null && !r.equals(List.of(expected))) {
      throw new IllegalStateException(what + ": " + r + ", expected " + expected);
    }
    System.out.printf(Locale.ROOT, "%s: %.3f s%n", what, secs);
    return secs;
  }

  private static void report(String what, List<Double> t, List<Double> d) {
    List<Double> tl = t.size() > 1 ? t.subList(1, t.size()) : t;
    List<Double> dl = d.size() > 1 ? d.subList(1, d.size()) : d;
    double a = BenchStats.median(tl);
    double b = BenchStats.median(dl);
    System.out.printf(Locale.ROOT, "%s: Travertine %.3f s, DuckDB %.3f s, ratio %.2f%n", what, a, b, a / b);
  }
}

package dev.travertine.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The foundation's benchmark harness: bulk INSERT … SELECT, full-scan aggregates, point query
 * on the key, JDBC batch insert and single-row INSERT statements, on an embedded database in a
 * fresh directory. Prints one line per measurement (rows/s or ms) for docs/benchmarks.md.
 *
 * <p>Usage: {@code FoundationBench [rows=10000000] [singleInserts=10000] [batchRows=1000000] [dir]}
 */
public final class FoundationBench {
  private FoundationBench() {}

  public static void main(String[] args) throws Exception {
    long rows = args.length > 0 ? Long.parseLong(args[0]) : 10_000_000L;
    int single = args.length > 1 ? Integer.parseInt(args[1]) : 10_000;
    int batchRows = args.length > 2 ? Integer.parseInt(args[2]) : 1_000_000;
    Path dir = args.length > 3 ? Path.of(args[3]) : Files.createTempDirectory("travertine-bench");
    System.out.printf(Locale.ROOT, "# data dir %s, %,d rows, %d cores, Java %s%n", dir, rows,
        Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"));
    try (Connection c = DriverManager.getConnection("jdbc:travertine:" + dir)) {
      String columns = "(k BIGINT NOT NULL, i INTEGER, d DOUBLE, s VARCHAR, dt DATE) ENGINE = MergeTree ORDER BY k";
      // Cheap expressions: what the engine ingests when Calcite's expression code is not the limit.
      String cheap = "SELECT number, CAST(MOD(number, 100) AS INTEGER), number * 0.5, "
          + "CASE MOD(number, 4) WHEN 0 THEN 'alpha' WHEN 1 THEN 'beta' WHEN 2 THEN 'gamma' ELSE 'delta' END, "
          + "TIMESTAMPADD(DAY, CAST(MOD(number, 365) AS INTEGER), DATE '2020-01-01') FROM TABLE(numbers(%d))";
      // String building per row: Calcite's CAST/concatenation code dominates.
      String strings = "SELECT number, CAST(MOD(number, 100) AS INTEGER), number * 0.5, "
          + "'s' || CAST(MOD(number, 1000) AS VARCHAR), "
          + "TIMESTAMPADD(DAY, CAST(MOD(number, 365) AS INTEGER), DATE '2020-01-01') FROM TABLE(numbers(%d))";
      BenchSql.exec(c, "CREATE TABLE warmup " + columns);
      BenchSql.exec(c, "INSERT INTO warmup " + String.format(cheap, 1_000_000));
      BenchSql.exec(c, "INSERT INTO warmup " + String.format(strings, 1_000_000));
      BenchSql.exec(c, "DROP TABLE warmup");
      BenchSql.exec(c, "CREATE TABLE bench " + columns);
      long t0 = System.nanoTime();
      BenchSql.exec(c, "INSERT INTO bench " + String.format(cheap, rows));
      report("insert_select", rows, System.nanoTime() - t0);
      BenchSql.exec(c, "CREATE TABLE bench_strings " + columns);
      long stringRows = Math.min(rows, 2_000_000);
      t0 = System.nanoTime();
      BenchSql.exec(c, "INSERT INTO bench_strings " + String.format(strings, stringRows));
      report("insert_select_string_building", stringRows, System.nanoTime() - t0);
      BenchSql.exec(c, "DROP TABLE bench_strings");
      t0 = System.nanoTime();
      BenchSql.exec(c, "OPTIMIZE TABLE bench FINAL");
      report("optimize_final", rows, System.nanoTime() - t0);

      query(c, "count", "SELECT count(*) FROM bench", rows);
      query(c, "sum", "SELECT sum(k), sum(d) FROM bench", rows);
      query(c, "group_by_low_card", "SELECT i, count(*), sum(d) FROM bench GROUP BY i", rows);
      // Point query on the key, warm: median of 50 runs.
      for (int i = 0; i < 10; i++) {
        scalar(c, "SELECT s FROM bench WHERE k = " + (i * 7919));
      }
      long[] times = new long[50];
      for (int i = 0; i < times.length; i++) {
        long t = System.nanoTime();
        scalar(c, "SELECT s FROM bench WHERE k = " + (rows / 2 + i * 104729 % rows));
        times[i] = System.nanoTime() - t;
      }
      Arrays.sort(times);
      System.out.printf(Locale.ROOT, "point_query_ms (new literal each time: planned) median=%.2f p90=%.2f%n",
          times[25] / 1e6, times[45] / 1e6);
      String same = "SELECT s FROM bench WHERE k = " + (rows / 3);
      scalar(c, same);
      for (int i = 0; i < times.length; i++) {
        long t = System.nanoTime();
        scalar(c, same);
        times[i] = System.nanoTime() - t;
      }
      Arrays.sort(times);
      System.out.printf(Locale.ROOT, "point_query_ms (same SQL: cached plan) median=%.2f p90=%.2f%n",
          times[25] / 1e6, times[45] / 1e6);

      BenchSql.exec(c, "CREATE TABLE batch (k BIGINT, v VARCHAR, x DOUBLE) ORDER BY k");
      t0 = System.nanoTime();
      try (PreparedStatement ps = c.prepareStatement("INSERT INTO batch VALUES (?, ?, ?)")) {
        int inBatch = 0;
        for (int i = 0; i < batchRows; i++) {
          ps.setLong(1, i);
          ps.setString(2, "v" + i);
          ps.setDouble(3, i * 1.5);
          ps.addBatch();
          if (++inBatch == 100_000) {
            ps.executeBatch();
            inBatch = 0;
          }
        }
        if (inBatch > 0) {
          ps.executeBatch();
        }
      }
      report("jdbc_batch_insert", batchRows, System.nanoTime() - t0);
      check(c, "SELECT count(*) FROM batch", batchRows);

      BenchSql.exec(c, "CREATE TABLE single (k BIGINT, v VARCHAR) ORDER BY k");
      t0 = System.nanoTime();
      try (Statement s = c.createStatement()) {
        for (int i = 0; i < single; i++) {
          s.executeUpdate("INSERT INTO single VALUES (" + i + ", 'row " + i + "')");
        }
      }
      long ns = System.nanoTime() - t0;
      System.out.printf(Locale.ROOT, "single_row_inserts count=%d total_s=%.2f per_insert_ms=%.3f%n", single,
          ns / 1e9, ns / 1e6 / single);
      check(c, "SELECT count(*) FROM single", single);
      BenchSql.exec(c, "SYSTEM FLUSH");
      Thread.sleep(2000); // let background merges run
      System.out.println("single_row_inserts active_parts=" + scalar(c,
          "SELECT count(*) FROM system.parts WHERE \"table\" = 'single'"));
    }
  }

  private static void query(Connection c, String name, String sql, long rows) throws SQLException {
    scalar(c, sql); // warm-up
    List<Long> ts = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      long t = System.nanoTime();
      scalar(c, sql);
      ts.add(System.nanoTime() - t);
    }
    ts.sort(null);
    report(name + " (median of 5)", rows, ts.get(2));
  }

  private static void report(String name, long rows, long ns) {
    System.out.printf(Locale.ROOT, "%s rows=%d seconds=%.3f rows_per_s=%.0f%n", name, rows, ns / 1e9,
        rows / (ns / 1e9));
  }


  private static String scalar(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      StringBuilder sb = new StringBuilder();
      while (rs.next()) {
        sb.append(rs.getString(1));
      }
      return sb.toString();
    }
  }

  private static void check(Connection c, String sql, long expected) throws SQLException {
    String v = scalar(c, sql);
    if (!v.equals(Long.toString(expected))) {
      throw new IllegalStateException(sql + " returned " + v + ", expected " + expected);
    }
  }
}

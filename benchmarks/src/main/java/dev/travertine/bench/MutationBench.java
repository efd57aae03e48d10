package dev.travertine.bench;

import dev.travertine.mergetree.MergeTreeTable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What mutations cost SELECTs (issue "mutations", ClickHouse PR #60856), on an embedded database:
 * three tables of the same rows, partitioned by {@code intDiv(id, rows/10)}:
 * <ul>
 *   <li>{@code a}: no mutation ever;</li>
 *   <li>{@code b}: 200 finished mutations (kept in the table's list), measured with the pending
 *       counter on and off (off = every read walks the mutation list, as before the PR);</li>
 *   <li>{@code c}: 5 pending mutations on the last partition's parts, which the queries do not
 *       read (its parts were written before the mutations, the others after).</li>
 * </ul>
 * Two queries, each run by {@code clients} threads in a loop for {@code seconds}, in interleaved
 * rounds (the order of the tables rotates each round): a {@code count(*) … WHERE} over a range of
 * the key and a point query on the key. Then
 * the rewrite throughput: an UPDATE of every row and a DELETE of 10 % with mutations_sync = 1.
 *
 * <p>Usage: {@code MutationBench [rows=10000000] [seconds=5] [rounds=3] [clients=2] [dir]}
 */
public final class MutationBench {
  private MutationBench() {}

  public static void main(String[] args) throws Exception {
    long rows = args.length > 0 ? Long.parseLong(args[0]) : 10_000_000L;
    int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
    int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 3;
    int clients = args.length > 3 ? Integer.parseInt(args[3]) : 2;
    Path dir = args.length > 4 ? Path.of(args[4]) : Files.createTempDirectory("travertine-mutation-bench");
    System.out.printf(Locale.ROOT, "# data dir %s, %,d rows per table, %d clients, %d s x %d rounds, %d cores%n",
        dir, rows, clients, seconds, rounds, Runtime.getRuntime().availableProcessors());
    String url = "jdbc:travertine:" + dir;
    long perPartition = rows / 10;
    try (Connection c = DriverManager.getConnection(url)) {
      for (String t : List.of("a", "b", "c")) {
        BenchSql.exec(c, "CREATE TABLE " + t + " (id BIGINT NOT NULL, v INTEGER, s VARCHAR) ORDER BY id "
            + "PARTITION BY intDiv(id, " + perPartition + ") SETTINGS finished_mutations_to_keep = 1000");
      }
      BenchSql.exec(c, "INSERT INTO a " + rowsSql(0, rows));
      BenchSql.exec(c, "INSERT INTO b " + rowsSql(0, rows));
      BenchSql.exec(c, "OPTIMIZE TABLE a FINAL");
      BenchSql.exec(c, "OPTIMIZE TABLE b FINAL");
      BenchSql.exec(c, "SET mutations_sync = 1");
      long t0 = System.nanoTime();
      for (int i = 0; i < 200; i++) {
        BenchSql.exec(c, "ALTER TABLE b UPDATE v = 0 WHERE id < -" + (i + 1)); // matches nothing: parts only re-versioned
      }
      System.out.printf(Locale.ROOT, "finished_mutations_setup: 200 mutations in %.1f s%n",
          (System.nanoTime() - t0) / 1e9);
      // c: the last partition first, then 5 mutations on it, then the rest (newer than the mutations).
      BenchSql.exec(c, "SET mutations_sync = 0");
      BenchSql.exec(c, "SYSTEM STOP MERGES c");
      BenchSql.exec(c, "INSERT INTO c " + rowsSql(rows - perPartition, perPartition));
      for (int i = 0; i < 5; i++) {
        BenchSql.exec(c, "ALTER TABLE c UPDATE v = v + 1 WHERE id >= " + (rows - perPartition));
      }
      BenchSql.exec(c, "INSERT INTO c " + rowsSql(0, rows - perPartition));
      // Merges stay stopped on c (so the worker leaves the last partition pending); OPTIMIZE FINAL
      // still merges partitions of several parts, and the last one has a single part.
      BenchSql.exec(c, "OPTIMIZE TABLE c FINAL");
      System.out.println("pending: " + BenchSql.one(c, "SELECT count(*) FROM system.mutations WHERE \"table\" = 'c'"
          + " AND NOT is_done") + " in c, finished: " + BenchSql.one(c, "SELECT count(*) FROM system.mutations WHERE"
          + " \"table\" = 'b' AND is_done") + " in b");
    }
    long lo = rows / 4;
    long hi = lo + rows / 20;
    Map<String, String> queries = new LinkedHashMap<>();
    queries.put("count_where", "SELECT count(*) FROM %s WHERE id BETWEEN " + lo + " AND " + hi + " AND v < 50");
    queries.put("point", "SELECT v, s FROM %s WHERE id = " + (rows / 3));
    Map<String, List<Double>> qps = new LinkedHashMap<>();
    String[][] configs = {{"a", "a (no mutations)", "on"}, {"b", "b (200 finished)", "on"},
        {"b", "b (200 finished, counter off)", "off"}, {"c", "c (5 pending, other parts)", "on"}};
    for (int round = 0; round <= rounds; round++) { // round 0 warms up and is not recorded
      for (Map.Entry<String, String> q : queries.entrySet()) {
        for (int k = 0; k < configs.length; k++) {
          String[] cfg = configs[(k + round) % configs.length]; // rotated: no config always runs first
          MergeTreeTable.setPendingMutationCounterEnabled(cfg[2].equals("on"));
          double r = run(url, String.format(q.getValue(), cfg[0]), clients, round == 0 ? 1 : seconds);
          if (round > 0) {
            qps.computeIfAbsent(q.getKey() + " | " + cfg[1], key -> new ArrayList<>()).add(r);
          }
        }
      }
      MergeTreeTable.setPendingMutationCounterEnabled(true);
    }
    for (String q : queries.keySet()) {
      double base = BenchStats.median(qps.get(q + " | " + configs[0][1]));
      for (String[] cfg : configs) {
        List<Double> all = qps.get(q + " | " + cfg[1]);
        System.out.printf(Locale.ROOT, "%-12s %-32s median QPS %9.1f  (%5.1f %% of a)  rounds %s%n", q, cfg[1],
            BenchStats.median(all), 100 * BenchStats.median(all) / base, all.stream().map(d -> String.format(Locale.ROOT, "%.1f", d))
                .toList());
      }
    }
    try (Connection c = DriverManager.getConnection(url)) {
      BenchSql.exec(c, "SET mutations_sync = 1");
      long t0 = System.nanoTime();
      BenchSql.exec(c, "ALTER TABLE a UPDATE v = v + 1 WHERE id >= 0");
      double s = (System.nanoTime() - t0) / 1e9;
      System.out.printf(Locale.ROOT, "rewrite_update_all: %,d rows in %.2f s = %,.0f rows/s%n", rows, s, rows / s);
      t0 = System.nanoTime();
      BenchSql.exec(c, "DELETE FROM a WHERE MOD(id, 10) = 0");
      s = (System.nanoTime() - t0) / 1e9;
      System.out.printf(Locale.ROOT, "rewrite_delete_10pct: %,d rows in %.2f s = %,.0f rows/s%n", rows, s, rows / s);
      System.out.println("check: " + BenchSql.one(c, "SELECT count(*) FROM a"));
    }
  }

  private static String rowsSql(long from, long n) {
    return "SELECT number + " + from + ", CAST(MOD(number, 100) AS INTEGER), 's' || CAST(MOD(number, 1000) AS"
        + " VARCHAR) FROM TABLE(numbers(" + n + "))";
  }

  /** Queries per second of {@code clients} threads running {@code sql} in a loop (own connections). */
  private static double run(String url, String sql, int clients, int seconds) throws Exception {
    AtomicLong done = new AtomicLong();
    AtomicBoolean stop = new AtomicBoolean();
    List<Thread> threads = new ArrayList<>();
    List<Exception> errors = new ArrayList<>();
    for (int i = 0; i < clients; i++) {
      Thread t = new Thread(() -> {
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
          for (int w = 0; w < 20; w++) {
            drain(s, sql); // warm the plan cache and the JIT
          }
          while (!stop.get()) {
            drain(s, sql);
            done.incrementAndGet();
          }
        } catch (Exception e) {
          synchronized (errors) {
            errors.add(e);
          }
        }
      });
      threads.add(t);
      t.start();
    }
    Thread.sleep(500);
    long start = done.get();
    long t0 = System.nanoTime();
    Thread.sleep(seconds * 1000L);
    long n = done.get() - start;
    double elapsed = (System.nanoTime() - t0) / 1e9;
    stop.set(true);
    for (Thread t : threads) {
      t.join();
    }
    if (!errors.isEmpty()) {
      throw errors.get(0);
    }
    return n / elapsed;
  }

  private static void drain(Statement s, String sql) throws SQLException {
    try (ResultSet rs = s.executeQuery(sql)) {
      while (rs.next()) {
        rs.getObject(1);
      }
    }
  }


}

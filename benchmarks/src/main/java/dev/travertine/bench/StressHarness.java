package dev.travertine.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The stress harness: {@code clients} connections to a real {@code travertine server} process for
 * {@code minutes}, each on a table of its own that it changes at random — multi-row and single-row
 * INSERTs, UPDATE and DELETE mutations, OPTIMIZE FINAL, ALTER TABLE ADD/DROP COLUMN — and checks
 * after every step against an in-memory model of that table (row count, sum of the values, and
 * every row after every tenth step); now and then one client KILLs another's running SELECT. All
 * clients share the server (merges, the insert buffer, the scan pool), so each check also proves
 * that the others' work left its table alone. Reports operations, errors, wrong answers and
 * latency percentiles.
 *
 * <p>Usage: {@code StressHarness [clients=8] [minutes=10] [seed=1] [dataDir|-]}; exits 1 on any
 * error or wrong answer (a killed query's error is expected and not counted).
 */
public final class StressHarness {
  private final ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
  private final AtomicLong ops = new AtomicLong();
  private final AtomicLong kills = new AtomicLong();
  private final AtomicLong refusals = new AtomicLong();
  private final ConcurrentLinkedQueue<Long> latencies = new ConcurrentLinkedQueue<>();

  public static void main(String[] args) throws Exception {
    int clients = args.length > 0 ? Integer.parseInt(args[0]) : 8;
    double minutes = args.length > 1 ? Double.parseDouble(args[1]) : 10;
    long seed = args.length > 2 ? Long.parseLong(args[2]) : 1;
    Path dir = (args.length > 3 && !args[3].equals("-") ? Path.of(args[3])
        : Path.of(System.getProperty("java.io.tmpdir"), "travertine-stress")).toAbsolutePath();
    Files.createDirectories(dir);
    StressHarness h = new StressHarness();
    long end = System.nanoTime() + (long) (minutes * 60e9);
    try (ServerProcess server = ServerProcess.start(dir.resolve("db"), 2, dir.resolve("stress-server.log"))) {
      List<Thread> threads = new ArrayList<>();
      for (int i = 0; i < clients; i++) {
        int id = i;
        Thread t = new Thread(() -> h.client(server, id, new Random(seed * 1000 + id), end), "client-" + i);
        threads.add(t);
        t.start();
      }
      for (Thread t : threads) {
        t.join();
      }
      if (!server.alive()) {
        h.failures.add("the server process died");
      }
    }
    List<Long> l = new ArrayList<>(h.latencies);
    Collections.sort(l);
    System.out.printf(Locale.ROOT, "# %d clients for %.1f min (seed %d)%n", clients, minutes, seed);
    System.out.printf(Locale.ROOT, "operations %d, KILLs %d, column ALTERs refused while mutations ran %d,"
        + " errors and wrong answers %d%n", h.ops.get(), h.kills.get(), h.refusals.get(), h.failures.size());
    if (!l.isEmpty()) {
      System.out.printf(Locale.ROOT, "latency ms: p50 %.1f, p90 %.1f, p99 %.1f, max %.1f%n", pct(l, 0.5), pct(l, 0.9),
          pct(l, 0.99), l.get(l.size() - 1) / 1e6);
    }
    h.failures.stream().limit(40).forEach(f -> System.out.println("FAIL " + f));
    System.exit(h.failures.isEmpty() ? 0 : 1);
  }

  private static double pct(List<Long> sorted, double p) {
    return sorted.get(Math.min(sorted.size() - 1, (int) (p * sorted.size()))) / 1e6;
  }

  /** One client: its table {@code s<id>} and the model of it, id → value. */
  private void client(ServerProcess server, int id, Random rnd, long end) {
    String t = "s" + id;
    TreeMap<Long, Long> model = new TreeMap<>();
    long nextId = 0;
    boolean extra = false;
    int step = 0;
    try (Connection c = server.connect(); Statement s = c.createStatement()) {
      timed(s, "CREATE TABLE " + t + " (id BIGINT NOT NULL, v BIGINT NOT NULL) ORDER BY id");
      while (System.nanoTime() < end) {
        int k = rnd.nextInt(100);
        String sql;
        if (k < 30) {
          int n = 1 + rnd.nextInt(k < 10 ? 1 : 2000);
          StringBuilder sb = new StringBuilder("INSERT INTO " + t + (extra ? " (id, v)" : "") + " VALUES ");
          for (int i = 0; i < n; i++) {
            long v = rnd.nextInt(1000);
            sb.append(i > 0 ? ", " : "").append('(').append(nextId).append(", ").append(v).append(')');
            model.put(nextId++, v);
          }
          sql = sb.toString();
        } else if (k < 45) {
          long m = 2 + rnd.nextInt(9);
          long r = rnd.nextInt((int) m);
          long add = rnd.nextInt(100);
          sql = "ALTER TABLE " + t + " UPDATE v = v + " + add + " WHERE MOD(id, " + m + ") = " + r;
          for (var e : model.entrySet()) {
            if (e.getKey() % m == r) {
              e.setValue(e.getValue() + add);
            }
          }
        } else if (k < 55) {
          long m = 5 + rnd.nextInt(20);
          long r = rnd.nextInt((int) m);
          sql = "DELETE FROM " + t + " WHERE MOD(id, " + m + ") = " + r + " AND v < " + rnd.nextInt(1000);
          long below = Long.parseLong(sql.substring(sql.lastIndexOf('<') + 1).trim());
          model.entrySet().removeIf(e -> e.getKey() % m == r && e.getValue() < below);
        } else if (k < 60) {
          sql = "OPTIMIZE TABLE " + t + " FINAL";
        } else if (k < 64) {
          try {
            timed(s, extra ? "ALTER TABLE " + t + " DROP COLUMN x" : "ALTER TABLE " + t + " ADD COLUMN x VARCHAR");
            extra = !extra;
          } catch (SQLException e) {
            // refused, clearly, while mutations of the table are unfinished: nothing changed
            if (!String.valueOf(e.getMessage()).contains("mutations are unfinished")) {
              throw e;
            }
            refusals.incrementAndGet();
          }
          sql = null;
        } else if (k < 67) {
          killSomeone(s, rnd);
          continue;
        } else {
          sql = null; // a query only
        }
        if (sql != null) {
          timed(s, sql);
        }
        step++;
        check(s, t, model, step % 10 == 0);
      }
      timed(s, "DROP TABLE " + t);
    } catch (SQLException | RuntimeException e) {
      failures.add(t + ": " + e);
    }
  }

  /** KILL QUERY of another client's running statement, if there is one (its SQLException is expected then). */
  private void killSomeone(Statement s, Random rnd) throws SQLException {
    List<String> ids = new ArrayList<>();
    // only SELECTs: a write killed after its commit would leave the client unsure whether it happened
    try (ResultSet rs = s.executeQuery("SELECT query_id FROM system.processes WHERE query LIKE 'SELECT%'"
        + " AND query NOT LIKE '%system.processes%'")) {
      while (rs.next()) {
        ids.add(rs.getString(1));
      }
    }
    if (!ids.isEmpty() && rnd.nextInt(4) == 0) {
      kills.incrementAndGet();
      s.execute("KILL QUERY WHERE query_id = '" + ids.get(rnd.nextInt(ids.size())) + "'");
    }
  }

  private void timed(Statement s, String sql) throws SQLException {
    for (int attempt = 0; ; attempt++) {
      long t0 = System.nanoTime();
      try {
        s.execute(sql);
        latencies.add(System.nanoTime() - t0);
        ops.incrementAndGet();
        return;
      } catch (SQLException e) {
        // a KILL from another client: the statement did nothing (mutations and inserts are atomic), run it again
        if (attempt < 3 && String.valueOf(e.getMessage()).contains("cancelled")) {
          continue;
        }
        throw e;
      }
    }
  }

  private void check(Statement s, String t, TreeMap<Long, Long> model, boolean everyRow) throws SQLException {
    long sum = model.values().stream().mapToLong(Long::longValue).sum();
    String want = model.size() + " " + (model.isEmpty() ? "null" : String.valueOf(sum));
    String got = query(s, "SELECT COUNT(*), SUM(v) FROM " + t);
    if (!want.equals(got)) {
      failures.add(t + ": expected count/sum " + want + ", got " + got);
      throw new SQLException("wrong answer; this client stops");
    }
    if (everyRow) {
      for (int attempt = 0; ; attempt++) {
        try (PreparedStatement ps = s.getConnection().prepareStatement("SELECT id, v FROM " + t + " ORDER BY id");
            ResultSet rs = ps.executeQuery()) {
          var it = model.entrySet().iterator();
          while (rs.next()) {
            var e = it.hasNext() ? it.next() : null;
            if (e == null || e.getKey() != rs.getLong(1) || e.getValue() != rs.getLong(2)) {
              failures.add(t + ": row " + rs.getLong(1) + " = " + rs.getLong(2) + ", the model has " + e);
              throw new SQLException("wrong answer; this client stops");
            }
          }
          if (it.hasNext()) {
            failures.add(t + ": the table lacks the model's row " + it.next());
            throw new SQLException("wrong answer; this client stops");
          }
          ops.incrementAndGet();
          return;
        } catch (RuntimeException e) {
          // Avatica's client reports an error of a later fetch (here a KILL from another client)
          // as a runtime exception out of ResultSet.next(), not as an SQLException
          if (attempt < 3 && String.valueOf(e.getMessage()).contains("cancelled")) {
            continue;
          }
          throw e;
        }
      }
    }
  }

  private String query(Statement s, String sql) throws SQLException {
    for (int attempt = 0; ; attempt++) {
      long t0 = System.nanoTime();
      try (ResultSet rs = s.executeQuery(sql)) {
        rs.next();
        String r = rs.getString(1) + " " + rs.getString(2);
        latencies.add(System.nanoTime() - t0);
        ops.incrementAndGet();
        return r;
      } catch (SQLException e) {
        if (attempt < 3 && String.valueOf(e.getMessage()).contains("cancelled")) {
          continue;
        }
        throw e;
      }
    }
  }
}

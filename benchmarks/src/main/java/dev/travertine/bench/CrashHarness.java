package dev.travertine.bench;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The crash harness: a real {@code travertine server} process is killed with SIGKILL at random
 * moments while a client inserts (small batches through the write-ahead log, large ones as parts),
 * loads CSV through the HTTP insert, updates and deletes whole batches (mutations) and runs
 * OPTIMIZE FINAL (merges); then it is started again on the same data directory and checked:
 * <ul>
 *   <li>every batch whose INSERT or load was acknowledged is there, whole, exactly once;</li>
 *   <li>a batch in flight at the kill is there whole or not at all (no torn or duplicated rows);</li>
 *   <li>every acknowledged UPDATE shows (one value across the batch's rows: the last acknowledged,
 *       or the one in flight), every acknowledged DELETE removed its batch.</li>
 * </ul>
 * Usage: {@code CrashHarness [cycles=100] [seed=1] [dataDir|-]}; prints each failure, the counts
 * and exits 1 if any check failed.
 */
public final class CrashHarness {
  private final Random rnd;
  /** Acknowledged batches: id → rows. */
  private final Map<Long, Integer> batches = new HashMap<>();
  /** Batches whose insert was in flight at a kill: id → rows (whole or absent). */
  private final Map<Long, Integer> uncertain = new HashMap<>();
  /** The value each batch's rows hold (after its acknowledged UPDATEs). */
  private final Map<Long, String> values = new HashMap<>();
  /** A value an UPDATE in flight at a kill may have left instead. */
  private final Map<Long, String> maybeValues = new HashMap<>();
  private final Set<Long> deleted = new HashSet<>();
  private final Set<Long> maybeDeleted = new HashSet<>();
  private final List<String> failures = new ArrayList<>();
  private final Map<String, Integer> ops = new java.util.TreeMap<>();
  private long nextBatch = 1;
  private long nextMarker = 1;

  private CrashHarness(Random rnd) {
    this.rnd = rnd;
  }

  public static void main(String[] args) throws Exception {
    int cycles = args.length > 0 ? Integer.parseInt(args[0]) : 100;
    long seed = args.length > 1 ? Long.parseLong(args[1]) : 1;
    Path dir = (args.length > 2 && !args[2].equals("-") ? Path.of(args[2])
        : Path.of(System.getProperty("java.io.tmpdir"), "travertine-crash")).toAbsolutePath();
    Files.createDirectories(dir);
    Path data = dir.resolve("db");
    Path log = dir.resolve("crash-server.log");
    Files.deleteIfExists(log);
    CrashHarness h = new CrashHarness(new Random(seed));
    long t0 = System.nanoTime();
    ServerProcess server = ServerProcess.start(data, 2, log);
    try (Connection c = server.connect(); Statement s = c.createStatement()) {
      s.execute("CREATE TABLE c (id BIGINT NOT NULL, batch BIGINT NOT NULL, v VARCHAR) ORDER BY id");
    }
    for (int cycle = 0; cycle < cycles; cycle++) {
      h.work(server, 300 + h.rnd.nextInt(2700));
      server.kill();
      server = ServerProcess.restart(data, 2, log);
      h.check(server, cycle);
    }
    server.close();
    System.out.printf(Locale.ROOT, "# %d kill/restart cycles in %.0f s (seed %d)%n", cycles, (System.nanoTime() - t0) / 1e9,
        seed);
    h.ops.forEach((k, v) -> System.out.printf(Locale.ROOT, "%-22s %6d%n", k, v));
    System.out.printf(Locale.ROOT, "batches present %d, rows %d%nfailures %d%n", h.batches.size(),
        h.batches.values().stream().mapToLong(Integer::longValue).sum(), h.failures.size());
    h.failures.stream().limit(50).forEach(f -> System.out.println("FAIL " + f));
    System.exit(h.failures.isEmpty() ? 0 : 1);
  }

  /** Operations until {@code millis} have passed (the kill then comes while one runs). */
  private void work(ServerProcess server, int millis) throws Exception {
    AtomicBoolean stop = new AtomicBoolean();
    Thread killer = new Thread(() -> {
      try {
        Thread.sleep(millis);
      } catch (InterruptedException e) {
        return;
      }
      stop.set(true);
      try {
        server.kill();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    });
    killer.start();
    try (Connection c = server.connect(); Statement s = c.createStatement()) {
      while (!stop.get()) {
        int k = rnd.nextInt(100);
        if (k < 35) {
          insert(s, 1 + rnd.nextInt(50), "insert small");
        } else if (k < 55) {
          insert(s, 20_000 + rnd.nextInt(30_000), "insert large");
        } else if (k < 70) {
          load(server, 5_000 + rnd.nextInt(20_000));
        } else if (k < 82) {
          update(s);
        } else if (k < 90) {
          delete(s);
        } else {
          op("optimize final");
          s.execute("OPTIMIZE TABLE c FINAL");
        }
      }
    } catch (SQLException | java.io.IOException e) {
      // the kill: whatever was in flight is uncertain (recorded before each call)
    } finally {
      killer.join();
    }
  }

  private void op(String name) {
    ops.merge(name, 1, Integer::sum);
  }

  private void insert(Statement s, int rows, String name) throws SQLException {
    op(name);
    long b = nextBatch++;
    StringBuilder sb = new StringBuilder("INSERT INTO c SELECT ").append(b).append(" * 1000000 + number, ").append(b)
        .append(", 'v0' FROM TABLE(numbers(").append(rows).append("))");
    uncertain.put(b, rows);
    values.put(b, "v0");
    s.executeUpdate(sb.toString());
    uncertain.remove(b);
    batches.put(b, rows);
  }

  private void load(ServerProcess server, int rows) throws Exception {
    op("http load");
    long b = nextBatch++;
    StringBuilder csv = new StringBuilder();
    for (int i = 0; i < rows; i++) {
      csv.append(b * 1_000_000 + i).append(',').append(b).append(",v0\n");
    }
    uncertain.put(b, rows);
    values.put(b, "v0");
    HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(server.base()
        + "?query=" + URLEncoder.encode("INSERT INTO c FORMAT CSV", StandardCharsets.UTF_8)))
        .POST(HttpRequest.BodyPublishers.ofString(csv.toString())).build(), HttpResponse.BodyHandlers.ofString());
    if (r.statusCode() != 200) {
      throw new java.io.IOException("HTTP " + r.statusCode() + ": " + r.body());
    }
    uncertain.remove(b);
    batches.put(b, rows);
  }

  private Long someBatch() {
    List<Long> ids = new ArrayList<>(batches.keySet());
    return ids.isEmpty() ? null : ids.get(rnd.nextInt(ids.size()));
  }

  private void update(Statement s) throws SQLException {
    Long b = someBatch();
    if (b == null) {
      return;
    }
    op("update batch");
    String m = "m" + nextMarker++;
    maybeValues.put(b, m);
    s.executeUpdate("ALTER TABLE c UPDATE v = '" + m + "' WHERE batch = " + b);
    maybeValues.remove(b);
    values.put(b, m);
  }

  private void delete(Statement s) throws SQLException {
    Long b = someBatch();
    if (b == null) {
      return;
    }
    op("delete batch");
    maybeDeleted.add(b);
    s.executeUpdate("DELETE FROM c WHERE batch = " + b);
    maybeDeleted.remove(b);
    batches.remove(b);
    deleted.add(b);
  }

  /** After a restart: what is there must be what was acknowledged, and whole. */
  private void check(ServerProcess server, int cycle) throws Exception {
    Map<Long, long[]> found = new HashMap<>(); // batch → {rows, distinct ids, distinct values}
    Map<Long, String> foundValue = new HashMap<>();
    try (Connection c = server.connect(); Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT batch, COUNT(*), COUNT(DISTINCT id), COUNT(DISTINCT v), MIN(v)"
            + " FROM c GROUP BY batch")) {
      while (rs.next()) {
        found.put(rs.getLong(1), new long[] {rs.getLong(2), rs.getLong(3), rs.getLong(4)});
        foundValue.put(rs.getLong(1), rs.getString(5));
      }
    }
    String when = "cycle " + cycle + ": ";
    for (var e : found.entrySet()) {
      long b = e.getKey();
      long[] f = e.getValue();
      if (f[0] != f[1]) {
        failures.add(when + "batch " + b + " has duplicated rows: " + f[0] + " rows, " + f[1] + " ids");
      }
      if (f[2] != 1) {
        failures.add(when + "batch " + b + " holds " + f[2] + " different values (a torn UPDATE)");
      }
      Integer expected = batches.containsKey(b) ? batches.get(b) : uncertain.get(b);
      if (expected == null) {
        if (deleted.contains(b) && !maybeDeleted.contains(b)) {
          failures.add(when + "batch " + b + " was deleted (acknowledged) but has " + f[0] + " rows");
        } else if (!maybeDeleted.contains(b)) {
          failures.add(when + "batch " + b + " was never inserted but has " + f[0] + " rows");
        }
        continue;
      }
      if (f[0] != expected) {
        failures.add(when + "batch " + b + " has " + f[0] + " of its " + expected + " rows (torn)");
      }
      String v = foundValue.get(b);
      String want = values.get(b);
      String maybe = maybeValues.get(b);
      if (!v.equals(want) && !v.equals(maybe)) {
        failures.add(when + "batch " + b + " holds '" + v + "', expected '" + want + "'"
            + (maybe == null ? "" : " or '" + maybe + "'"));
      }
      if (uncertain.containsKey(b)) {
        batches.put(b, expected); // it made it: acknowledged from now on
      }
      if (maybe != null) {
        values.put(b, v);
      }
    }
    for (var e : batches.entrySet()) {
      if (!found.containsKey(e.getKey()) && !maybeDeleted.contains(e.getKey())) {
        failures.add(when + "acknowledged batch " + e.getKey() + " (" + e.getValue() + " rows) is missing");
      }
    }
    for (Long b : maybeDeleted) {
      if (!found.containsKey(b)) {
        batches.remove(b);
        deleted.add(b);
      }
    }
    for (Long b : uncertain.keySet()) {
      if (!found.containsKey(b)) {
        values.remove(b);
      }
    }
    uncertain.clear();
    maybeValues.clear();
    maybeDeleted.clear();
  }
}

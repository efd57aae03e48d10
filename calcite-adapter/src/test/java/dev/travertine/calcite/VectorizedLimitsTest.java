package dev.travertine.calcite;

import static dev.travertine.calcite.JdbcTestSupport.connect;
import static dev.travertine.calcite.JdbcTestSupport.exec;
import static dev.travertine.calcite.JdbcTestSupport.explain;
import static dev.travertine.calcite.JdbcTestSupport.one;
import static dev.travertine.calcite.JdbcTestSupport.rows;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** KILL QUERY and max_memory_usage hold for vectorized operators, and the database keeps serving. */
class VectorizedLimitsTest {
  @TempDir Path dir;

  private static final String AGG = "SELECT MOD(k, 500000), count(DISTINCT k), sum(k) FROM big GROUP BY MOD(k, 500000)";

  @Test
  void killQueryStopsAVectorizedAggregation() throws Exception {
    try (Connection c = connect(dir); Connection killer = connect(dir)) {
      exec(c, "CREATE TABLE big (k BIGINT NOT NULL, v INTEGER) ORDER BY k");
      exec(c, "SET max_block_size = 64");
      assertTrue(explain(c, AGG).contains("VectorizedAggregate"), explain(c, AGG));
      long rows = killWhileRunning(c, killer, AGG, "SELECT MOD(k%", "big");
      assertEquals(String.valueOf(rows), one(c, "SELECT count(*) FROM big"));
    }
  }

  /** KILL QUERY stops a vectorized join in its probe, and the database serves on. */
  @Test
  void killQueryStopsAVectorizedJoin() throws Exception {
    String join = "SELECT big.v, count(*), sum(o.k) FROM big JOIN big o ON big.k = o.k + 1 WHERE o.v < 6 GROUP BY big.v";
    try (Connection c = connect(dir); Connection killer = connect(dir)) {
      exec(c, "CREATE TABLE big (k BIGINT NOT NULL, v INTEGER) ORDER BY k");
      exec(c, "SET max_block_size = 64");
      assertTrue(explain(c, join).contains("VectorizedJoin"), explain(c, join));
      long rows = killWhileRunning(c, killer, join, "SELECT big.v%", "big");
      assertEquals(String.valueOf(rows), one(c, "SELECT count(*) FROM big"));
      assertEquals("0", one(c, "SELECT count(*) FROM system.processes WHERE query LIKE 'SELECT big.v%'"));
    }
  }

  /**
   * Joins spill by default: max_bytes_in_join defaults to a quarter of the heap (at least 64 MiB),
   * not 0 (never), so a build side that does not fit goes to disk instead of failing the query.
   */
  @Test
  void joinsSpillPastAQuarterOfTheHeapByDefault() throws Exception {
    try (Connection c = connect(dir)) {
      long quarter = Math.max(64L << 20, Runtime.getRuntime().maxMemory() / 4);
      assertEquals(quarter + ", " + quarter + ", false",
          one(c, "SELECT \"value\", \"default\", changed FROM system.settings WHERE name = 'max_bytes_in_join'"));
    }
  }

  /** KILL QUERY stops a join whose build side spilled (max_bytes_in_join), and no spill file is left. */
  @Test
  void killQueryStopsASpilledJoinAndLeavesNoFile() throws Exception {
    String join = "SELECT big.v, count(*), sum(o.k) FROM big JOIN big o ON big.k = o.k + 1 GROUP BY big.v";
    try (Connection c = connect(dir); Connection killer = connect(dir)) {
      exec(c, "CREATE TABLE big (k BIGINT NOT NULL, v INTEGER) ORDER BY k");
      exec(c, "SET max_block_size = 64");
      exec(c, "SET max_bytes_in_join = 100000");
      String spills = "SELECT value FROM system.events WHERE event = 'ExternalProcessingFilesTotal'";
      // killed once its build has spilled (a kill before that would test the in-memory join again)
      killWhileRunning(c, killer, join, "SELECT big.v%", "big", () -> Long.parseLong(one(killer, spills)) > 0);
      assertTrue(Long.parseLong(one(c, spills)) > 0, "the join spilled");
      try (var left = java.nio.file.Files.list(dir.resolve("tmp"))) {
        assertEquals(List.of(), left.toList(), "no spill file is left");
      }
      exec(c, "SET max_bytes_in_join = 0");
      assertEquals("0", one(c, "SELECT count(*) FROM system.processes WHERE query LIKE 'SELECT big.v%'"));
    }
  }

  /**
   * Grows {@code table} until a run of {@code query} lasts long enough to be seen in
   * system.processes (by {@code like}) and killed while it runs; returns the table's rows.
   */
  private static long killWhileRunning(Connection c, Connection killer, String query, String like, String table)
      throws Exception {
    return killWhileRunning(c, killer, query, like, table, () -> true);
  }

  /** A condition the killer waits for while the query runs (it asks over its own connection). */
  private interface Ready {
    boolean now() throws Exception;
  }

  /** As above, killing only once {@code ready} holds (a run that ends first counts as not killed). */
  private static long killWhileRunning(Connection c, Connection killer, String query, String like, String table,
      Ready ready) throws Exception {
    long rows = 0;
    for (int attempt = 0; attempt < 6; attempt++) {
      long add = 1_000_000L << attempt;
      exec(c, "INSERT INTO " + table + " SELECT number + " + rows + ", CAST(MOD(number, 7) AS INTEGER) FROM"
          + " TABLE(numbers(" + add + "))");
      rows += add;
      CompletableFuture<List<String>> run = CompletableFuture.supplyAsync(() -> {
        try {
          return rows(c, query);
        } catch (SQLException e) {
          throw new RuntimeException(e);
        }
      });
      String id = null;
      while (id == null && !run.isDone()) {
        List<String> ids = rows(killer, "SELECT query_id FROM system.processes WHERE query LIKE '" + like + "'");
        id = ids.isEmpty() ? null : ids.get(0);
      }
      while (id != null && !run.isDone() && !ready.now()) {
        Thread.onSpinWait();
      }
      if (id == null || run.isDone()) {
        run.get(); // it finished before it was seen (or ready): grow the table and try again
        continue;
      }
      exec(killer, "KILL QUERY WHERE query_id = '" + id + "'");
      try {
        run.get(60, TimeUnit.SECONDS);
        // finished between being seen and the KILL: try again with more rows
      } catch (ExecutionException e) {
        assertTrue(String.valueOf(e.getCause()).contains("cancelled"), e.getCause().toString());
        return rows;
      }
    }
    throw new AssertionError("no run of the query was killed while it ran: " + query);
  }

  @Test
  void maxMemoryUsageFailsALargeGroupByAndLeavesTheDatabaseServing() throws Exception {
    try (Connection c = connect(dir)) {
      exec(c, "CREATE TABLE m (k BIGINT NOT NULL, s VARCHAR) ORDER BY k");
      exec(c, "INSERT INTO m SELECT number, 'value-' || CAST(number AS VARCHAR) FROM TABLE(numbers(300000))");
      exec(c, "SET max_memory_usage = 1000000");
      SQLException e = assertThrows(SQLException.class, () -> rows(c, "SELECT s, count(*) FROM m GROUP BY s"));
      assertTrue(e.getMessage().contains("max_memory_usage"), e.getMessage());
      assertTrue(e.getMessage().contains("Memory limit (for query) exceeded"), e.getMessage());
      // A small aggregation still fits, and without the limit the large one runs.
      assertEquals("300000", one(c, "SELECT count(*) FROM m WHERE k >= 0"));
      exec(c, "SET max_memory_usage = 0");
      assertEquals("300000", one(c, "SELECT count(*) FROM (SELECT s, count(*) FROM m GROUP BY s)"));
    }
  }

  /** A join's build side counts toward max_memory_usage: past it the join fails clearly, and runs without it. */
  @Test
  void maxMemoryUsageFailsALargeJoinBuild() throws Exception {
    try (Connection c = connect(dir)) {
      exec(c, "CREATE TABLE jl (k BIGINT NOT NULL, s VARCHAR) ORDER BY k");
      exec(c, "CREATE TABLE jr (k BIGINT NOT NULL, s VARCHAR) ORDER BY k");
      exec(c, "INSERT INTO jl SELECT number, 'l-' || CAST(number AS VARCHAR) FROM TABLE(numbers(300000))");
      exec(c, "INSERT INTO jr SELECT number * 2, 'r-' || CAST(number AS VARCHAR) FROM TABLE(numbers(200000))");
      String q = "SELECT count(*), max(jr.s) FROM jl JOIN jr ON jl.k = jr.k";
      assertTrue(explain(c, q).contains("VectorizedJoin"), explain(c, q));
      exec(c, "SET max_memory_usage = 1000000");
      SQLException e = assertThrows(SQLException.class, () -> rows(c, q));
      assertTrue(e.getMessage().contains("Memory limit (for query) exceeded"), e.getMessage());
      exec(c, "SET max_memory_usage = 0");
      assertEquals("150000", one(c, "SELECT count(*) FROM jl JOIN jr ON jl.k = jr.k"));
      assertEquals("r-99999", one(c, "SELECT max(jr.s) FROM jl JOIN jr ON jl.k = jr.k"));
    }
  }
}

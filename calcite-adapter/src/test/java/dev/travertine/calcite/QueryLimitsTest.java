package dev.travertine.calcite;

import static dev.travertine.calcite.JdbcTestSupport.connect;
import static dev.travertine.calcite.JdbcTestSupport.exec;
import static dev.travertine.calcite.JdbcTestSupport.one;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * max_execution_time, max_rows_to_read and max_result_rows fail a query with an error that names
 * the limit, on the vectorized path, the row path and in Calcite's own operators over numbers();
 * KILL QUERY stops a query running in Calcite's operators; the session goes on serving.
 */
class QueryLimitsTest {
  @TempDir Path dir;

  /** The error of a query (embedded, a failure while rows are fetched arrives as it was thrown). */
  private static String error(Connection c, String sql) {
    Exception e = assertThrows(Exception.class, () -> JdbcTestSupport.rows(c, sql), sql);
    assertTrue(e instanceof SQLException || e instanceof IllegalStateException, e.toString());
    return String.valueOf(e.getMessage());
  }

  @Test void limitsNameThemselves() throws Exception {
    try (Connection c = connect(dir)) {
      exec(c, "CREATE TABLE t (k BIGINT NOT NULL, s VARCHAR) ORDER BY k");
      exec(c, "INSERT INTO t SELECT number, 's' || CAST(MOD(number, 7) AS VARCHAR) FROM TABLE(numbers(20000))");
      exec(c, "SYSTEM FLUSH TABLE t");

      exec(c, "SET max_result_rows = 10");
      assertTrue(error(c, "SELECT * FROM TABLE(numbers(100))").contains("(max_result_rows)"));
      assertEquals("10", one(c, "SELECT count(*) FROM (SELECT * FROM TABLE(numbers(10)))"));
      exec(c, "SET max_result_rows = 0");

      exec(c, "SET max_rows_to_read = 1000");
      for (String v : new String[] {"1", "0"}) {
        exec(c, "SET vectorized_execution = " + v);
        String m = error(c, "SELECT s, count(*) FROM t WHERE s LIKE '%3%' GROUP BY s");
        assertTrue(m.contains("Limit for rows to read exceeded") && m.contains("(max_rows_to_read)"), v + ": " + m);
      }
      exec(c, "SET vectorized_execution = 1");
      assertEquals("20000", one(c, "SELECT count(*) FROM t"), "part metadata answers without reading rows");
      exec(c, "SET max_rows_to_read = 0");

      // Bytes count per column read: 20,000 BIGINTs are 160,000 bytes, 20,000 two-byte strings 40,000.
      exec(c, "SET max_bytes_to_read = 100000");
      for (String v : new String[] {"1", "0"}) {
        exec(c, "SET vectorized_execution = " + v);
        String mb = error(c, "SELECT sum(k) FROM t WHERE k > 5");
        assertTrue(mb.contains("Limit for (uncompressed) bytes to read exceeded") && mb.contains("(max_bytes_to_read)"),
            v + ": " + mb);
        assertEquals("2857", one(c, "SELECT count(*) FROM t WHERE s = 's3'"), v + ": only the strings are read");
      }
      exec(c, "SET vectorized_execution = 1");
      exec(c, "SET max_bytes_to_read = 0");
      assertEquals("40000", one(c, "SELECT read_bytes FROM system.query_log WHERE query = "
          + "'SELECT count(*) FROM t WHERE s = ''s3''' ORDER BY query_start_time DESC LIMIT 1"));

      exec(c, "SET max_execution_time = 1");
      long t0 = System.nanoTime();
      String m = error(c, "SELECT count(*) FROM TABLE(numbers(100000000000))");
      assertTrue(m.contains("Timeout exceeded") && m.contains("(max_execution_time)"), m);
      assertTrue(System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(60), "the limit stopped the query");
      exec(c, "SET max_execution_time = 0");
      assertEquals("7", one(c, "SELECT count(DISTINCT s) FROM t"), "the session goes on serving");
    }
  }

  @Test void killStopsAQueryInCalcitesOperators() throws Exception {
    try (Connection c = connect(dir); Connection admin = connect(dir)) {
      CompletableFuture<String> run = CompletableFuture.supplyAsync(() -> error(c,
          "SELECT count(*) FROM TABLE(numbers(100000000000))"));
      // While the statement is being prepared it is listed under an id of its own (a kill then
      // misses its execution): KILL again until the run ends.
      String m = killUntilItEnds(admin, run, "SELECT count(*) FROM TABLE(numbers(%");
      assertTrue(m.contains("cancelled (KILL QUERY)"), m);
      assertEquals("3", one(c, "SELECT count(*) FROM TABLE(numbers(3))"), "the session goes on serving");
    }
  }

  /** Statement.cancel() from another thread stops a query in Calcite's operators; the statement runs again. */
  @Test void statementCancelStopsAQueryInCalcitesOperators() throws Exception {
    try (Connection c = connect(dir); java.sql.Statement st = c.createStatement()) {
      CompletableFuture<String> run = runLong(st);
      // A cancel that comes before the execution starts cancels nothing (JDBC): cancel until it ends.
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
      String m = null;
      while (m == null && System.nanoTime() < deadline) {
        st.cancel();
        try {
          m = run.get(1, TimeUnit.SECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
          // still running: cancel again
        }
      }
      assertTrue(m != null, "Statement.cancel() did not stop the query");
      assertTrue(m.contains("cancelled (Statement.cancel)"), m);
      try (java.sql.ResultSet rs = st.executeQuery("SELECT count(*) FROM TABLE(numbers(3))")) {
        assertTrue(rs.next());
        assertEquals(3, rs.getLong(1), "the cancelled statement runs again");
      }
    }
  }

  /** setQueryTimeout stops a query in Calcite's operators with an error that names it. */
  @Test void queryTimeoutStopsAQueryInCalcitesOperators() throws Exception {
    try (Connection c = connect(dir); java.sql.Statement st = c.createStatement()) {
      st.setQueryTimeout(1);
      CompletableFuture<String> run = runLong(st);
      String m = run.get(120, TimeUnit.SECONDS);
      assertTrue(m.contains("(Statement.setQueryTimeout)"), m);
      st.setQueryTimeout(0);
      assertEquals("3", one(c, "SELECT count(*) FROM TABLE(numbers(3))"), "the session goes on serving");
    }
  }

  /** A client that closes its connection mid-query stops the query; other sessions go on. */
  @Test void closingTheConnectionStopsItsQuery() throws Exception {
    try (Connection admin = connect(dir)) {
      Connection c = connect(dir);
      CompletableFuture<String> run = CompletableFuture.supplyAsync(() -> String.valueOf(assertThrows(Exception.class,
          () -> JdbcTestSupport.rows(c, "SELECT count(*) FROM TABLE(numbers(100000000001))")).getMessage()));
      awaitRunning(admin, "%numbers(100000000001)%");
      c.close();
      String m = run.get(120, TimeUnit.SECONDS);
      assertTrue(m.contains("cancelled (connection closed)"), m);
      assertEquals("0", one(admin, "SELECT count(*) FROM system.processes WHERE query LIKE '%numbers(100000000001)%' "
          + "AND query NOT LIKE '%system.processes%'"));
      assertEquals("3", one(admin, "SELECT count(*) FROM TABLE(numbers(3))"), "other sessions go on");
    }
  }

  /** max_concurrent_queries and max_concurrent_queries_for_user refuse one statement more, naming the limit. */
  @Test void concurrencyLimitsRefuseOneMore() throws Exception {
    String url = "jdbc:travertine:" + dir.resolve("limited") + ";max_concurrent_queries=2;max_concurrent_queries_for_user=1";
    java.util.Properties a = new java.util.Properties();
    a.setProperty("user", "alice");
    java.util.Properties b = new java.util.Properties();
    b.setProperty("user", "bob");
    try (Connection alice = java.sql.DriverManager.getConnection(url, a);
        Connection alice2 = java.sql.DriverManager.getConnection(url, a);
        Connection bob = java.sql.DriverManager.getConnection(url, b);
        Connection carol = java.sql.DriverManager.getConnection(url);
        java.sql.Statement aliceLong = alice.createStatement();
        java.sql.Statement bobLong = bob.createStatement()) {
      CompletableFuture<String> first = runLong(aliceLong);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
      String aliceRuns = "SELECT count(*) FROM system.processes WHERE \"user\" = 'alice'";
      while (one(carol, aliceRuns).equals("0") && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      assertEquals("1", one(carol, aliceRuns), "alice's query runs");
      SQLException e = assertThrows(SQLException.class, () -> one(alice2, "SELECT count(*) FROM TABLE(numbers(3))"));
      assertTrue(e.getMessage().contains("Too many simultaneous queries for user alice. Current: 1, maximum: 1 "
          + "(max_concurrent_queries_for_user)"), e.getMessage());
      // With bob's running too, a third statement is one too many (bob's own start may lose that race
      // against carol's statement: then it starts again).
      CompletableFuture<String> second = runLong(bobLong);
      String m = null;
      while (m == null && System.nanoTime() < deadline) {
        if (second.isDone()) {
          assertTrue(second.join().contains("(max_concurrent_queries)"), second.join());
          second = runLong(bobLong);
        }
        try {
          one(carol, "SELECT count(*) FROM TABLE(numbers(3))");
          Thread.sleep(20);
        } catch (SQLException ex) {
          m = ex.getMessage();
        }
      }
      assertTrue(m != null && m.contains("Too many simultaneous queries. Maximum: 2 (max_concurrent_queries)"), m);
      assertTrue(!first.isDone(), "alice's query still runs");
      while (!(first.isDone() && second.isDone()) && System.nanoTime() < deadline) {
        aliceLong.cancel();
        bobLong.cancel();
        Thread.sleep(50);
      }
      assertTrue(first.get(1, TimeUnit.SECONDS).contains("Statement.cancel"));
      assertTrue(second.get(1, TimeUnit.SECONDS).contains("Statement.cancel"));
      assertEquals("3", one(carol, "SELECT count(*) FROM TABLE(numbers(3))"), "served again once they ended");
    }
    SQLException bad = assertThrows(SQLException.class, () -> java.sql.DriverManager.getConnection(
        "jdbc:travertine:" + dir.resolve("bad") + ";max_concurrent_queries=many"));
    assertTrue(bad.getMessage().contains("max_concurrent_queries"), bad.getMessage());
  }

  private static CompletableFuture<String> runLong(java.sql.Statement st) {
    return CompletableFuture.supplyAsync(() -> String.valueOf(assertThrows(Exception.class, () -> {
      try (java.sql.ResultSet rs = st.executeQuery("SELECT count(*) FROM TABLE(numbers(100000000000))")) {
        rs.next();
      }
    }).getMessage()));
  }

  /** ClickHouse's readonly: 2 reads and changes settings only, 1 reads only; refusals name the mode. */
  @Test void readonlySessions() throws Exception {
    try (Connection setup = connect(dir)) {
      exec(setup, "CREATE TABLE r (k BIGINT NOT NULL) ORDER BY k");
      exec(setup, "INSERT INTO r VALUES (1), (2)");
    }
    try (Connection c = connect(dir)) {
      exec(c, "SET readonly = 2");
      for (String write : new String[] {"INSERT INTO r VALUES (3)", "CREATE TABLE r2 (k BIGINT) ORDER BY k",
          "DELETE FROM r WHERE k = 1", "DROP TABLE r"}) {
        SQLException e = assertThrows(SQLException.class, () -> exec(c, write), write);
        assertTrue(e.getMessage().contains("in readonly mode (readonly = 2)"), write + ": " + e.getMessage());
      }
      assertEquals("2", one(c, "SELECT count(*) FROM r"));
      exec(c, "SET max_threads = 1"); // readonly = 2 lets settings change
      exec(c, "SET readonly = 0");
      exec(c, "INSERT INTO r VALUES (3)");
      exec(c, "SET readonly = 1");
      SQLException e = assertThrows(SQLException.class, () -> exec(c, "SET max_threads = 2"));
      assertTrue(e.getMessage().contains("Cannot modify setting 'max_threads' in readonly mode (readonly = 1)"),
          e.getMessage());
      assertThrows(SQLException.class, () -> exec(c, "SET readonly = 0"), "readonly = 1 stays");
      assertEquals("3", one(c, "SELECT count(*) FROM r"));
    }
  }

  /** KILLs {@code like} until {@code run} ends (a statement being prepared has an id of its own); its error. */
  private static String killUntilItEnds(Connection admin, CompletableFuture<String> run, String like)
      throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (System.nanoTime() < deadline) {
      exec(admin, "KILL QUERY WHERE query LIKE '" + like + "' AND query NOT LIKE '%KILL%'");
      try {
        return run.get(2, TimeUnit.SECONDS);
      } catch (java.util.concurrent.TimeoutException e) {
        // still running: kill again
      }
    }
    throw new AssertionError("KILL QUERY did not stop " + like);
  }

  /** Waits until a statement like {@code like} is listed in system.processes. */
  private static void awaitRunning(Connection admin, String like) throws Exception {
    String listed = "SELECT count(*) FROM system.processes WHERE query LIKE '" + like
        + "' AND query NOT LIKE '%system.processes%'";
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (one(admin, listed).equals("0") && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertEquals("1", one(admin, listed), "the statement runs: " + like);
  }

  /**
   * A join without equality runs in Calcite's nested loops, where no row reaches the scan or the
   * result for a long time: KILL QUERY still stops it (the join's predicate checks).
   */
  @Test void killStopsANestedLoopJoin() throws Exception {
    try (Connection c = connect(dir); Connection admin = connect(dir)) {
      exec(c, "CREATE TABLE j (k BIGINT NOT NULL) ORDER BY k");
      exec(c, "INSERT INTO j SELECT number FROM TABLE(numbers(200000))");
      // Both sides are aggregated first: the loops read no scan (whose batches check) as they go.
      String sql = "SELECT count(*) FROM (SELECT k FROM j GROUP BY k) a JOIN (SELECT k FROM j GROUP BY k) b "
          + "ON a.k + b.k < -1";
      String plan = JdbcTestSupport.rows(c, "EXPLAIN PLAN FOR " + sql).toString();
      assertTrue(plan.contains("NestedLoopJoin"), plan);
      // 4 * 10^10 pairs: hours without the check.
      CompletableFuture<String> run = CompletableFuture.supplyAsync(() -> error(c, sql));
      awaitRunning(admin, "%a.k + b.k < -1%");
      Thread.sleep(1000); // into the loops: both sides are read and aggregated well before this
      String m = killUntilItEnds(admin, run, "%a.k + b.k < -1%");
      assertTrue(m.contains("cancelled (KILL QUERY)"), m);
      assertEquals("3", one(c, "SELECT count(*) FROM (SELECT k FROM j WHERE k < 10) a JOIN (SELECT k FROM j WHERE k < 10) b ON a.k + b.k < 2"), "the session goes on serving");
    }
  }

  /** A killed INSERT … SELECT leaves nothing of itself: no rows, no parts; the table takes inserts after it. */
  @Test void aKilledInsertSelectLeavesNothing() throws Exception {
    try (Connection c = connect(dir); Connection admin = connect(dir)) {
      exec(c, "CREATE TABLE ins (k BIGINT NOT NULL, s VARCHAR) ORDER BY k");
      exec(c, "SET max_insert_block_size = 10000");
      CompletableFuture<String> run = CompletableFuture.supplyAsync(() -> String.valueOf(assertThrows(
          SQLException.class, () -> exec(c, "INSERT INTO ins SELECT number, 'row ' || CAST(number AS VARCHAR) "
              + "FROM TABLE(numbers(100000000000))")).getMessage()));
      awaitRunning(admin, "INSERT INTO ins SELECT%");
      Thread.sleep(1000); // parts of it are written before the kill (blocks of 10,000 rows)
      String m = killUntilItEnds(admin, run, "INSERT INTO ins SELECT%");
      assertTrue(m.contains("cancelled (KILL QUERY)"), m);
      assertEquals("0", one(admin, "SELECT count(*) FROM ins"));
      assertEquals("0", one(admin, "SELECT count(*) FROM system.parts WHERE \"table\" = 'ins'"));
      exec(c, "INSERT INTO ins VALUES (1, 'a')");
      assertEquals("1", one(admin, "SELECT count(*) FROM ins"));
    }
  }

  /**
   * max_memory_usage holds for what Calcite's operators hold: a sort, a hash join's build side, a
   * nested-loop join's inner side (FULL, and INNER, whose inner side is read once rather than once
   * per outer row). Under the limit the same queries answer; the session goes on.
   */
  @Test void memoryLimitHoldsInCalcitesOperators() throws Exception {
    try (Connection c = connect(dir)) {
      exec(c, "CREATE TABLE mem (k BIGINT NOT NULL, s VARCHAR) ORDER BY k");
      exec(c, "INSERT INTO mem SELECT number, 'a string of some length ' || CAST(number AS VARCHAR) "
          + "FROM TABLE(numbers(50000))");
      exec(c, "CREATE TABLE wide (k BIGINT NOT NULL, s VARCHAR) ORDER BY k");
      exec(c, "INSERT INTO wide SELECT number, '" + "x".repeat(1000) + "' || CAST(number AS VARCHAR) "
          + "FROM TABLE(numbers(3000))");
      String[] queries = {
          // a join of two tables runs in Calcite's operators: hash join, then a sort of its rows
          "SELECT a.s, b.s FROM mem a JOIN mem b ON a.k = b.k ORDER BY a.s DESC LIMIT 3",
          "SELECT count(*) FROM mem a JOIN mem b ON a.k + 1 = b.k + 1 AND a.s <> b.s",
          // no equality: a FULL nested-loop join holds its inner side (either side is about 3 MB)
          "SELECT count(*) FROM wide a FULL JOIN wide b ON a.k < b.k - 2990 AND a.s <> b.s",
          "SELECT count(*) FROM wide a JOIN wide b ON a.k < b.k - 2990 AND a.s <> b.s",
      };
      String[] answers = new String[queries.length];
      for (int i = 0; i < queries.length; i++) {
        answers[i] = JdbcTestSupport.rows(c, queries[i]).toString();
      }
      exec(c, "SET max_memory_usage = 1000000");
      for (String q : queries) {
        String m = error(c, q);
        assertTrue(m.contains("Memory limit (for query) exceeded") && m.contains("max_memory_usage"), q + ": " + m);
      }
      exec(c, "SET max_memory_usage = 100000000");
      for (int i = 0; i < queries.length; i++) {
        assertEquals(answers[i], JdbcTestSupport.rows(c, queries[i]).toString(), "under the limit: " + queries[i]);
      }
      assertEquals("50000", one(c, "SELECT count(*) FROM mem"), "the session goes on serving");
    }
  }

  /**
   * A statement that is done is no longer running: an INSERT … SELECT run with execute() (whose
   * update count Calcite reads without closing anything) and a SELECT read to its end leave
   * system.processes, so max_concurrent_queries = 1 lets the next statement run.
   */
  @Test void finishedStatementsDoNotCountAsRunning() throws Exception {
    try (Connection c = java.sql.DriverManager.getConnection("jdbc:travertine:" + dir.resolve("one")
        + ";max_concurrent_queries=1"); java.sql.Statement s = c.createStatement()) {
      s.execute("CREATE TABLE once (k BIGINT NOT NULL, v VARCHAR) ORDER BY k");
      s.execute("INSERT INTO once SELECT number, 'v' FROM TABLE(numbers(1000))");
      assertEquals(1000, s.getUpdateCount());
      s.execute("SYSTEM FLUSH TABLE once");
      try (java.sql.Statement other = c.createStatement();
          java.sql.ResultSet rs = other.executeQuery("SELECT k FROM once WHERE k < 3")) {
        int n = 0;
        while (rs.next()) {
          n++;
        }
        assertEquals(3, n);
        // read to its end, not yet closed: done
        assertEquals("1", one(c, "SELECT count(*) FROM system.processes"), "only this statement runs");
      }
      assertEquals(1, s.executeUpdate("INSERT INTO once VALUES (1000, 'x')"));
      assertEquals("1001", one(c, "SELECT count(*) FROM once"));
    }
  }
}

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
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
      String m = null;
      while (m == null && System.nanoTime() < deadline) {
        exec(admin, "KILL QUERY WHERE query LIKE 'SELECT count(*) FROM TABLE(numbers(%'");
        try {
          m = run.get(2, TimeUnit.SECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
          // still running: kill again
        }
      }
      assertTrue(m != null, "KILL QUERY did not stop the query");
      assertTrue(m.contains("cancelled (KILL QUERY)"), m);
      assertEquals("3", one(c, "SELECT count(*) FROM TABLE(numbers(3))"), "the session goes on serving");
    }
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
}

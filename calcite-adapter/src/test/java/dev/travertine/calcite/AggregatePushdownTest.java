package dev.travertine.calcite;

import static dev.travertine.calcite.JdbcTestSupport.connect;
import static dev.travertine.calcite.JdbcTestSupport.exec;
import static dev.travertine.calcite.JdbcTestSupport.explain;
import static dev.travertine.calcite.JdbcTestSupport.one;
import static dev.travertine.calcite.JdbcTestSupport.rows;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Aggregates computed by the engine equal Calcite's own: each query runs once vectorized and once
 * with {@code vectorized_execution = 0}, which keeps the aggregate in Calcite.
 */
class AggregatePushdownTest {
  @TempDir Path dir;

  @Test
  void pushedAggregatesMatchCalcite() throws Exception {
    try (Connection c = connect(dir)) {
      exec(c, "CREATE TABLE a (k BIGINT NOT NULL, g INTEGER, s VARCHAR, d DOUBLE, dc DECIMAL(9, 2), dt DATE, "
          + "b BOOLEAN, si SMALLINT) PARTITION BY g ORDER BY k");
      exec(c, "INSERT INTO a SELECT number, CAST(MOD(number, 7) AS INTEGER), "
          + "CASE WHEN MOD(number, 5) = 0 THEN NULL ELSE 's' || CAST(MOD(number, 13) AS VARCHAR) END, "
          + "CASE WHEN MOD(number, 11) = 0 THEN NULL ELSE number * 0.25 END, CAST(number AS DECIMAL(9, 2)) / 4, "
          + "TIMESTAMPADD(DAY, CAST(MOD(number, 40) AS INTEGER), DATE '2024-01-01'), MOD(number, 2) = 0, "
          + "CAST(MOD(number, 100) AS SMALLINT) FROM TABLE(numbers(30000))");
      exec(c, "INSERT INTO a VALUES (-1, NULL, 'buffered', 1.5, 0.25, DATE '2023-12-31', TRUE, 3)");
      List<String> queries = List.of(
          "SELECT count(*) FROM %s",
          "SELECT count(*), count(s), count(d), sum(k), sum(d), sum(dc), sum(si), sum(g), min(s), max(s), min(dt), max(dt) FROM %s",
          "SELECT g, count(*), sum(k), avg(d), min(d), max(k) FROM %s GROUP BY g",
          "SELECT s, count(*), sum(si) FROM %s WHERE k < 500 GROUP BY s",
          "SELECT g, s, count(*) FROM %s WHERE k > 1000 AND g IN (1, 2) GROUP BY g, s",
          "SELECT b, dt, count(*), min(b) FROM %s GROUP BY b, dt",
          "SELECT count(*), sum(d) FROM %s WHERE k < -100",
          "SELECT g, count(*) FROM %s WHERE k < -100 GROUP BY g");
      for (String q : queries) {
        String sql = String.format(q, "a");
        exec(c, "SET vectorized_execution = 1");
        assertTrue(explain(c, sql).contains("VectorizedAggregate"), explain(c, sql));
        List<String> pushed = rows(c, sql);
        exec(c, "SET vectorized_execution = 0");
        assertFalse(explain(c, sql).contains("Vectorized"), explain(c, sql));
        assertEquals(sorted(rows(c, sql)), sorted(pushed), sql);
        exec(c, "SET vectorized_execution = 1");
      }
      assertEquals("30001", one(c, "SELECT count(*) FROM a"));
      // SUM of an integer column is a BIGINT (no overflow at 2^15 or 2^31).
      assertEquals("1485003", one(c, "SELECT sum(si) FROM a"));
      assertEquals("449984999000", one(c, "SELECT sum(CAST(k AS INTEGER)) * 1000 FROM a"));
    }
  }

  private static List<String> sorted(List<String> rows) {
    List<String> out = new ArrayList<>(rows);
    out.sort(null);
    return out;
  }
}

package dev.travertine.calcite;

import static dev.travertine.calcite.JdbcTestSupport.connect;
import static dev.travertine.calcite.JdbcTestSupport.exec;
import static dev.travertine.calcite.JdbcTestSupport.one;
import static dev.travertine.calcite.JdbcTestSupport.rows;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** system.query_log, system.processes, system.metrics and KILL QUERY. */
class QueryLogTest {
  @TempDir Path dir;

  @Test
  void queriesAreLoggedWithRowsAndErrors() throws Exception {
    try (Connection c = connect(dir)) {
      exec(c, "CREATE TABLE q (k BIGINT) ORDER BY k");
      exec(c, "INSERT INTO q SELECT number FROM TABLE(numbers(50000))");
      assertEquals(3, rows(c, "SELECT k FROM q WHERE k < 3").size());
      assertThrows(SQLException.class, () -> rows(c, "SELECT nope FROM q"));
      assertEquals("SELECT k FROM q WHERE k < 3, 3, true",
          one(c, "SELECT query, result_rows, read_rows >= 3 FROM system.query_log "
              + "WHERE query LIKE 'SELECT k FROM q%'"));
      assertTrue(one(c, "SELECT exception FROM system.query_log WHERE query = 'SELECT nope FROM q'")
          .contains("Column 'NOPE' not found") || one(c, "SELECT exception FROM system.query_log WHERE query = "
          + "'SELECT nope FROM q'").contains("nope"));
      assertEquals("default, 1", one(c, "SELECT \"user\", count(*) FROM system.query_log "
          + "WHERE query LIKE 'CREATE TABLE q%' GROUP BY \"user\""));
      assertEquals("1", one(c, "SELECT \"value\" FROM system.metrics WHERE metric = 'Tables'"));
      assertEquals("true", one(c, "SELECT memory_usage > 0 FROM system.query_log WHERE query LIKE 'SELECT k FROM q%'"));
    }
  }

  @Test
  void killQueryStopsARunningScan() throws Exception {
    try (Connection c = connect(dir); Connection killer = connect(dir)) {
      exec(c, "CREATE TABLE big (k BIGINT) ORDER BY k");
      exec(c, "INSERT INTO big SELECT number FROM TABLE(numbers(200000))");
      exec(c, "SET max_block_size = 1000");
      try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT k FROM big")) {
        assertTrue(rs.next());
        String id = one(killer, "SELECT query_id FROM system.processes WHERE query = 'SELECT k FROM big'");
        exec(killer, "KILL QUERY WHERE query_id = '" + id + "'");
        Exception e = assertThrows(Exception.class, () -> {
          while (rs.next()) {
            // drain until the scan notices
          }
        });
        assertTrue(String.valueOf(e.getMessage()).contains("cancelled") || String.valueOf(e.getCause())
            .contains("cancelled"), e.toString());
      } catch (RuntimeException e) {
        assertTrue(e.toString().contains("cancelled"), e.toString());
      }
      assertTrue(one(killer, "SELECT exception FROM system.query_log WHERE query = 'SELECT k FROM big'")
          .contains("cancelled"));
    }
  }
}

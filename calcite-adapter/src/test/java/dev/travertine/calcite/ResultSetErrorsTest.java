package dev.travertine.calcite;

import static dev.travertine.calcite.JdbcTestSupport.exec;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Errors raised while rows are fetched reach an embedded caller as SQLExceptions from
 * {@code ResultSet.next()} (found by the fuzzer: {@code SELECT 1 / 0} threw a bare
 * ArithmeticException out of {@code next()}).
 */
class ResultSetErrorsTest {
  @TempDir Path dir;

  @Test void anErrorWhileFetchingIsAnSqlException() throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:travertine:" + dir)) {
      exec(c, "CREATE TABLE t (k INTEGER NOT NULL, x INTEGER) ORDER BY k");
      exec(c, "INSERT INTO t VALUES (1, 2), (2, 0), (3, 5)");
      for (String q : new String[] {"SELECT 1 / 0", "SELECT k, 10 / x FROM t", "SELECT k FROM t WHERE 10 / x > 1",
          "SELECT k, 10 / (x - 2) FROM t ORDER BY k"}) {
        for (int vectorized = 0; vectorized <= 1; vectorized++) {
          exec(c, "SET vectorized_execution = " + vectorized);
          SQLException e = assertThrows(SQLException.class, () -> {
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(q)) {
              while (rs.next()) {
                rs.getObject(1);
              }
            }
          }, q);
          assertTrue(e.getMessage().toLowerCase(java.util.Locale.ROOT).contains("by zero"), e.getMessage());
        }
      }
      // the connection keeps serving
      try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT count(*) FROM t")) {
        rs.next();
        assertEquals(3, rs.getInt(1));
      }
    }
  }
}

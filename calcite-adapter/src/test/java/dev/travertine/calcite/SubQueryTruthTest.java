package dev.travertine.calcite;

import static dev.travertine.calcite.JdbcTestSupport.exec;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code x IS [NOT] TRUE|FALSE} over an IN sub-query whose answer is NULL for some rows (found by
 * the fuzzer's TLP oracle: {@code WHERE (k IN (SELECT a FROM t1)) IS NOT FALSE} lost every row
 * whose IN was NULL).
 */
class SubQueryTruthTest {
  @TempDir Path dir;

  @Test void truthTestsKeepThreeValuedLogic() throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:travertine:" + dir)) {
      exec(c, "CREATE TABLE t0 (k INTEGER NOT NULL, a INTEGER) ORDER BY k");
      exec(c, "CREATE TABLE t1 (k INTEGER NOT NULL, a INTEGER) ORDER BY k");
      exec(c, "INSERT INTO t0 VALUES (1, -100), (2, -99), (3, 5), (4, NULL)");
      exec(c, "INSERT INTO t1 VALUES (1, 2), (2, NULL), (3, 7)");
      // k IN (2, NULL, 7): NULL, TRUE, NULL, NULL
      String in = "(k IN (SELECT a FROM t1))";
      for (int vectorized = 0; vectorized <= 1; vectorized++) {
        exec(c, "SET vectorized_execution = " + vectorized);
        assertEquals(List.of("1", "2", "3", "4"), JdbcTestSupport.rows(c,
            "SELECT k FROM t0 WHERE " + in + " IS NOT FALSE ORDER BY k"));
        assertEquals(List.of("1", "3", "4"), JdbcTestSupport.rows(c,
            "SELECT k FROM t0 WHERE " + in + " IS NOT TRUE ORDER BY k"));
        assertEquals(List.of("2"), JdbcTestSupport.rows(c, "SELECT k FROM t0 WHERE " + in + " IS TRUE"));
        assertEquals(List.of(), JdbcTestSupport.rows(c, "SELECT k FROM t0 WHERE " + in + " IS FALSE"));
        assertEquals(List.of("1", "2", "3", "4"), JdbcTestSupport.rows(c,
            "SELECT k FROM t0 WHERE NOT ((NOT " + in + ") IS TRUE) ORDER BY k"));
        assertEquals(List.of("1, true, true, false, false", "2, true, false, true, false",
            "3, true, true, false, false", "4, true, true, false, false"), JdbcTestSupport.rows(c,
            "SELECT k, " + in + " IS NOT FALSE, " + in + " IS NOT TRUE, " + in + " IS TRUE, " + in + " IS FALSE"
                + " FROM t0 ORDER BY k"));
      }
    }
  }
}

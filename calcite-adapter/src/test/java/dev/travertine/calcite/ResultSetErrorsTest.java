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

  /**
   * Embedded, an error at prepare or execute time is an SQLException with a SQLSTATE, a ClickHouse
   * code and its words once, for statements, prepared statements and batches alike.
   */
  @Test void errorsAtPrepareAndExecuteHaveASqlState() throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:travertine:" + dir)) {
      exec(c, "CREATE TABLE e (k INTEGER NOT NULL, x INTEGER) ORDER BY k");
      exec(c, "INSERT INTO e VALUES (1, 0)");
      String[][] cases = {
          {"SELECT * FROM missing", "42S02", "60", "Object 'missing' not found"},
          {"SELEC 1", "42000", "62", "Syntax error: a statement cannot start with 'SELEC' at line 1, column 1"},
          {"SELECT nope FROM e", "42703", "47", "Column 'nope' not found in any table"},
          {"INSERT INTO e VALUES (NULL, 1)", "23502", "349", "does not allow NULLs"},
          {"SELECT 1 + TRUE FROM e", "42883", "43", "Cannot apply '+' to arguments of type"},
          {"SELECT 1 / x FROM e", "22012", "153", "by zero"},
          {"SET no_such_setting = 1", "42704", "115", "Unknown setting: no_such_setting"},
          {"DROP TABLE nothere", "42S02", "60", "Table nothere does not exist"},
          {"CREATE TABLE e (k INTEGER) ORDER BY k", "42S01", "57", "Table e already exists"},
          {"SELECT CAST('x' AS INTEGER) FROM e", "22018", "6", "Cannot parse 'x' as a number"},
          {"INSERT INTO e VALUES (5)", "21S01", "7", "Table e has 2 columns but 1 values were supplied"},
          {"INSERT INTO e VALUES (5, 1), (6)", "21S01", "7", "Table e has 2 columns but 1 values were supplied"},
          {"INSERT INTO e SELECT 7 FROM e", "21S01", "7", "Table e has 2 columns but 1 values were supplied"},
          {"INSERT INTO e VALUES (5, 1, 2)", "21S01", "7", "Table e has 2 columns but 3 values were supplied"},
      };
      for (String[] k : cases) {
        SQLException viaStatement = assertThrows(SQLException.class, () -> {
          try (Statement s = c.createStatement()) {
            if (s.execute(k[0])) {
              try (ResultSet rs = s.getResultSet()) {
                while (rs.next()) {
                  rs.getObject(1);
                }
              }
            }
          }
        }, k[0]);
        SQLException viaPrepared = assertThrows(SQLException.class, () -> {
          try (java.sql.PreparedStatement p = c.prepareStatement(k[0])) {
            if (p.execute()) {
              try (ResultSet rs = p.getResultSet()) {
                while (rs.next()) {
                  rs.getObject(1);
                }
              }
            }
          }
        }, k[0]);
        for (SQLException e : new SQLException[] {viaStatement, viaPrepared}) {
          String m = e.getMessage();
          assertEquals(k[1], e.getSQLState(), k[0] + ": " + m);
          assertEquals(Integer.parseInt(k[2]), e.getErrorCode(), k[0] + ": " + m);
          assertTrue(m.contains(k[3]), k[0] + ": " + m);
          assertEquals(m.indexOf(k[3]), m.lastIndexOf(k[3]), k[0] + ": the message once: " + m);
        }
      }
      try (Statement s = c.createStatement()) {
        s.addBatch("INSERT INTO e VALUES (2, 1)");
        s.addBatch("INSERT INTO missing VALUES (3)");
        SQLException e = assertThrows(SQLException.class, s::executeBatch);
        assertEquals("42S02", e.getSQLState(), e.getMessage());
      }
      try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT count(*) FROM e")) {
        assertTrue(rs.next());
        assertEquals(2, rs.getInt(1), "the first row and the batch's first statement; no failed INSERT added rows");
      }
    }
  }
}

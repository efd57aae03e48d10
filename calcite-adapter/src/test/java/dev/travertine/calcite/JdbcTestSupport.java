package dev.travertine.calcite;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** JDBC helpers for end-to-end tests: rows as strings, one statement at a time. */
public final class JdbcTestSupport {
  private JdbcTestSupport() {}

  public static Connection connect(Path dir) throws SQLException {
    return DriverManager.getConnection("jdbc:travertine:" + dir);
  }

  public static void exec(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute(sql);
    }
  }

  public static int update(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement()) {
      return s.executeUpdate(sql);
    }
  }

  /** Rows as "a, b, c" strings. */
  public static List<String> rows(Connection c, String sql) throws SQLException {
    return rows(c, sql, ", ", false);
  }

  /**
   * Rows as "a | b | c" strings, floating-point values to 10 significant digits (sums computed in
   * another order agree to that): what differential tests compare.
   */
  public static List<String> rowsRounded(Connection c, String sql) throws SQLException {
    return rows(c, sql, " | ", true);
  }

  private static List<String> rows(Connection c, String sql, String separator, boolean roundFloats)
      throws SQLException {
    List<String> out = new ArrayList<>();
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      ResultSetMetaData md = rs.getMetaData();
      while (rs.next()) {
        StringBuilder sb = new StringBuilder();
        for (int i = 1; i <= md.getColumnCount(); i++) {
          int type = md.getColumnType(i);
          String v;
          if (roundFloats && (type == java.sql.Types.DOUBLE || type == java.sql.Types.FLOAT
              || type == java.sql.Types.REAL)) {
            double x = rs.getDouble(i);
            v = rs.wasNull() ? "null" : String.format(java.util.Locale.ROOT, "%.10g", x);
          } else {
            v = String.valueOf(rs.getString(i));
          }
          sb.append(i > 1 ? separator : "").append(v);
        }
        out.add(sb.toString());
      }
    }
    return out;
  }

  public static String one(Connection c, String sql) throws SQLException {
    List<String> r = rows(c, sql);
    if (r.size() != 1) {
      throw new AssertionError("Expected one row from " + sql + " but got " + r);
    }
    return r.get(0);
  }

  public static String explain(Connection c, String sql) throws SQLException {
    return String.join("\n", rows(c, "EXPLAIN PLAN FOR " + sql));
  }
}

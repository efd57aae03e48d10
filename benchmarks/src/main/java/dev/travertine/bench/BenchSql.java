package dev.travertine.bench;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/** JDBC one-liners the benchmark harnesses share. */
final class BenchSql {
  private BenchSql() {}

  static void exec(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute(sql);
    }
  }

  /** The first row, columns joined with ", ". */
  static String one(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      StringBuilder sb = new StringBuilder();
      for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
        sb.append(i > 1 ? ", " : "").append(rs.getString(i));
      }
      return sb.toString();
    }
  }

  /** Every row, columns joined with ", ". */
  static java.util.List<String> rows(Connection c, String sql) throws SQLException {
    java.util.List<String> out = new java.util.ArrayList<>();
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      int n = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        StringBuilder sb = new StringBuilder();
        for (int i = 1; i <= n; i++) {
          sb.append(i > 1 ? ", " : "").append(rs.getString(i));
        }
        out.add(sb.toString());
      }
    }
    return out;
  }

  /** A counter of system.events (0 when it has not counted yet). */
  static long event(Connection c, String name) throws SQLException {
    return Long.parseLong(one(c, "SELECT coalesce(max(\"value\"), 0) FROM system.events WHERE event = '" + name
        + "'"));
  }
}

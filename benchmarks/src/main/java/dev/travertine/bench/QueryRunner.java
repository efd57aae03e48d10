package dev.travertine.bench;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Runs a query to its last row and times it, cancelling it after a timeout. Values come back
 * normalised for comparison: integers as {@link BigDecimal}, floating point as {@link Double},
 * dates and times as their text without a zero fraction ({@code 2013-07-15 10:00:00}), anything
 * else as text.
 */
final class QueryRunner implements AutoCloseable {
  /** One execution: its wall time and rows, or why it failed. */
  record Run(double millis, List<List<Object>> rows, String error) {
    boolean failed() {
      return error != null;
    }
  }

  private final ScheduledExecutorService watchdog = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "clickbench-timeout");
    t.setDaemon(true);
    return t;
  });
  private final int timeoutSeconds;

  QueryRunner(int timeoutSeconds) {
    this.timeoutSeconds = timeoutSeconds;
  }

  Run run(Connection c, String sql) {
    long t0 = System.nanoTime();
    try (Statement s = c.createStatement()) {
      ScheduledFuture<?> cancel = watchdog.schedule(() -> {
        try {
          s.cancel();
        } catch (SQLException | RuntimeException ignored) {
          // the query ends by itself
        }
      }, timeoutSeconds, TimeUnit.SECONDS);
      try (ResultSet rs = s.executeQuery(sql)) {
        List<List<Object>> rows = fetch(rs);
        return new Run((System.nanoTime() - t0) / 1e6, rows, null);
      } finally {
        cancel.cancel(false);
      }
    } catch (Exception | LinkageError | VirtualMachineError | AssertionError e) { // the run goes on
      double ms = (System.nanoTime() - t0) / 1e6;
      String why = ms >= timeoutSeconds * 1000.0 ? "timeout after " + timeoutSeconds + " s: " : "";
      return new Run(ms, null, why + describe(e));
    }
  }

  private static List<List<Object>> fetch(ResultSet rs) throws SQLException {
    ResultSetMetaData md = rs.getMetaData();
    int n = md.getColumnCount();
    int[] types = new int[n];
    for (int i = 0; i < n; i++) {
      types[i] = md.getColumnType(i + 1);
    }
    List<List<Object>> rows = new ArrayList<>();
    while (rs.next()) {
      List<Object> row = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        row.add(value(rs, i + 1, types[i]));
      }
      rows.add(row);
    }
    return rows;
  }

  private static Object value(ResultSet rs, int i, int type) throws SQLException {
    if (type == Types.DATE || type == Types.TIME || type == Types.TIMESTAMP
        || type == Types.TIMESTAMP_WITH_TIMEZONE) {
      String s = rs.getString(i);
      return s == null ? null : s.replaceFirst("\\.0+$", "");
    }
    Object v = rs.getObject(i);
    if (v == null) {
      return null;
    }
    if (v instanceof Double || v instanceof Float) {
      return ((Number) v).doubleValue();
    }
    if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
      return BigDecimal.valueOf(((Number) v).longValue());
    }
    if (v instanceof BigInteger b) {
      return new BigDecimal(b);
    }
    if (v instanceof BigDecimal b) {
      return b;
    }
    return v.toString();
  }

  /** The exception's message and, when it says something else, its innermost cause's. */
  static String describe(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String top = firstLine(e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage());
    String inner = root.getClass().getSimpleName() + ": " + firstLine(String.valueOf(root.getMessage()));
    return root == e || top.contains(firstLine(String.valueOf(root.getMessage()))) ? top : top + " <- " + inner;
  }

  private static String firstLine(String s) {
    int nl = s.indexOf('\n');
    return nl < 0 ? s : s.substring(0, nl);
  }

  @Override public void close() {
    watchdog.shutdownNow();
  }
}

package dev.travertine.calcite;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;

/**
 * A child process for {@link UncleanStopTest}: inserts rows one statement at a time (so they sit
 * in the WAL-backed buffer), says how many are acknowledged, and waits to be killed.
 */
public final class CrashingWriter {
  private CrashingWriter() {}

  public static void main(String[] args) throws Exception {
    String dir = args[0];
    int rows = Integer.parseInt(args[1]);
    try (Connection c = DriverManager.getConnection("jdbc:travertine:" + dir); Statement s = c.createStatement()) {
      s.execute("CREATE TABLE IF NOT EXISTS w (k INTEGER, v VARCHAR) ORDER BY k "
          + "SETTINGS insert_buffer_flush_interval_ms = 86400000");
      for (int i = 0; i < rows; i++) {
        s.executeUpdate("INSERT INTO w VALUES (" + i + ", 'v" + i + "')");
      }
      System.out.println("ACKED " + rows);
      System.out.flush();
      Thread.sleep(600_000);
    }
  }
}

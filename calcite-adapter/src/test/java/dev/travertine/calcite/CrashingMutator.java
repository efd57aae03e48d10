package dev.travertine.calcite;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;

/**
 * A child process for {@link MutationCrashTest}: writes a table of several parts, records a
 * mutation that rewrites all of them, says so, starts the background worker and waits to be
 * killed while the parts are being rewritten.
 */
public final class CrashingMutator {
  private CrashingMutator() {}

  public static void main(String[] args) throws Exception {
    String dir = args[0];
    int parts = Integer.parseInt(args[1]);
    int rowsPerPart = Integer.parseInt(args[2]);
    try (Connection c = DriverManager.getConnection("jdbc:travertine:" + dir); Statement s = c.createStatement()) {
      s.execute("CREATE TABLE big (id BIGINT NOT NULL, v INTEGER, s VARCHAR) ORDER BY id "
          + "SETTINGS min_insert_rows_for_direct_part = 1, old_parts_lifetime = 0");
      s.execute("SYSTEM STOP MERGES big");
      for (int p = 0; p < parts; p++) {
        s.execute("INSERT INTO big SELECT number + " + ((long) p * rowsPerPart) + ", CAST(MOD(number, 100) AS INTEGER),"
            + " 'row' FROM TABLE(numbers(" + rowsPerPart + "))");
      }
      s.executeUpdate("ALTER TABLE big UPDATE v = v + 1, s = 'u' WHERE id >= 0");
      System.out.println("RECORDED");
      System.out.flush();
      s.execute("SYSTEM START MERGES big");
      Thread.sleep(600_000);
    }
  }
}

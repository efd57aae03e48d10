package dev.travertine.calcite;

import static dev.travertine.calcite.JdbcTestSupport.connect;
import static dev.travertine.calcite.JdbcTestSupport.one;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Kills a writer process (SIGKILL) and checks every acknowledged INSERT survives via WAL replay. */
class UncleanStopTest {
  @TempDir Path dir;

  private static Process start(Path dir, int rows) throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    ProcessBuilder pb = new ProcessBuilder(List.of(java, "-Xmx512m",
        "-Dcom.google.protobuf.use_unsafe_pre22_gencode=true", "-cp", System.getProperty("java.class.path"),
        CrashingWriter.class.getName(), dir.toString(), Integer.toString(rows)));
    pb.redirectErrorStream(true);
    return pb.start();
  }

  @Test
  void acknowledgedInsertsSurviveAKill() throws Exception {
    Process p = start(dir, 500);
    try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      boolean acked = false;
      while ((line = r.readLine()) != null) {
        if (line.startsWith("ACKED")) {
          acked = true;
          break;
        }
      }
      assertTrue(acked, "child process acknowledged its inserts");
      // While it runs, the directory is locked against a second process.
      SQLException e = assertThrows(SQLException.class, () -> connect(dir).close());
      assertTrue(e.getMessage().contains("in use by another process"), e.getMessage());
    } finally {
      p.destroyForcibly();
      assertTrue(p.waitFor(30, TimeUnit.SECONDS));
    }
    try (Connection c = connect(dir)) {
      assertEquals("500, 124750", one(c, "SELECT count(*), sum(k) FROM w"));
      assertEquals("v499", one(c, "SELECT v FROM w WHERE k = 499"));
      assertEquals("0", one(c, "SELECT count(*) FROM system.parts WHERE \"table\" = 'w'"), "all in the WAL");
      JdbcTestSupport.exec(c, "SYSTEM FLUSH");
      assertEquals("500", one(c, "SELECT count(*) FROM w"));
    }
    try (Connection c = connect(dir)) {
      assertEquals("500", one(c, "SELECT count(*) FROM w"), "flushed rows are not replayed twice");
    }
  }
}

package dev.travertine.calcite;

import static dev.travertine.calcite.JdbcTestSupport.connect;
import static dev.travertine.calcite.JdbcTestSupport.one;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.travertine.io.ChildJvm;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Kills a writer process (SIGKILL) and checks every acknowledged INSERT survives via WAL replay. */
class UncleanStopTest {
  @TempDir Path dir;

  @Test
  void acknowledgedInsertsSurviveAKill() throws Exception {
    Process p = ChildJvm.of(CrashingWriter.class).maxHeap("512m").args(dir.toString(), "500").start();
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

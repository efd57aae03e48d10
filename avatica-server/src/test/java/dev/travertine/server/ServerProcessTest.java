package dev.travertine.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** `travertine server` as a real process: banner, remote clients, clean stop on SIGTERM. */
class ServerProcessTest {
  @TempDir Path dir;

  @Test
  void sigtermFlushesAndReleasesTheDirectory() throws Exception {
    Path data = dir.resolve("data");
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process p = new ProcessBuilder(List.of(java, "-Xmx512m", "-Dcom.google.protobuf.use_unsafe_pre22_gencode=true",
        "-cp", System.getProperty("java.class.path"), TravertineCli.class.getName(), "server", "--port", "0",
        "--data", data.toString())).redirectErrorStream(true).start();
    try {
      String url = null;
      BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
      String line;
      while ((line = r.readLine()) != null) {
        int i = line.indexOf("sql -u \"");
        if (i >= 0) {
          url = line.substring(i + 8, line.lastIndexOf('"'));
          break;
        }
      }
      assertTrue(url != null && url.startsWith("jdbc:avatica:remote:url=http://127.0.0.1:"), String.valueOf(url));
      try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
        s.execute("CREATE TABLE t (k INT) ORDER BY k SETTINGS insert_buffer_flush_interval_ms = 86400000");
        for (int i = 0; i < 20; i++) {
          s.executeUpdate("INSERT INTO t VALUES (" + i + ")");
        }
      }
      p.destroy(); // SIGTERM
      assertTrue(p.waitFor(60, TimeUnit.SECONDS), "server stopped");
      assertEquals(143, p.exitValue(), "a JVM stopped by SIGTERM exits 128 + 15 after its shutdown hooks");
    } finally {
      p.destroyForcibly();
    }
    try (Connection c = DriverManager.getConnection("jdbc:travertine:" + data); Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT count(*), (SELECT count(*) FROM system.parts) FROM t")) {
      rs.next();
      assertEquals(20, rs.getInt(1));
      assertEquals(1, rs.getInt(2), "the buffer was flushed into a part at shutdown");
    }
    try (Stream<Path> logs = Files.list(data)) {
      java.util.List<String> names = logs.map(f -> f.getFileName().toString()).toList();
      assertTrue(names.contains("travertine-server.log"), names.toString());
    }
  }
}

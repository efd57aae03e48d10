package dev.travertine.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.travertine.io.ChildJvm;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** `travertine server` as a real process: banner, remote clients, clean stop on SIGTERM. */
class ServerProcessTest {
  @TempDir Path dir;

  /** A load killed with SIGKILL mid-way (parts of it already written) leaves nothing of itself after a restart. */
  @Test
  void aLoadKilledMidWayLeavesNothing() throws Exception {
    Path data = dir.resolve("killed");
    Server server = start(data, "1g");
    Process p = server.process();
    String url = server.url();
    Thread sender = null;
    try {
      String base = url.substring("jdbc:travertine:remote:url=".length(), url.indexOf(';'));
      try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
        s.execute("CREATE TABLE t (k BIGINT NOT NULL, v VARCHAR) ORDER BY k");
        s.executeUpdate("INSERT INTO t VALUES (-1, 'kept')");
      }
      // An endless body: rows keep coming until the server dies.
      java.io.InputStream endless = new java.io.InputStream() {
        private long row;
        private byte[] cur = new byte[0];
        private int pos;

        @Override public int read() {
          if (pos == cur.length) {
            cur = (row + ",value " + (row++ % 1000) + "\n").getBytes(StandardCharsets.US_ASCII);
            pos = 0;
          }
          return cur[pos++];
        }
      };
      HttpRequest req = HttpRequest.newBuilder(URI.create(base
          + "/?query=INSERT%20INTO%20t%20FORMAT%20CSV&max_insert_block_size=50000"))
          .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new java.io.BufferedInputStream(endless)))
          .build();
      sender = new Thread(() -> {
        try {
          HttpClient.newHttpClient().send(req, HttpResponse.BodyHandlers.discarding());
        } catch (Exception e) {
          // the server was killed
        }
      });
      sender.setDaemon(true);
      sender.start();
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
      while (orcFiles(data) < 3) {
        assertTrue(System.nanoTime() < deadline, "the load wrote parts");
        Thread.sleep(50);
      }
      p.destroyForcibly(); // SIGKILL: no shutdown hook runs
      assertTrue(p.waitFor(60, TimeUnit.SECONDS));
      assertEquals(137, p.exitValue());
    } finally {
      p.destroyForcibly();
    }
    try (Connection c = DriverManager.getConnection("jdbc:travertine:" + data); Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT count(*), min(k), (SELECT count(*) FROM system.parts WHERE active) FROM t")) {
      rs.next();
      assertEquals(1, rs.getInt(1), "only the row inserted before the load");
      assertEquals(-1, rs.getLong(2));
      assertEquals(rs.getLong(3), orcFiles(data), "the killed load's part files were removed at start");
    }
  }

  /**
   * An HTTP answer far larger than the server's heap streams: 5 M rows (about 150 MB of text)
   * from a server with a 128 MB heap arrive whole and in order: held in memory, they could not.
   */
  @Test
  void aStreamedHttpAnswerUsesBoundedMemory() throws Exception {
    Server server = start(dir.resolve("stream"), "128m");
    Process p = server.process();
    try {
      String url = server.url();
      String base = url.substring("jdbc:travertine:remote:url=".length(), url.indexOf(';'));
      int n = 5_000_000;
      String sql = "SELECT number, 'row number ' || CAST(number AS VARCHAR) || ' of the stream' FROM TABLE(numbers("
          + n + "))";
      HttpResponse<java.io.InputStream> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(base
          + "/?query=" + java.net.URLEncoder.encode(sql, StandardCharsets.UTF_8))).build(),
          HttpResponse.BodyHandlers.ofInputStream());
      assertEquals(200, r.statusCode());
      long rows = 0;
      long bytes = 0;
      try (BufferedReader in = new BufferedReader(new InputStreamReader(r.body(), StandardCharsets.UTF_8), 1 << 16)) {
        String line;
        while ((line = in.readLine()) != null) {
          bytes += line.length() + 1;
          String expected = rows + "\trow number " + rows + " of the stream";
          if (!line.equals(expected)) {
            throw new AssertionError("row " + rows + ": " + line);
          }
          rows++;
        }
      }
      assertEquals(n, rows);
      assertTrue(bytes > 128L << 20, "the answer is larger than the server's heap: " + bytes);
      assertTrue(p.isAlive(), "the server is still up");
    } finally {
      p.destroy();
      p.waitFor(30, TimeUnit.SECONDS);
      p.destroyForcibly();
    }
  }

  /** A `travertine server` process and the JDBC URL its banner printed. */
  private record Server(Process process, String url) {}

  /**
   * Starts `travertine server --port 0` on {@code data} with the maximum heap {@code heap}, reads its
   * output up to the banner line with its URL, and drains the rest (so the server never blocks on
   * a full pipe).
   */
  private static Server start(Path data, String heap) throws java.io.IOException {
    Process p = ChildJvm.of(TravertineCli.class).maxHeap(heap).args("server", "--port", "0", "--data", data.toString())
        .start();
    BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
    String url = null;
    String line;
    while (url == null && (line = r.readLine()) != null) {
      int i = line.indexOf("sql -u \"");
      if (i >= 0) {
        url = line.substring(i + 8, line.lastIndexOf('"'));
      }
    }
    if (url == null || !url.startsWith("jdbc:travertine:remote:url=http://127.0.0.1:")) {
      p.destroyForcibly();
      throw new AssertionError("the server printed no URL on loopback: " + url);
    }
    Thread drain = new Thread(() -> {
      try {
        while (r.readLine() != null) {
          // the server's output
        }
      } catch (java.io.IOException e) {
        // gone
      }
    });
    drain.setDaemon(true);
    drain.start();
    return new Server(p, url);
  }

  private static long orcFiles(Path data) throws java.io.IOException {
    try (Stream<Path> files = Files.walk(data)) {
      return files.filter(f -> f.getFileName().toString().contains(".orc")).count();
    }
  }

  @Test
  void sigtermFlushesAndReleasesTheDirectory() throws Exception {
    Path data = dir.resolve("data");
    Server server = start(data, "512m");
    Process p = server.process();
    try {
      try (Connection c = DriverManager.getConnection(server.url()); Statement s = c.createStatement()) {
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

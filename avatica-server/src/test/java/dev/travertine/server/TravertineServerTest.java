package dev.travertine.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A real server on a loopback port, reached through Avatica's remote JDBC driver over HTTP. */
class TravertineServerTest {
  @TempDir Path dir;

  private ServerConfig config(Map<String, String> extra) throws Exception {
    Map<String, String> o = new HashMap<>(Map.of("port", "0", "data", dir.resolve("data").toString()));
    o.putAll(extra);
    return ServerConfig.load(null, o);
  }

  private static String scalar(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getString(1);
    }
  }

  @Test
  void tablesAreSharedAcrossConnectionsAndSurviveStop() throws Exception {
    for (String ser : new String[] {"protobuf", "json"}) {
      try (TravertineServer server = TravertineServer.start(config(Map.of("serialization", ser)))) {
        String url = server.jdbcUrl();
        assertTrue(url.contains("serialization=" + ser), url);
        try (Connection a = DriverManager.getConnection(url); Connection b = DriverManager.getConnection(url)) {
          try (Statement s = a.createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS t (k BIGINT, v VARCHAR) ENGINE = MergeTree ORDER BY k");
            assertEquals(2, s.executeUpdate("INSERT INTO t VALUES (1, 'one'), (2, 'two')"));
          }
          assertEquals(ser.equals("json") ? "4" : "2", scalar(b, "SELECT count(*) FROM t"));
          SQLException e = assertThrows(SQLException.class, () -> scalar(b, "SELECT * FROM missing"));
          assertTrue(e.getMessage().contains("Object 'missing' not found"), e.getMessage());
        }
      }
    }
    // The server flushed and released the directory: an embedded connection sees everything.
    try (Connection c = DriverManager.getConnection("jdbc:travertine:" + dir.resolve("data"))) {
      assertEquals("4", scalar(c, "SELECT count(*) FROM t"));
    }
  }

  /**
   * Over HTTP, a query in Calcite's operators stops by KILL QUERY, by max_execution_time, and when
   * its client closes the connection; other clients are served throughout.
   */
  @Test
  void queriesStopByKillLimitAndClientGoingAway() throws Exception {
    try (TravertineServer server = TravertineServer.start(config(Map.of()));
        Connection admin = DriverManager.getConnection(server.jdbcUrl())) {
      String url = server.jdbcUrl();
      // max_execution_time
      try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
        s.execute("SET max_execution_time = 1");
        SQLException e = assertThrows(SQLException.class,
            () -> scalar(c, "SELECT count(*) FROM TABLE(numbers(100000000002))"));
        assertTrue(e.getMessage().contains("(max_execution_time)"), e.getMessage());
        assertEquals("3", scalar(c, "SELECT count(*) FROM TABLE(numbers(3))"));
      }
      // max_memory_usage, for what a hash join and a sort in Calcite's operators hold
      try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
        s.execute("CREATE TABLE held (k BIGINT NOT NULL, s VARCHAR) ORDER BY k");
        s.execute("INSERT INTO held SELECT number, 'a string of some length ' || CAST(number AS VARCHAR) "
            + "FROM TABLE(numbers(50000))");
        String join = "SELECT a.s FROM held a JOIN held b ON a.k = b.k ORDER BY a.s DESC LIMIT 1";
        s.execute("SET max_memory_usage = 1000000");
        SQLException e = assertThrows(SQLException.class, () -> scalar(c, join));
        assertTrue(e.getMessage().contains("(max_memory_usage"), e.getMessage());
        assertEquals("53200", e.getSQLState(), e.getMessage());
        s.execute("SET max_memory_usage = 0");
        assertEquals("a string of some length 9999", scalar(c, join));
      }
      // KILL QUERY and a connection closed mid-query
      for (String stop : new String[] {"kill", "close"}) {
        String marker = stop.equals("kill") ? "100000000003" : "100000000004";
        Connection c = DriverManager.getConnection(url);
        java.util.concurrent.CompletableFuture<String> run = java.util.concurrent.CompletableFuture.supplyAsync(
            () -> String.valueOf(assertThrows(SQLException.class,
                () -> scalar(c, "SELECT count(*) FROM TABLE(numbers(" + marker + "))")).getMessage()));
        String listed = "SELECT count(*) FROM system.processes WHERE query LIKE '%numbers(" + marker + ")%'"
            + " AND query NOT LIKE '%system.processes%'";
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(120);
        while (scalar(admin, listed).equals("0") && System.nanoTime() < deadline) {
          Thread.sleep(20);
        }
        assertEquals("1", scalar(admin, listed), stop + ": the query runs");
        if (stop.equals("close")) {
          c.close();
        }
        while (!scalar(admin, listed).equals("0") && System.nanoTime() < deadline) {
          if (stop.equals("kill")) { // a statement being prepared has an id of its own: kill until it ends
            try (Statement s = admin.createStatement()) {
              s.execute("KILL QUERY WHERE query LIKE '%numbers(" + marker + ")%' AND query NOT LIKE '%KILL%'");
            }
          }
          Thread.sleep(100);
        }
        assertEquals("0", scalar(admin, listed), stop + ": the query stopped");
        if (stop.equals("kill")) {
          String m = run.get(120, java.util.concurrent.TimeUnit.SECONDS);
          assertTrue(m.contains("cancelled (KILL QUERY)"), m);
          c.close();
        }
        assertEquals("3", scalar(admin, "SELECT count(*) FROM TABLE(numbers(3))"), "other clients are served");
      }
    }
  }

  /**
   * Over HTTP, max_rows_to_read and max_bytes_to_read stop a query (one in Calcite's operators,
   * a join, among them), and max_concurrent_queries refuses one statement more while a long one
   * runs, until its client goes away; the server goes on serving.
   */
  @Test
  void readLimitsAndConcurrencyOverHttp() throws Exception {
    try (TravertineServer server = TravertineServer.start(config(Map.of("max_concurrent_queries", "1")));
        Connection c = DriverManager.getConnection(server.jdbcUrl()); Statement s = c.createStatement()) {
      s.execute("CREATE TABLE r (k BIGINT NOT NULL, v VARCHAR) ORDER BY k");
      s.execute("INSERT INTO r SELECT number, 'v' || CAST(number AS VARCHAR) FROM TABLE(numbers(100000))");
      s.execute("SYSTEM FLUSH TABLE r");
      String join = "SELECT count(*) FROM r a JOIN r b ON a.k = b.k";
      assertEquals("100000", scalar(c, join));
      s.execute("SET max_rows_to_read = 1000");
      SQLException e = assertThrows(SQLException.class, () -> scalar(c, join));
      assertTrue(e.getMessage().contains("(max_rows_to_read)"), e.getMessage());
      assertEquals("53400", e.getSQLState(), e.getMessage());
      s.execute("SET max_rows_to_read = 0");
      s.execute("SET max_bytes_to_read = 10000");
      e = assertThrows(SQLException.class, () -> scalar(c, "SELECT max(v) FROM r"));
      assertTrue(e.getMessage().contains("(max_bytes_to_read)"), e.getMessage());
      s.execute("SET max_bytes_to_read = 0");

      // While a long query runs, one statement more is refused; closing its connection stops it.
      long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(120);
      Connection busy = DriverManager.getConnection(server.jdbcUrl());
      java.util.concurrent.CompletableFuture<String> run = runLong(busy);
      String refused = null;
      while (refused == null && System.nanoTime() < deadline) {
        if (run.isDone()) { // it lost the race against the probe below: start it again
          assertTrue(run.join().contains("(max_concurrent_queries)"), run.join());
          run = runLong(busy);
        }
        try {
          scalar(c, "SELECT count(*) FROM TABLE(numbers(3))");
          Thread.sleep(20);
        } catch (SQLException ex) {
          refused = ex.getMessage();
          assertEquals("53300", ex.getSQLState(), refused);
        }
      }
      assertTrue(refused != null && refused.contains("Too many simultaneous queries. Maximum: 1 (max_concurrent_queries)"),
          refused);
      busy.close();
      assertTrue(run.get(60, java.util.concurrent.TimeUnit.SECONDS).contains("cancelled (connection closed)"),
          "closing the connection stopped the long query");
      String answer = null;
      while (answer == null && System.nanoTime() < deadline) { // the server lets the query go as it stops
        try {
          answer = scalar(c, join);
        } catch (SQLException ex) {
          assertTrue(ex.getMessage().contains("(max_concurrent_queries)"), ex.getMessage());
          Thread.sleep(20);
        }
      }
      assertEquals("100000", answer, "the server goes on serving");
    }
  }

  /** A query in Calcite's operators that runs until it is stopped; its error message. */
  private static java.util.concurrent.CompletableFuture<String> runLong(Connection c) {
    return java.util.concurrent.CompletableFuture.supplyAsync(() -> String.valueOf(assertThrows(SQLException.class,
        () -> scalar(c, "SELECT count(*) FROM TABLE(numbers(100000000005))")).getMessage()));
  }

  /** Over HTTP an error arrives once, in its own words, with ClickHouse's code and a SQLSTATE. */
  @Test
  void errorsArriveOnceWithCodeAndSqlState() throws Exception {
    try (TravertineServer server = TravertineServer.start(config(Map.of()));
        Connection c = DriverManager.getConnection(server.jdbcUrl()); Statement s = c.createStatement()) {
      s.execute("CREATE TABLE z (k INTEGER) ORDER BY k");
      s.execute("INSERT INTO z VALUES (0)");
      String[][] cases = {
          {"SELECT * FROM missing", "42S02", "60", "Object 'missing' not found"},
          {"SELEC 1", "42000", "62", "Syntax error: a statement cannot start with 'SELEC' at line 1, column 1"},
          {"SELECT nope FROM z", "42703", "47", "Column 'nope' not found in any table"},
          {"SELECT 1 + TRUE FROM z", "42883", "43", "Cannot apply '+' to arguments of type"},
          {"SELECT 1 / k FROM z", "22012", "153", "by zero"},
          {"SET no_such_setting = 1", "42704", "115", "Unknown setting: no_such_setting"},
      };
      for (String[] k : cases) {
        SQLException e = assertThrows(SQLException.class, () -> scalar(c, k[0]), k[0]);
        String m = e.getMessage();
        assertEquals(k[1], e.getSQLState(), k[0] + ": " + m);
        assertEquals(Integer.parseInt(k[2]), e.getErrorCode(), k[0] + ": " + m);
        assertTrue(m.contains(k[3]), k[0] + ": " + m);
        assertEquals(m.indexOf(k[3]), m.lastIndexOf(k[3]), k[0] + ": the message once: " + m);
        assertTrue(!m.contains(" -> ") && !m.contains("java.sql.SQLException"), k[0] + ": no chain: " + m);
      }
      // An error while rows are fetched (after the first frame) is an SQLException from next() too.
      int[] seen = {0};
      SQLException late = assertThrows(SQLException.class, () -> {
        try (Statement q = c.createStatement();
            ResultSet rs = q.executeQuery("SELECT 1 / (number - 5000) FROM TABLE(numbers(10000))")) {
          while (rs.next()) {
            seen[0]++;
          }
        }
      });
      assertTrue(seen[0] >= 100 && seen[0] <= 5000, "the error came with a later frame, after " + seen[0] + " rows");
      assertEquals("22012", late.getSQLState(), late.getMessage());
      assertEquals(153, late.getErrorCode(), late.getMessage());
      assertTrue(late.getMessage().contains("by zero") && !late.getMessage().contains("Remote driver error"),
          late.getMessage());
      s.execute("SET max_result_rows = 1");
      SQLException e = assertThrows(SQLException.class, () -> scalar(c, "SELECT * FROM TABLE(numbers(10))"));
      assertEquals("53400", e.getSQLState(), e.getMessage());
      s.execute("SET max_result_rows = 0");
      s.execute("SET readonly = 1");
      e = assertThrows(SQLException.class, () -> s.execute("INSERT INTO z VALUES (1)"));
      assertEquals("25006", e.getSQLState(), e.getMessage());
      assertEquals(164, e.getErrorCode(), e.getMessage());
    }
  }

  /** One port speaks both serializations: a client of either gets answers, whatever the server prefers. */
  @Test
  void onePortServesBothSerializations() throws Exception {
    try (TravertineServer server = TravertineServer.start(config(Map.of("serialization", "protobuf")))) {
      String base = server.jdbcUrl().replace(";serialization=protobuf", "");
      try (Connection pb = DriverManager.getConnection(base + ";serialization=protobuf");
          Connection js = DriverManager.getConnection(base + ";serialization=json")) {
        try (Statement s = js.createStatement()) {
          s.execute("CREATE TABLE both_ways (k BIGINT) ORDER BY k");
          assertEquals(2, s.executeUpdate("INSERT INTO both_ways VALUES (1), (2)"));
        }
        assertEquals("3", scalar(pb, "SELECT sum(k) FROM both_ways"));
        assertEquals("3", scalar(js, "SELECT sum(k) FROM both_ways"));
        SQLException e = assertThrows(SQLException.class, () -> scalar(js, "SELECT * FROM nowhere"));
        assertEquals("42S02", e.getSQLState(), e.getMessage());
      }
    }
  }

  @Test
  void mutationsReturnUpdateCountsOverHttp() throws Exception {
    try (TravertineServer server = TravertineServer.start(config(Map.of()));
        Connection c = DriverManager.getConnection(server.jdbcUrl()); Statement s = c.createStatement()) {
      s.execute("CREATE TABLE m (k BIGINT, v VARCHAR) ORDER BY k");
      assertEquals(3, s.executeUpdate("INSERT INTO m VALUES (1, 'a'), (2, 'b'), (3, 'c')"));
      assertEquals(2, s.executeUpdate("UPDATE m SET v = 'x' WHERE k >= 2"));
      assertEquals(1, s.executeUpdate("DELETE FROM m WHERE k = 1"));
      assertEquals(2, s.executeUpdate("ALTER TABLE m UPDATE v = 'y' WHERE v = 'x'"));
      assertEquals("2", scalar(c, "SELECT count(*) FROM m WHERE v = 'y'"));
      assertEquals("3", scalar(c, "SELECT count(*) FROM system.mutations WHERE \"table\" = 'm'"));
    }
  }

  @Test
  void basicAuthenticationAndHealth() throws Exception {
    String md5 = java.util.HexFormat.of().formatHex(
        java.security.MessageDigest.getInstance("MD5").digest("hashed-pw".getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    try (TravertineServer server = TravertineServer.start(config(Map.of("auth.user.alice", "s3cret",
        "auth.user.bob", "pw", "auth.readonly", "bob", "auth.user.carol", "MD5:" + md5)))) {
      String url = server.jdbcUrl();
      // Refused credentials are one SQLException in the user's words (Avatica's own client throws an
      // unchecked exception naming the HTTP status).
      for (String creds : new String[] {"", ";avatica_user=alice;avatica_password=wrong"}) {
        SQLException e = assertThrows(SQLException.class, () -> {
          try (Connection c = DriverManager.getConnection(url + creds)) {
            scalar(c, "SELECT 1");
          }
        });
        assertTrue(e.getMessage().startsWith("Authentication failed: wrong user or password"), e.getMessage());
        assertEquals("28000", e.getSQLState());
        assertEquals(516, e.getErrorCode());
      }
      try (Connection c = DriverManager.getConnection(url + ";avatica_user=alice;avatica_password=s3cret")) {
        assertEquals("1", scalar(c, "SELECT 1"));
        assertEquals("alice", scalar(c, "SELECT \"user\" FROM system.query_log WHERE query = 'SELECT 1'"));
        try (Statement s = c.createStatement()) {
          s.execute("CREATE TABLE ro (k INT)");
        }
      }
      try (Connection c = DriverManager.getConnection(url + ";avatica_user=carol;avatica_password=hashed-pw")) {
        assertEquals("1", scalar(c, "SELECT 1")); // a hashed password in the config
      }
      try (Connection c = DriverManager.getConnection(url + ";avatica_user=bob;avatica_password=pw")) {
        assertEquals("0", scalar(c, "SELECT count(*) FROM ro"));
        for (String sql : new String[] {"INSERT INTO ro VALUES (1)", "CREATE TABLE x (k INT)", "DROP TABLE ro",
            "INSERT INTO ro SELECT 1"}) {
          SQLException e = assertThrows(SQLException.class, () -> {
            try (Statement s = c.createStatement()) {
              s.execute(sql);
            }
          }, sql);
          assertTrue(e.getMessage().contains("User bob is read-only"), e.getMessage());
        }
        assertEquals("0", scalar(c, "SELECT count(*) FROM ro"));
      }
      // Probes send no credentials: /health and /ping answer them; everything else needs them.
      for (String[] probe : new String[][] {{"/health", "ok\n"}, {"/ping", "Ok.\n"}}) {
        HttpResponse<String> r = HttpClient.newHttpClient().send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + probe[0])).build(),
            HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), probe[0]);
        assertEquals(probe[1], r.body());
      }
      HttpResponse<String> metrics = HttpClient.newHttpClient().send(
          HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/metrics")).build(),
          HttpResponse.BodyHandlers.ofString());
      assertEquals(401, metrics.statusCode(), "the rest is behind authentication");
    }
    try (TravertineServer server = TravertineServer.start(config(Map.of("auth.user.alice", "s3cret",
        "auth.probes", "true")))) {
      HttpResponse<String> r = HttpClient.newHttpClient().send(
          HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/health")).build(),
          HttpResponse.BodyHandlers.ofString());
      assertEquals(401, r.statusCode(), "auth.probes = true puts the probes behind authentication too");
    }
  }

  @Test
  void clientsCannotOverrideServerConnectionProperties() throws Exception {
    try (TravertineServer server = TravertineServer.start(config(Map.of("settings.max_threads", "1")))) {
      Properties p = new Properties();
      p.setProperty("parserFactory", "org.apache.calcite.sql.parser.impl.SqlParserImpl#FACTORY");
      p.setProperty("schemaFactory", "org.apache.calcite.adapter.jdbc.JdbcSchema$Factory");
      p.setProperty("max_block_size", "1000");
      try (Connection c = DriverManager.getConnection(server.jdbcUrl(), p)) {
        try (Statement s = c.createStatement()) {
          s.execute("CREATE TABLE w (k INT) ENGINE = MergeTree ORDER BY k"); // needs Travertine's parser
        }
        assertEquals("1", scalar(c, "SELECT \"value\" FROM system.settings WHERE name = 'max_threads'"));
        assertEquals("1000", scalar(c, "SELECT \"value\" FROM system.settings WHERE name = 'max_block_size'"));
      }
      HttpResponse<String> r = HttpClient.newHttpClient().send(
          HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/health")).build(),
          HttpResponse.BodyHandlers.ofString());
      assertEquals(200, r.statusCode());
      assertEquals("ok\n", r.body());
      HttpResponse<String> m = HttpClient.newHttpClient().send(
          HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/metrics")).build(),
          HttpResponse.BodyHandlers.ofString());
      assertEquals(200, m.statusCode());
      assertTrue(m.body().contains("# TYPE travertine_tables gauge\ntravertine_tables 1\n"), m.body());
      assertTrue(m.body().contains("# TYPE travertine_read_bytes_total counter\ntravertine_read_bytes_total "), m.body());
    }
  }

  @Test
  void tlsServesHttps() throws Exception {
    Path ks = dir.resolve("server.p12");
    String keytool = Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
    Process p = new ProcessBuilder(keytool, "-genkeypair", "-alias", "travertine", "-keyalg", "RSA", "-keysize",
        "2048", "-validity", "2", "-dname", "CN=127.0.0.1", "-ext", "SAN=ip:127.0.0.1", "-storetype", "PKCS12",
        "-keystore", ks.toString(), "-storepass", "changeit", "-keypass", "changeit").redirectErrorStream(true).start();
    assertEquals(0, p.waitFor(), new String(p.getInputStream().readAllBytes()));
    try (TravertineServer server = TravertineServer.start(config(Map.of("tls.keystore", ks.toString(),
        "tls.keystore.password", "changeit")))) {
      assertTrue(server.jdbcUrl().startsWith("jdbc:travertine:remote:url=https://"), server.jdbcUrl());
      String url = server.jdbcUrl() + ";truststore=" + ks + ";truststore_password=changeit";
      try (Connection c = DriverManager.getConnection(url)) {
        assertEquals("1", scalar(c, "SELECT 1"));
      }
    }
  }

  @Test
  void badConfigIsAClearError() throws Exception {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> config(Map.of("prot", "1")));
    assertTrue(e.getMessage().contains("Unknown server setting: prot"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> config(Map.of("port", "99999")));
    assertTrue(e.getMessage().contains("Invalid port"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> config(Map.of("settings.nope", "1")));
    assertTrue(e.getMessage().contains("Unknown setting: nope"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> config(Map.of("storage.default", "ftp://x/y")));
    assertTrue(e.getMessage().contains("expected s3://bucket/prefix"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> config(Map.of("storage.cache_max_bytes", "lots")));
    assertTrue(e.getMessage().contains("Invalid storage.cache_max_bytes: 'lots'"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> config(Map.of("uncompressed_cache_size", "-1")));
    assertTrue(e.getMessage().contains("Invalid uncompressed_cache_size: '-1'"), e.getMessage());
    assertEquals("1048576", config(Map.of("uncompressed_cache_size", " 1048576")).storage()
        .get("uncompressed_cache_size"), "a server property the engine is opened with");
    e = assertThrows(IllegalArgumentException.class, () -> config(Map.of("storage.fsync", "sometimes")));
    assertTrue(e.getMessage().contains("Invalid value for setting storage.fsync: 'sometimes'"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> config(Map.of("storage.nope", "1")));
    assertTrue(e.getMessage().contains("Unknown server setting: storage.nope"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> config(Map.of("max_concurrent_queries", "many")));
    assertTrue(e.getMessage().contains("max_concurrent_queries: 'many'"), e.getMessage());
    assertEquals("4", config(Map.of("max_concurrent_queries_for_user", "4")).storage()
        .get("max_concurrent_queries_for_user"));
  }
}

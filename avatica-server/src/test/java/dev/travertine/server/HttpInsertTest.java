package dev.travertine.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.travertine.server.tools.Loader;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** ClickHouse's HTTP insert on a real server (loopback port, Basic authentication), and the remote loader over it. */
class HttpInsertTest {
  @TempDir Path dir;

  private static final HttpClient HTTP = HttpClient.newHttpClient();

  private TravertineServer start() throws Exception {
    Map<String, String> o = new HashMap<>(Map.of("port", "0", "data", dir.resolve("data").toString(),
        "auth.user.alice", "s3cret", "auth.user.bob", "pw", "auth.readonly", "bob"));
    return TravertineServer.start(ServerConfig.load(null, o));
  }

  private static HttpResponse<String> post(TravertineServer s, String user, String password, String query,
      byte[] body, String encoding) throws Exception {
    return post(s, user, password, query, body, encoding, null);
  }

  /** {@code query} may append {@code &name=value} settings; a null header is not sent. */
  private static HttpResponse<String> post(TravertineServer s, String user, String password, String query,
      byte[] body, String encoding, String contentType) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + s.port() + "/?query="
        + URLEncoder.encode(query, StandardCharsets.UTF_8).replace("%26", "&").replace("%3D", "=")))
        .POST(HttpRequest.BodyPublishers.ofByteArray(body));
    if (user != null) {
      b.header("Authorization", "Basic " + Base64.getEncoder().encodeToString((user + ":" + password)
          .getBytes(StandardCharsets.UTF_8)));
    }
    if (encoding != null) {
      b.header("Content-Encoding", encoding);
    }
    if (contentType != null) {
      b.header("Content-Type", contentType);
    }
    return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static long count(Connection c, String table) throws SQLException {
    try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM " + table)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  @Test
  void insertsOverHttpAllOrNothingAndAuthenticated() throws Exception {
    try (TravertineServer s = start();
        Connection c = DriverManager.getConnection(s.jdbcUrl() + ";avatica_user=alice;avatica_password=s3cret")) {
      try (Statement st = c.createStatement()) {
        st.execute("CREATE TABLE t (k INT NOT NULL, v VARCHAR, n BIGINT NOT NULL DEFAULT 7) ORDER BY k");
      }
      StringBuilder csv = new StringBuilder();
      for (int i = 0; i < 100_000; i++) {
        csv.append(i).append(",\"v ").append(i % 10).append("\",").append(i).append('\n');
      }
      byte[] body = csv.toString().getBytes(StandardCharsets.UTF_8);

      HttpResponse<String> r = post(s, "alice", "wrong", "INSERT INTO t FORMAT CSV", body, null);
      assertEquals(401, r.statusCode());
      r = post(s, null, null, "INSERT INTO t FORMAT CSV", body, null);
      assertEquals(401, r.statusCode());
      assertEquals(0, count(c, "t"), "an unauthenticated insert loads nothing");

      r = post(s, "bob", "pw", "INSERT INTO t FORMAT CSV", body, null);
      assertEquals(403, r.statusCode(), r.body());
      assertTrue(r.body().startsWith("Code: 164. DB::Exception: "), r.body());
      assertEquals("164", r.headers().firstValue("X-ClickHouse-Exception-Code").orElse(""));

      r = post(s, "alice", "s3cret", "INSERT INTO t FORMAT CSV", body, null);
      assertEquals(200, r.statusCode(), r.body());
      assertTrue(r.headers().firstValue("X-Travertine-Summary").orElse("").contains("\"written_rows\":\"100000\""));
      assertTrue(r.headers().firstValue("X-ClickHouse-Summary").orElse("").contains("\"written_rows\":\"100000\""));
      assertEquals(100_000, count(c, "t"));

      // A bad row in the middle: 400, and nothing of that insert.
      String bad = csv.toString().replace("\n500,", "\nfive hundred,");
      r = post(s, "alice", "s3cret", "INSERT INTO t FORMAT CSV", bad.getBytes(StandardCharsets.UTF_8), null);
      assertEquals(400, r.statusCode(), r.body());
      assertEquals("Code: 27. DB::Exception: body:501: column k: cannot read 'five hundred' as INTEGER; nothing was"
          + " loaded", r.body().strip());
      assertEquals("27", r.headers().firstValue("X-ClickHouse-Exception-Code").orElse(""));
      assertEquals(100_000, count(c, "t"));
      r = post(s, "alice", "s3cret", "INSERT INTO t FORMAT CSV&input_format_allow_errors_num=1",
          bad.getBytes(StandardCharsets.UTF_8), null);
      assertEquals(200, r.statusCode(), r.body());
      assertEquals(199_999, count(c, "t"));

      // A column list, a header, a gzip body.
      ByteArrayOutputStream gz = new ByteArrayOutputStream();
      try (OutputStream out = new GZIPOutputStream(gz)) {
        out.write("v\tk\nx\t-1\ny\t-2\n".getBytes(StandardCharsets.UTF_8));
      }
      r = post(s, "alice", "s3cret", "INSERT INTO t FORMAT TabSeparatedWithNames", gz.toByteArray(), "gzip");
      assertEquals(200, r.statusCode(), r.body());
      r = post(s, "alice", "s3cret", "INSERT INTO t (v, k) FORMAT CSV", "z,-3\n".getBytes(StandardCharsets.UTF_8), null);
      assertEquals(200, r.statusCode(), r.body());
      try (Statement st = c.createStatement();
          ResultSet rs = st.executeQuery("SELECT k, v, n FROM t WHERE k < 0 ORDER BY k")) {
        StringBuilder got = new StringBuilder();
        while (rs.next()) {
          got.append(rs.getInt(1)).append(' ').append(rs.getString(2)).append(' ').append(rs.getLong(3)).append(';');
        }
        assertEquals("-3 z 7;-2 y 7;-1 x 7;", got.toString(), "missing columns take their DEFAULT");
      }

      // Clear errors for what the endpoint does not take.
      r = post(s, "alice", "s3cret", "INSERT INTO nope FORMAT CSV", body, null);
      assertEquals(404, r.statusCode(), r.body());
      r = post(s, "alice", "s3cret", "INSERT INTO t FORMAT Parquet", body, null);
      assertEquals(400, r.statusCode());
      assertTrue(r.body().contains("Cannot read body as Parquet"), r.body());
      r = post(s, "alice", "s3cret", "INSERT INTO t FORMAT Avro", body, null);
      assertEquals(400, r.statusCode());
      assertTrue(r.body().contains("Unknown format Avro"), r.body());
      r = post(s, "alice", "s3cret", "SELECT 1", new byte[0], null);
      assertEquals(200, r.statusCode(), "a query parameter that is no insert is a query (HttpQuery)");
      assertEquals("1\n", r.body());
      r = post(s, "alice", "s3cret", "INSERT INTO t FORMAT CSV&no_such_setting=1", body, null);
      assertEquals(400, r.statusCode(), r.body());
      assertTrue(r.body().contains("Unknown setting: no_such_setting"), r.body());
      assertEquals(100_000 + 99_999 + 3, count(c, "t"));

      // JSON lines and Parquet bodies: columns by name, one insert each.
      r = post(s, "alice", "s3cret", "INSERT INTO t FORMAT JSONEachRow",
          "{\"k\": -10, \"v\": \"j\"}\n{\"v\": \"k\", \"k\": -11, \"extra\": [1]}\n".getBytes(StandardCharsets.UTF_8), null);
      assertEquals(200, r.statusCode(), r.body());
      java.nio.file.Path pq = dir.resolve("rows.parquet");
      var schema = new dev.travertine.mergetree.schema.TableSchema(List.of(
          new dev.travertine.mergetree.schema.Column("v", dev.travertine.vector.DataType.varchar(-1), true),
          new dev.travertine.mergetree.schema.Column("k", dev.travertine.vector.DataType.of(
              dev.travertine.vector.TypeKind.BIGINT), false)));
      var out = new dev.travertine.io.local.LocalFileIO(dir, false).newOutputFile("rows.parquet").create();
      try (var w = new dev.travertine.formats.parquet.ParquetRowWriter(
          dev.travertine.formats.parquet.ParquetIO.output("rows.parquet", out), schema)) {
        for (long k = -20; k > -25; k--) {
          w.write(new Object[] {"p" + k, k});
        }
      }
      out.close();
      r = post(s, "alice", "s3cret", "INSERT INTO t FORMAT Parquet", java.nio.file.Files.readAllBytes(pq), null);
      assertEquals(200, r.statusCode(), r.body());
      try (Statement st = c.createStatement();
          ResultSet rs = st.executeQuery("SELECT count(*), min(k), max(v) FROM t WHERE k <= -10")) {
        rs.next();
        assertEquals("7 -24 p-24", rs.getLong(1) + " " + rs.getLong(2) + " " + rs.getString(3));
      }
      r = post(s, "alice", "s3cret", "INSERT INTO t (k) FORMAT Parquet", java.nio.file.Files.readAllBytes(pq), null);
      assertEquals(400, r.statusCode(), r.body());
      // A Parquet value that cannot be read fails the insert, or is skipped with input_format_allow_errors_num.
      var textKeys = new dev.travertine.mergetree.schema.TableSchema(List.of(
          new dev.travertine.mergetree.schema.Column("v", dev.travertine.vector.DataType.varchar(-1), true),
          new dev.travertine.mergetree.schema.Column("k", dev.travertine.vector.DataType.varchar(-1), false)));
      var out2 = new dev.travertine.io.local.LocalFileIO(dir, false).newOutputFile("keys.parquet").create();
      try (var w = new dev.travertine.formats.parquet.ParquetRowWriter(
          dev.travertine.formats.parquet.ParquetIO.output("keys.parquet", out2), textKeys)) {
        w.write(new Object[] {"q-30", "-30"});
        w.write(new Object[] {"q-oops", "oops"});
        w.write(new Object[] {"q-31", "-31"});
      }
      out2.close();
      byte[] keys = java.nio.file.Files.readAllBytes(dir.resolve("keys.parquet"));
      r = post(s, "alice", "s3cret", "INSERT INTO t FORMAT Parquet", keys, null);
      assertEquals(400, r.statusCode(), r.body());
      assertTrue(r.body().contains("row 2: column k: cannot read 'oops'"), r.body());
      assertEquals(0, count(c, "t WHERE k <= -30"), "nothing of the failed insert");
      r = post(s, "alice", "s3cret", "INSERT INTO t FORMAT Parquet&input_format_allow_errors_num=1", keys, null);
      assertEquals(200, r.statusCode(), r.body());
      assertTrue(r.headers().firstValue("X-Travertine-Summary").orElse("").contains("\"bad_rows\":\"1\""),
          r.headers().toString());
      assertEquals(2, count(c, "t WHERE k <= -30"));
      try (var files = java.nio.file.Files.list(dir.resolve("data").resolve("tmp"))) {
        assertEquals(0, files.count(), "the spooled body is deleted");
      }
    }
  }

  /**
   * {@code curl --data-binary @hits.csv 'http://…/?query=INSERT…'} sends the body as
   * {@code application/x-www-form-urlencoded}: the rows are still rows, whatever their size and
   * however many '=' and '&' they hold, and settings still come from the URL alone.
   */
  @Test
  void bodiesSentAsFormContentAreRows() throws Exception {
    try (TravertineServer s = start();
        Connection c = DriverManager.getConnection(s.jdbcUrl() + ";avatica_user=alice;avatica_password=s3cret")) {
      try (Statement st = c.createStatement()) {
        st.execute("CREATE TABLE f (k INT NOT NULL, v VARCHAR) ORDER BY k");
      }
      StringBuilder csv = new StringBuilder();
      for (int i = 0; i < 50_000; i++) {
        csv.append(i).append(",a=").append(i).append("&query=DROP TABLE f&b\n").append('\n');
      }
      for (String body : List.of("-1,x=1&y=2\n", csv.toString())) {
        HttpResponse<String> r = post(s, "alice", "s3cret", "INSERT INTO f FORMAT CSV&input_format_allow_errors_num=0",
            body.getBytes(StandardCharsets.UTF_8), null, "application/x-www-form-urlencoded");
        assertEquals(200, r.statusCode(), r.body());
      }
      assertEquals(50_001, count(c, "f"));
      try (Statement st = c.createStatement();
          ResultSet rs = st.executeQuery("SELECT v FROM f WHERE k IN (-1, 49999) ORDER BY k")) {
        rs.next();
        assertEquals("x=1&y=2", rs.getString(1));
        rs.next();
        assertEquals("a=49999&query=DROP TABLE f&b", rs.getString(1));
      }
      // A malformed URL escape (which java.net.URI will not send: a raw request) is a 400, and the body is not loaded.
      String auth = "Basic " + Base64.getEncoder().encodeToString("alice:s3cret".getBytes(StandardCharsets.UTF_8));
      try (java.net.Socket sock = new java.net.Socket("127.0.0.1", s.port())) {
        sock.getOutputStream().write(("POST /?query=INSERT%20INTO%20f%20FORMAT%20CSV&x=%zz HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            + "Authorization: " + auth + "\r\nContent-Length: 5\r\nConnection: close\r\n\r\n-2,y\n")
            .getBytes(StandardCharsets.UTF_8));
        String answer = new String(sock.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(answer.startsWith("HTTP/1.1 400"), answer);
      }
      assertEquals(50_001, count(c, "f"));
    }
  }

  @Test
  void theRemoteLoaderStreamsFilesToTheHttpInsert() throws Exception {
    try (TravertineServer s = start();
        Connection c = DriverManager.getConnection(s.jdbcUrl() + ";avatica_user=alice;avatica_password=s3cret")) {
      try (Statement st = c.createStatement()) {
        st.execute("CREATE TABLE l (k INT NOT NULL, v VARCHAR) ORDER BY k");
      }
      Path a = dir.resolve("a.csv");
      Files.writeString(a, "k,v\n1,one\n2,two\n");
      Path b = dir.resolve("b.csv.gz");
      try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(b))) {
        out.write("k,v\n3,three\n".getBytes(StandardCharsets.UTF_8));
      }
      String url = "jdbc:avatica:remote:url=http://127.0.0.1:" + s.port() + ";serialization=protobuf";
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      PrintStream ps = new PrintStream(bytes, true, StandardCharsets.UTF_8);
      int rc = Loader.run(new Loader.Options(url, "alice", "s3cret", "l", "csv", true, 0, 100, List.of(a, b), false),
          ps, ps);
      assertEquals(0, rc, bytes.toString(StandardCharsets.UTF_8));
      assertTrue(bytes.toString(StandardCharsets.UTF_8).contains("loaded 3 rows into l"));
      assertEquals(3, count(c, "l"));

      Path bad = dir.resolve("bad.csv");
      Files.writeString(bad, "k,v\n4,four\nx,five\n");
      bytes.reset();
      rc = Loader.run(new Loader.Options(url, "alice", "s3cret", "l", "csv", true, 0, 100, List.of(bad), false),
          ps, ps);
      assertEquals(1, rc);
      assertTrue(bytes.toString(StandardCharsets.UTF_8).contains(bad + ":3: column k: cannot read 'x' as INTEGER"),
          bytes.toString(StandardCharsets.UTF_8));
      assertEquals(3, count(c, "l"), "nothing of a failed load");

      bytes.reset();
      rc = Loader.run(new Loader.Options(url, "alice", "nope", "l", "csv", true, 0, 100, List.of(a), false), ps, ps);
      assertEquals(1, rc);
      assertTrue(bytes.toString(StandardCharsets.UTF_8).contains("authentication failed (HTTP 401)"));
      assertEquals(3, count(c, "l"));

      // Many megabytes: refused while they stream (wrong password), then loaded whole.
      StringBuilder many = new StringBuilder("k,v\n");
      for (int i = 10; i < 400_000; i++) {
        many.append(i).append(",value number ").append(i).append('\n');
      }
      Path big = dir.resolve("big.csv");
      Files.writeString(big, many);
      bytes.reset();
      rc = Loader.run(new Loader.Options(url, "alice", "nope", "l", "csv", true, 0, 100, List.of(big), false), ps, ps);
      assertEquals(1, rc, bytes.toString(StandardCharsets.UTF_8));
      assertTrue(bytes.toString(StandardCharsets.UTF_8).contains("authentication failed (HTTP 401)"));
      assertEquals(3, count(c, "l"));
      bytes.reset();
      rc = Loader.run(new Loader.Options(url, "alice", "s3cret", "l", "csv", true, 0, 100, List.of(big), false), ps, ps);
      assertEquals(0, rc, bytes.toString(StandardCharsets.UTF_8));
      assertEquals(3 + 399_990, count(c, "l"));

      // A compressed file cut short: the loader fails and the server loads nothing of it.
      ByteArrayOutputStream gz = new ByteArrayOutputStream();
      try (OutputStream out = new GZIPOutputStream(gz)) {
        out.write(many.toString().replace("\n1", "\n-1").getBytes(StandardCharsets.UTF_8));
      }
      Path cut = dir.resolve("cut.csv.gz");
      Files.write(cut, java.util.Arrays.copyOf(gz.toByteArray(), gz.size() / 2));
      bytes.reset();
      assertThrows(java.io.IOException.class, () -> Loader.run(new Loader.Options(url, "alice", "s3cret", "l", "csv",
          true, 0, 100, List.of(cut), false), ps, ps));
      // The server may still be reading what it got: give it time to (wrongly) commit before looking.
      for (int i = 0; i < 20; i++) {
        assertEquals(3 + 399_990, count(c, "l"), "nothing of a file that could not be read to its end");
        Thread.sleep(100);
      }
    }
  }

  /**
   * What ClickHouse clients send besides the query parameter and Basic: a body that begins with the
   * insert statement (rows after its line break), a compressed SQL body, and credentials in
   * {@code X-ClickHouse-User}/{@code X-ClickHouse-Key} or in {@code user}/{@code password}.
   */
  @Test
  void insertInTheBodyAndClickHouseCredentials() throws Exception {
    try (TravertineServer s = start();
        Connection c = DriverManager.getConnection(s.jdbcUrl() + ";avatica_user=alice;avatica_password=s3cret")) {
      try (Statement st = c.createStatement()) {
        st.execute("CREATE TABLE t (k INT NOT NULL, v VARCHAR) ORDER BY k");
      }
      String base = "http://127.0.0.1:" + s.port() + "/";
      HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base))
          .header("X-ClickHouse-User", "alice").header("X-ClickHouse-Key", "s3cret")
          .POST(HttpRequest.BodyPublishers.ofString("INSERT INTO t FORMAT CSV\n1,one\n2,\"two, \"\"2\"\"\"\n"));
      HttpResponse<String> r = HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
      assertEquals(200, r.statusCode(), r.body());
      assertTrue(r.headers().firstValue("X-ClickHouse-Summary").orElse("").contains("\"written_rows\":\"2\""),
          r.headers().map().toString());

      // JSONEachRow rows on the statement's own line, a column list, credentials as URL parameters.
      r = HTTP.send(HttpRequest.newBuilder(URI.create(base + "?user=alice&password=s3cret"))
          .POST(HttpRequest.BodyPublishers.ofString("  insert into t (k, v) format JSONEachRow\r\n{\"k\": 3, \"v\": null}"))
          .build(), HttpResponse.BodyHandlers.ofString());
      assertEquals(200, r.statusCode(), r.body());

      // A gzip body of SQL, and of an insert with its rows.
      for (String sql : List.of("INSERT INTO t VALUES (4, 'four')", "INSERT INTO t FORMAT TSV\n5\tfive\n")) {
        ByteArrayOutputStream gz = new ByteArrayOutputStream();
        try (OutputStream out = new GZIPOutputStream(gz)) {
          out.write(sql.getBytes(StandardCharsets.UTF_8));
        }
        r = HTTP.send(HttpRequest.newBuilder(URI.create(base)).header("Content-Encoding", "gzip")
            .header("X-ClickHouse-User", "alice").header("X-ClickHouse-Key", "s3cret")
            .POST(HttpRequest.BodyPublishers.ofByteArray(gz.toByteArray())).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), sql + ": " + r.body());
      }
      try (Statement st = c.createStatement();
          ResultSet rs = st.executeQuery("SELECT k, v FROM t ORDER BY k")) {
        StringBuilder got = new StringBuilder();
        while (rs.next()) {
          got.append(rs.getInt(1)).append(' ').append(rs.getString(2)).append(';');
        }
        assertEquals("1 one;2 two, \"2\";3 null;4 four;5 five;", got.toString());
      }

      // Wrong credentials in either form are refused, and a read-only user's body insert too.
      r = HTTP.send(HttpRequest.newBuilder(URI.create(base)).header("X-ClickHouse-User", "alice")
          .header("X-ClickHouse-Key", "wrong").POST(HttpRequest.BodyPublishers.ofString("INSERT INTO t FORMAT CSV\n9,x\n"))
          .build(), HttpResponse.BodyHandlers.ofString());
      assertEquals(401, r.statusCode());
      r = HTTP.send(HttpRequest.newBuilder(URI.create(base + "?user=alice&password=wrong&query=SELECT%201")).build(),
          HttpResponse.BodyHandlers.ofString());
      assertEquals(401, r.statusCode());
      r = HTTP.send(HttpRequest.newBuilder(URI.create(base + "?user=bob&password=pw"))
          .POST(HttpRequest.BodyPublishers.ofString("INSERT INTO t FORMAT CSV\n9,x\n")).build(),
          HttpResponse.BodyHandlers.ofString());
      assertEquals(403, r.statusCode(), r.body());
      assertEquals("1\n", HTTP.send(HttpRequest.newBuilder(URI.create(base + "?user=bob&password=pw&query=SELECT%201"))
          .build(), HttpResponse.BodyHandlers.ofString()).body(), "a read-only user reads");
      assertEquals(5, count(c, "t"));
    }
  }
}

package dev.travertine.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ClickHouse's HTTP interface for queries, driven by a real HTTP client against a real server:
 * GET and POST, formats that round-trip every type through an HTTP insert, sessions, query
 * parameters, query ids and KILL, compression, errors with their codes, and the read-only GET.
 */
class HttpQueryTest {
  @TempDir Path dir;
  private TravertineServer server;
  private final HttpClient http = HttpClient.newHttpClient();

  @BeforeEach void start() throws Exception {
    server = TravertineServer.start(config(Map.of()));
  }

  @AfterEach void stop() throws Exception {
    if (server != null) {
      server.close();
    }
  }

  private ServerConfig config(Map<String, String> extra) throws Exception {
    Map<String, String> o = new HashMap<>(Map.of("port", "0", "data", dir.resolve("data").toString()));
    o.putAll(extra);
    return ServerConfig.load(null, o);
  }

  private String base() {
    return "http://127.0.0.1:" + server.port() + "/";
  }

  private static String enc(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }

  private HttpResponse<String> get(String query, String extra) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create(base() + "?query=" + enc(query) + extra)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> post(String params, String body) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create(base() + params))
        .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
  }

  private String ok(HttpResponse<String> r) {
    assertEquals(200, r.statusCode(), r.body());
    return r.body();
  }

  private void fill() throws Exception {
    ok(post("", "CREATE TABLE v (k INTEGER NOT NULL, b BOOLEAN, i BIGINT, x DOUBLE, dc DECIMAL(12, 3), s VARCHAR,"
        + " d DATE, ts TIMESTAMP) ORDER BY k"));
    ok(post("", "INSERT INTO v VALUES (1, TRUE, -9000000000, 1.5E0, 12.345, 'tab\there, \"quoted\", ''single''',"
        + " DATE '2024-02-29', TIMESTAMP '2024-02-29 23:59:58.123'),"
        + " (2, NULL, NULL, NULL, NULL, NULL, NULL, NULL),"
        + " (3, FALSE, 0, -2.5E-3, -0.5, U&'unicode \\00E9\\4E2D and a\\000Anewline', DATE '1969-12-31',"
        + " TIMESTAMP '1970-01-01 00:00:00'), (4, FALSE, 1, 0E0, 0, '', DATE '2000-01-01', TIMESTAMP '2000-01-01 00:00:00')"));
  }

  @Test void getAndPostAnswerInTabSeparatedByDefault() throws Exception {
    assertEquals("1\n", ok(get("SELECT 1", "")));
    assertEquals("2\n", ok(post("", "SELECT 1 + 1")));
    assertEquals("3\n", ok(post("?query=" + enc("SELECT 1 +"), "2")), "the query parameter, then the body");
    assertEquals("Ok.\n", ok(http.send(HttpRequest.newBuilder(URI.create(base())).build(),
        HttpResponse.BodyHandlers.ofString())));
    HttpResponse<String> r = get("SELECT 1", "&query_id=mine");
    assertEquals("mine", r.headers().firstValue("X-ClickHouse-Query-Id").orElse(""));
    assertEquals("TabSeparated", r.headers().firstValue("X-ClickHouse-Format").orElse(""));
  }

  /** Every format the insert takes round-trips every type, NULLs, unicode, quotes and line breaks. */
  @Test void formatsRoundTripThroughAnInsert() throws Exception {
    fill();
    for (String format : List.of("CSVWithNames", "TabSeparatedWithNames", "JSONEachRow", "CSV", "TabSeparated")) {
      String copy = "c_" + format.toLowerCase(java.util.Locale.ROOT);
      ok(post("", "CREATE TABLE " + copy + " AS SELECT * FROM v WHERE k < 0"));
      String out = ok(get("SELECT * FROM v ORDER BY k FORMAT " + format, ""));
      ok(post("?query=" + enc("INSERT INTO " + copy + " FORMAT " + format), out));
      assertEquals("0\n", ok(get("SELECT count(*) FROM (SELECT * FROM v EXCEPT SELECT * FROM " + copy + ")", "")),
          format + " lost or changed a value:\n" + out);
      assertEquals("4\n", ok(get("SELECT count(*) FROM " + copy, "")), format);
    }
    // Parquet: binary out, the same bytes in again.
    ok(post("", "CREATE TABLE c_parquet AS SELECT * FROM v WHERE k < 0"));
    HttpResponse<byte[]> pq = http.send(HttpRequest.newBuilder(URI.create(base() + "?query="
        + enc("SELECT * FROM v ORDER BY k FORMAT Parquet"))).build(), HttpResponse.BodyHandlers.ofByteArray());
    assertEquals(200, pq.statusCode());
    assertEquals("Parquet", pq.headers().firstValue("X-ClickHouse-Format").orElse(""));
    assertEquals("PAR1", new String(pq.body(), 0, 4, StandardCharsets.US_ASCII));
    HttpResponse<String> in = http.send(HttpRequest.newBuilder(URI.create(base() + "?query="
        + enc("INSERT INTO c_parquet FORMAT Parquet"))).POST(HttpRequest.BodyPublishers.ofByteArray(pq.body())).build(),
        HttpResponse.BodyHandlers.ofString());
    ok(in);
    assertEquals("0\n", ok(get("SELECT count(*) FROM (SELECT * FROM v EXCEPT SELECT * FROM c_parquet)", "")),
        "Parquet lost or changed a value");
    assertEquals("4\n", ok(get("SELECT count(*) FROM c_parquet", "")));
    String json = ok(get("SELECT k, s, d FROM v WHERE k IN (2, 3) ORDER BY k", "&default_format=JSON"));
    assertTrue(json.contains("{\"k\":2,\"s\":null,\"d\":null}"), json);
    assertTrue(json.contains("\"s\":\"unicode \u00e9\u4e2d and a\\nnewline\""), json);
    assertTrue(json.contains("\"rows\": 2"), json);
    String tsv = ok(get("SELECT s FROM v WHERE k IN (1, 2) ORDER BY k", ""));
    assertEquals("tab\\there, \"quoted\", 'single'\n\\N\n", tsv);
  }

  @Test void sessionsKeepSettingsAndParametersAreLiterals() throws Exception {
    String q = "SELECT value FROM system.settings WHERE name = 'max_result_rows'";
    ok(get("SET max_result_rows = 7", "&session_id=s1"));
    assertEquals("7\n", ok(get(q, "&session_id=s1")));
    assertEquals("0\n", ok(get(q, "")), "no session: the defaults");
    assertEquals("0\n", ok(get(q, "&session_id=s2")));
    assertEquals("5\n", ok(get(q, "&max_result_rows=5")), "a setting as a parameter");
    assertEquals("400", String.valueOf(get(q, "&session_id=s1&session_timeout=0").statusCode()));
    fill();
    assertEquals("3\n", ok(get("SELECT k FROM v WHERE k = {k:UInt32}", "&param_k=3")));
    assertEquals("1\n", ok(get("SELECT k FROM v WHERE s = {s:String}", "&param_s="
        + enc("tab\there, \"quoted\", 'single'"))));
    assertEquals("0\n", ok(get("SELECT count(*) FROM v WHERE s = {s:String}", "&param_s=" + enc("x' OR '1' = '1"))),
        "a value is a literal, never SQL");
    HttpResponse<String> bad = get("SELECT {k:UInt32}", "&param_k=" + enc("1; DROP TABLE v"));
    assertEquals(400, bad.statusCode());
    assertTrue(bad.body().startsWith("Code: 456. "), bad.body());
    assertEquals(400, get("SELECT {missing:UInt32}", "").statusCode());
  }

  @Test void errorsHaveTheirCodes() throws Exception {
    Object[][] cases = {
        {"SELEC 1", 400, 62}, {"SELECT * FROM nowhere", 404, 60}, {"SELECT 1; SELECT 2", 400, 62},
        {"SELECT 1 FORMAT Nope", 400, 73}, {"SELECT nope", 400, 47}, {"SELECT 1 / 0", 400, 153},
    };
    for (Object[] k : cases) {
      HttpResponse<String> r = get((String) k[0], "");
      assertEquals(k[1], r.statusCode(), k[0] + ": " + r.body());
      assertEquals(String.valueOf(k[2]), r.headers().firstValue("X-ClickHouse-Exception-Code").orElse(""), (String) k[0]);
      assertTrue(r.body().startsWith("Code: " + k[2] + ". DB::Exception: "), r.body());
    }
    HttpResponse<String> parse = get("SELECT * FORM v", "");
    assertEquals(400, parse.statusCode());
    assertTrue(parse.body().strip().indexOf('\n') < 0 && parse.body().contains("Encountered \"v\" at line 1, column 15"),
        "a parse error is one line that names the word: " + parse.body());
    HttpResponse<String> unknown = get("SELECT 1", "&no_such_setting=1");
    assertEquals(115, Integer.parseInt(unknown.headers().firstValue("X-ClickHouse-Exception-Code").orElse("0")),
        unknown.body());
    HttpResponse<String> write = get("CREATE TABLE g (k INTEGER) ORDER BY k", "");
    assertEquals(400, write.statusCode());
    assertTrue(write.body().contains("GET is read-only"), write.body());
    assertEquals(404, get("SELECT 1", "&database=elsewhere").statusCode());
    assertEquals("1\n", ok(get("SELECT 1", "&database=default")));
  }

  /** Every answer says what its statement read and wrote: the summary header, and JSON's statistics. */
  @Test void summariesOfRowsAndBytes() throws Exception {
    fill();
    HttpResponse<String> r = get("SELECT sum(i) FROM v", "");
    assertEquals("-8999999999\n", ok(r));
    String summary = r.headers().firstValue("X-ClickHouse-Summary").orElse("");
    assertTrue(summary.contains("\"read_rows\":\"4\"") && summary.contains("\"result_rows\":\"1\"")
        && !summary.contains("\"read_bytes\":\"0\""), summary);
    String json = ok(get("SELECT k FROM v WHERE k > 2 FORMAT JSON", ""));
    assertTrue(json.matches("(?s).*\"statistics\":\\s*\\{\\s*\"elapsed\": [0-9.]+,\\s*\"rows_read\": 4,\\s*\"bytes_read\": [1-9].*"),
        json);
    r = post("", "INSERT INTO v SELECT k + 10, b, i, x, dc, s, d, ts FROM v");
    ok(r);
    summary = r.headers().firstValue("X-ClickHouse-Summary").orElse("");
    assertTrue(summary.contains("\"written_rows\":\"4\"") && summary.contains("\"read_rows\":\"4\""), summary);
  }

  @Test void compressedAnswers() throws Exception {
    String plain = ok(get("SELECT number FROM TABLE(numbers(10000))", ""));
    for (String encoding : List.of("gzip", "zstd")) {
      HttpResponse<InputStream> r = http.send(HttpRequest.newBuilder(URI.create(base() + "?query="
          + enc("SELECT number FROM TABLE(numbers(10000))"))).header("Accept-Encoding", encoding).build(),
          HttpResponse.BodyHandlers.ofInputStream());
      assertEquals(encoding, r.headers().firstValue("Content-Encoding").orElse(""));
      try (InputStream in = encoding.equals("gzip") ? new GZIPInputStream(r.body())
          : new com.github.luben.zstd.ZstdInputStream(r.body())) {
        assertEquals(plain, new String(in.readAllBytes(), StandardCharsets.UTF_8), encoding);
      }
    }
  }

  /** A query the client names can be killed by that name; one whose client goes away stops. */
  @Test void killByQueryIdAndDisconnect() throws Exception {
    CompletableFuture<HttpResponse<String>> running = http.sendAsync(HttpRequest.newBuilder(URI.create(base()
        + "?query_id=long-one")).POST(HttpRequest.BodyPublishers.ofString(
            "SELECT count(*) FROM TABLE(numbers(100000000000)) WHERE MOD(number, 7) = 3")).build(),
        HttpResponse.BodyHandlers.ofString());
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    // running for a second: past planning, in its execution
    while (!ok(get("SELECT count(*) FROM system.processes WHERE query_id = 'long-one' AND elapsed > 1", ""))
        .equals("1\n")) {
      assertTrue(System.nanoTime() < deadline, "the query started");
      Thread.sleep(20);
    }
    HttpResponse<String> same = post("?query_id=long-one", "SELECT 1");
    assertEquals(400, same.statusCode(), "a running query has that id: " + same.body());
    assertTrue(same.body().startsWith("Code: 216. "), same.body());
    ok(post("", "KILL QUERY WHERE query_id = 'long-one'"));
    HttpResponse<String> killed = running.get(60, TimeUnit.SECONDS);
    assertEquals("394", killed.headers().firstValue("X-ClickHouse-Exception-Code").orElse(""), killed.body());

    // A streamed answer whose reader hangs up: the query ends (its writes fail) and leaves the processes.
    HttpResponse<InputStream> r = http.send(HttpRequest.newBuilder(URI.create(base() + "?query_id=stream-one&query="
        + enc("SELECT number FROM TABLE(numbers(100000000000))"))).build(), HttpResponse.BodyHandlers.ofInputStream());
    InputStream body = r.body();
    assertTrue(body.read(new byte[1 << 16]) > 0);
    body.close();
    deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (!ok(get("SELECT count(*) FROM system.processes WHERE query_id = 'stream-one'", "")).equals("0\n")) {
      assertTrue(System.nanoTime() < deadline, "the abandoned query stopped");
      Thread.sleep(50);
    }
  }

  /** The console is served, and the queries it sends for its side panel answer in the JSON it reads. */
  @Test void theConsoleIsServed() throws Exception {
    HttpResponse<String> page = http.send(HttpRequest.newBuilder(URI.create(base() + "play")).build(),
        HttpResponse.BodyHandlers.ofString());
    assertEquals(200, page.statusCode());
    assertTrue(page.headers().firstValue("Content-Type").orElse("").startsWith("text/html"));
    assertTrue(page.body().contains("Ctrl-Enter") && page.body().contains("FORMAT JSONCompact"), page.body());
    fill();
    String tables = ok(post("?session_id=p", "SELECT name, total_rows FROM system.tables ORDER BY name FORMAT JSONCompact"));
    assertTrue(tables.contains("\"data\":") && tables.contains("[\"v\", 4]") && tables.contains("\"rows\": 1"), tables);
    String columns = ok(post("?session_id=p", "SELECT \"table\", name, type FROM system.columns ORDER BY \"table\","
        + " \"position\" FORMAT JSONCompact"));
    assertTrue(columns.contains("[\"v\", \"k\", \"INTEGER\"]"), columns);
  }

  /**
   * The dashboard and its chart library are served, system.metric_log fills a sample a second, and
   * the dashboard's kind of query (a rate by LAG, a gauge) answers with points.
   */
  @Test void theDashboardHasData() throws Exception {
    HttpResponse<String> page = http.send(HttpRequest.newBuilder(URI.create(base() + "dashboard")).build(),
        HttpResponse.BodyHandlers.ofString());
    assertEquals(200, page.statusCode());
    assertTrue(page.body().contains("/webjars/uplot/1.6.30/dist/uPlot.iife.min.js"), page.body());
    HttpResponse<String> lib = http.send(HttpRequest.newBuilder(URI.create(base()
        + "webjars/uplot/1.6.30/dist/uPlot.iife.min.js")).build(), HttpResponse.BodyHandlers.ofString());
    assertEquals(200, lib.statusCode());
    assertTrue(lib.body().contains("uPlot"));
    int outside = http.send(HttpRequest.newBuilder(URI.create(base() + "webjars/../../etc/passwd")).build(),
        HttpResponse.BodyHandlers.ofString()).statusCode();
    assertTrue(outside == 400 || outside == 404, "nothing outside the WebJars: " + outside);
    for (int i = 0; i < 5; i++) {
      ok(get("SELECT " + i, ""));
    }
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    String rate = "SELECT event_time, CAST(value - LAG(value) OVER (ORDER BY event_time) AS DOUBLE) AS v"
        + " FROM system.metric_log WHERE kind = 'event' AND name = 'Query' ORDER BY event_time";
    while (ok(get(rate, "")).lines().count() < 3) {
      assertTrue(System.nanoTime() < deadline, "metric_log takes a sample a second");
      Thread.sleep(200);
    }
    String json = ok(post("", "SELECT event_time, CAST(value AS DOUBLE) AS v FROM system.metric_log"
        + " WHERE kind = 'metric' AND name = 'PartsActive' ORDER BY event_time FORMAT JSONCompact"));
    assertTrue(json.contains("\"data\":") && !json.contains("\"rows\": 0,"), json);
    String queries = ok(get("SELECT max(value) FROM system.metric_log WHERE kind = 'event' AND name = 'Query'", ""));
    assertTrue(Long.parseLong(queries.trim()) >= 5, "the Query counter counts statements: " + queries);
  }

  @Test void usersAndReadOnlyRulesHold() throws Exception {
    server.close();
    server = TravertineServer.start(config(Map.of("auth.user.alice", "pw", "auth.user.bob", "pw2",
        "auth.readonly", "bob")));
    assertEquals(401, get("SELECT 1", "").statusCode());
    String alice = "Basic " + java.util.Base64.getEncoder().encodeToString("alice:pw".getBytes(StandardCharsets.UTF_8));
    String bob = "Basic " + java.util.Base64.getEncoder().encodeToString("bob:pw2".getBytes(StandardCharsets.UTF_8));
    HttpResponse<String> created = http.send(HttpRequest.newBuilder(URI.create(base())).header("Authorization", alice)
        .POST(HttpRequest.BodyPublishers.ofString("CREATE TABLE a (k INTEGER) ORDER BY k")).build(),
        HttpResponse.BodyHandlers.ofString());
    assertEquals(200, created.statusCode(), created.body());
    HttpResponse<String> refused = http.send(HttpRequest.newBuilder(URI.create(base())).header("Authorization", bob)
        .POST(HttpRequest.BodyPublishers.ofString("INSERT INTO a VALUES (1)")).build(),
        HttpResponse.BodyHandlers.ofString());
    assertEquals(403, refused.statusCode(), refused.body());
    assertTrue(refused.body().contains("User bob is read-only"), refused.body());
    HttpResponse<String> who = http.send(HttpRequest.newBuilder(URI.create(base() + "?query="
        + enc("SELECT count(*) FROM a"))).header("Authorization", bob).build(), HttpResponse.BodyHandlers.ofString());
    assertEquals("0\n", ok(who));
    HttpResponse<String> stolen = http.send(HttpRequest.newBuilder(URI.create(base() + "?session_id=x&query=SELECT%201"))
        .header("Authorization", alice).build(), HttpResponse.BodyHandlers.ofString());
    ok(stolen);
    HttpResponse<String> other = http.send(HttpRequest.newBuilder(URI.create(base() + "?session_id=x&query=SELECT%201"))
        .header("Authorization", bob).build(), HttpResponse.BodyHandlers.ofString());
    assertEquals(403, other.statusCode(), "a session belongs to its user");
  }
}

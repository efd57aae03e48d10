package dev.travertine.server;

import dev.travertine.calcite.schema.TravertineSchema;
import dev.travertine.calcite.dml.TableLoad;
import dev.travertine.formats.BulkLoad;
import dev.travertine.formats.FileLoad;
import dev.travertine.formats.TextFormat;
import java.io.IOException;
import java.io.InputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.servlet.http.HttpServletResponse;

/**
 * ClickHouse's HTTP insert: {@code POST /?query=INSERT INTO t [(c, …)] FORMAT CSV} with the rows
 * as the request body, or a body that starts with that statement and has the rows after its line
 * break. The rows stream into the engine's parallel loader (no whole-body buffering) as one
 * insert: all rows or none. Other query parameters that name session settings apply to this
 * insert ({@code &input_format_allow_errors_num=10}); {@code Content-Encoding: gzip} or
 * {@code zstd} bodies are decompressed. Authentication is the server's (the request reaches this
 * handler only when it passed). Parquet and ORC bodies ({@code FORMAT Parquet}) are spooled to a
 * scratch file first, since they are read by position. Success: 200, an empty body and the
 * {@code X-ClickHouse-Summary} header (and ours, {@code X-Travertine-Summary}, with the rows
 * skipped as bad); failure: {@link HttpErrors}.
 */
final class HttpInsert {
  private static final Pattern INSERT = Pattern.compile(
      "\\s*INSERT\\s+INTO\\s+(\"(?:[^\"]|\"\")+\"|[\\w$]+)\\s*(?:\\(([^)]*)\\))?\\s*FORMAT\\s+(\\w+)\\s*;?\\s*",
      Pattern.CASE_INSENSITIVE | Pattern.DOTALL);

  /** Opens a session for the request's (authenticated) user with the given settings. */
  interface Sessions {
    Connection open(Properties settings) throws SQLException;
  }

  private HttpInsert() {}

  /** Whether a {@code query} parameter is an insert whose rows are the body ({@code INSERT INTO t FORMAT CSV}). */
  static boolean isInsert(String query) {
    return query != null && INSERT.matcher(query).matches();
  }

  /**
   * The parameters of the request's URL, decoded. Never the servlet's {@code getParameter}: for a
   * body sent as {@code application/x-www-form-urlencoded} — what {@code curl --data-binary}
   * sends unless told otherwise — it would read the body as a form, eating the rows (or refusing
   * any body over Jetty's form limit of 200,000 bytes).
   */
  static Map<String, String> urlParameters(String rawQuery) {
    Map<String, String> out = new LinkedHashMap<>();
    if (rawQuery == null || rawQuery.isEmpty()) {
      return out;
    }
    for (String pair : rawQuery.split("&")) {
      if (pair.isEmpty()) {
        continue;
      }
      int eq = pair.indexOf('=');
      String name = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
      String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
      out.putIfAbsent(name, value);
    }
    return out;
  }

  /**
   * The start of a POST body that is itself the insert: {@code INSERT INTO t [(c, …)] FORMAT name},
   * then (after spaces and one line break) the rows, as ClickHouse takes it without {@code query=}.
   */
  private static final Pattern BODY_INSERT = Pattern.compile(
      "\\s*INSERT\\s+INTO\\s+(\"(?:[^\"]|\"\")+\"|[\\w$]+)\\s*(?:\\([^)]*\\))?\\s*FORMAT\\s+\\w+[ \\t]*(\\r?\\n|$)",
      Pattern.CASE_INSENSITIVE);

  /**
   * How many bytes at the start of {@code prefix} are an insert statement whose rows follow it in the
   * same body (the statement, its line break included), or -1.
   */
  static int bodyInsertLength(byte[] prefix, int length) {
    String s = new String(prefix, 0, length, StandardCharsets.ISO_8859_1); // one char per byte
    Matcher m = BODY_INSERT.matcher(s);
    return m.lookingAt() && (m.group(2).length() > 0 || m.end() == length) ? m.end() : -1;
  }

  /**
   * Runs {@code query} (an insert that {@link #isInsert} accepts) with {@code body} as its rows.
   *
   * @param contentEncoding the body's compression ({@code gzip}, {@code zstd}) or null
   */
  static void handle(HttpServletResponse response, Sessions sessions, Map<String, String> params, String query,
      InputStream body, String contentEncoding, long contentLength) throws IOException {
    Matcher m = INSERT.matcher(query);
    if (!m.matches()) {
      fail(body, response, 400, 62, "Not an insert with its rows as the body: POST /?query=INSERT INTO t [(c, …)]"
          + " FORMAT CSV|CSVWithNames|TabSeparated|TabSeparatedWithNames|JSONEachRow|Parquet|ORC");
      return;
    }
    String table = unquote(m.group(1));
    List<String> columns = null;
    if (m.group(2) != null) {
      columns = new ArrayList<>();
      for (String c : m.group(2).split(",")) {
        columns.add(unquote(c.trim()));
      }
    }
    TextFormat format = null;
    FileLoad.Kind binary = switch (m.group(3).toLowerCase(Locale.ROOT)) {
      case "parquet" -> FileLoad.Kind.PARQUET;
      case "orc" -> FileLoad.Kind.ORC;
      default -> null;
    };
    try {
      if (binary == null) {
        format = TextFormat.named(m.group(3));
      } else if (columns != null) {
        throw new IllegalArgumentException("a column list");
      }
    } catch (IllegalArgumentException e) {
      fail(body, response, 400, 73, binary != null ? "Parquet and ORC columns go to the table's by name; leave out"
          + " the column list" : "Unknown format " + m.group(3) + " (CSV, CSVWithNames, TabSeparated, TSV,"
          + " TabSeparatedWithNames, JSONEachRow, Parquet, ORC)");
      return;
    }
    Properties settings = new Properties();
    params.forEach((name, value) -> {
      if (!HttpQuery.OWN.contains(name)) {
        settings.setProperty(name, value);
      }
    });
    String pseudoName = contentEncoding == null ? "" : switch (contentEncoding.toLowerCase(Locale.ROOT)) {
      case "gzip" -> ".gz";
      case "zstd" -> ".zst";
      default -> null;
    };
    if (pseudoName == null) {
      fail(body, response, 400, 36, "Unsupported Content-Encoding: " + contentEncoding + " (gzip, zstd)");
      return;
    }
    long start = System.nanoTime();
    try (Connection c = sessions.open(settings)) {
      InputStream rows = new java.io.FilterInputStream(body) {
        @Override public void close() {
          // The loader closes its source; the body stays open, so that an error can drain it.
        }
      };
      String queryId = params.get("query_id");
      if (queryId != null && !queryId.isEmpty()) {
        TravertineSchema.session(c).useQueryId(queryId);
      }
      BulkLoad.Result r = binary != null ? loadFile(c, table, binary, rows, pseudoName, query.trim())
          : TableLoad.load(c, new TableLoad.Request(table, columns, format, -1,
              List.of(BulkLoad.Source.stream("body" + pseudoName, contentLength, rows)), null, query.trim()));
      response.setStatus(200);
      response.setHeader("X-ClickHouse-Summary", String.format(Locale.ROOT,
          "{\"read_rows\":\"0\",\"read_bytes\":\"%d\",\"written_rows\":\"%d\",\"written_bytes\":\"%d\","
              + "\"total_rows_to_read\":\"0\",\"result_rows\":\"0\",\"result_bytes\":\"0\",\"elapsed_ns\":\"%d\"}",
          r.bytesRead(), r.rows(), r.partBytes(), System.nanoTime() - start));
      response.setHeader("X-Travertine-Summary", String.format(Locale.ROOT,
          "{\"written_rows\":\"%d\",\"bad_rows\":\"%d\",\"read_bytes\":\"%d\"}", r.rows(), r.badRows(), r.bytesRead()));
      response.setContentLength(0);
    } catch (SQLException | IOException | RuntimeException e) {
      drain(body);
      HttpErrors.answer(response, e);
    }
  }

  /**
   * Parquet and ORC are read by position (footer first), so the body is first written to a
   * scratch file under the data directory, which is deleted when the load ends.
   */
  private static BulkLoad.Result loadFile(Connection c, String table, FileLoad.Kind kind, InputStream body,
      String compression, String query) throws IOException, SQLException {
    java.nio.file.Path dir = TableLoad.scratchDirectory(c);
    java.nio.file.Path tmp = java.nio.file.Files.createTempFile(dir, "http-insert-", "." + kind.name().toLowerCase(Locale.ROOT));
    try {
      try (InputStream in = BulkLoad.decompress("body" + compression, body)) {
        java.nio.file.Files.copy(in, tmp, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
      }
      FileLoad.Input input = FileLoad.Input.local(tmp);
      input = new FileLoad.Input("body", input.io(), input.path(), input.length());
      return TableLoad.load(c, new TableLoad.FilesRequest(table, kind, List.of(input), null, query));
    } finally {
      java.nio.file.Files.deleteIfExists(tmp);
    }
  }

  private static String unquote(String name) {
    return name.startsWith("\"") && name.endsWith("\"") && name.length() >= 2
        ? name.substring(1, name.length() - 1).replace("\"\"", "\"") : name;
  }

  /**
   * Answers with an error. The rest of the body is read first (and dropped): a client that is still
   * sending would otherwise get a broken pipe instead of the answer.
   */
  private static void fail(InputStream body, HttpServletResponse response, int status, int code, String message)
      throws IOException {
    drain(body);
    HttpErrors.answer(response, status, code, message);
  }

  private static void drain(InputStream body) {
    try {
      byte[] sink = new byte[1 << 16];
      while (body.read(sink) >= 0) {
        // dropped
      }
    } catch (IOException | IllegalStateException e) {
      // The client went away, or the body is unreadable: answer anyway.
    }
  }
}

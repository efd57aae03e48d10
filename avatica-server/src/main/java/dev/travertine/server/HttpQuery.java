package dev.travertine.server;

import dev.travertine.calcite.prepare.SqlErrors;
import dev.travertine.calcite.schema.TravertineSchema;
import dev.travertine.mergetree.query.QueryContext;
import dev.travertine.server.shell.FormatClause;
import dev.travertine.server.shell.OutputFormat;
import dev.travertine.server.shell.ParquetResult;
import dev.travertine.server.shell.ResultWriter;
import dev.travertine.server.shell.ScriptSplitter;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Pattern;
import java.util.zip.GZIPOutputStream;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

/**
 * ClickHouse's HTTP interface for queries: {@code GET /?query=SELECT …} (read-only statements) and
 * {@code POST /} with the statement in the body or in {@code query=} (any statement). The answer
 * streams in the statement's {@code FORMAT}, else {@code default_format}, else TabSeparated
 * ({@link ResultWriter}); {@code Accept-Encoding: gzip} or {@code zstd} compresses it.
 *
 * <p>Parameters: {@code query_id} (the id {@code KILL QUERY} and {@code system.query_log} know the
 * statement by), {@code session_id} with {@code session_timeout} (seconds; a session keeps its
 * SETs across requests, {@link HttpSessions}), {@code database} ({@code main} or ClickHouse's
 * {@code default}), {@code default_format}, {@code param_<name>} (values of {@code {name:Type}}
 * placeholders, {@link QueryParameters}), and any session setting ({@code max_result_rows=10}).
 * One statement per request, as ClickHouse. Errors: an HTTP status, the header
 * {@code X-ClickHouse-Exception-Code} and the body {@code Code: N. DB::Exception: message}; an
 * error after the first rows were sent ends the body with that line.
 */
final class HttpQuery {
  private HttpQuery() {}

  /** Parameters that are this interface's own, not session settings. */
  static final Set<String> OWN = Set.of("query", "query_id", "session_id", "session_timeout", "database",
      "default_format", "session_check", "wait_end_of_query", "enable_http_compression", "http_zlib_compression_level",
      "send_progress_in_http_headers", "user", "password");

  /** Statements a GET may not run: ClickHouse's GET is read-only (settings may change). */
  private static final Pattern WRITE = Pattern.compile(
      "(?is)^\\s*(INSERT|UPSERT|UPDATE|DELETE|MERGE|CREATE|DROP|ALTER|TRUNCATE|OPTIMIZE|SYSTEM|KILL|ATTACH|RENAME"
          + "|GRANT|REVOKE|CHECK)\\b.*|(?is).*\\bINTO\\s+OUTFILE\\b.*");

  static void handle(HttpServletRequest request, HttpServletResponse response, Map<String, String> params,
      String body, HttpInsert.Sessions sessions, HttpSessions named) throws IOException {
    String queryId = params.getOrDefault("query_id", "");
    if (queryId.isEmpty()) {
      queryId = UUID.randomUUID().toString();
    }
    response.setHeader("X-ClickHouse-Query-Id", queryId);
    String text = params.getOrDefault("query", "");
    if (body != null && !body.isBlank()) {
      text = text.isEmpty() ? body : text + "\n" + body;
    }
    final ScriptSplitter.Statement statement;
    try {
      List<ScriptSplitter.Statement> statements = ScriptSplitter.split(text);
      if (statements.isEmpty()) {
        throw new HttpErrors.HttpError(400, 62, "Empty query");
      }
      if (statements.size() > 1) {
        throw new HttpErrors.HttpError(400, 62, "Multi-statements are not allowed: send one statement per request");
      }
      statement = statements.get(0);
    } catch (ScriptSplitter.UnterminatedException e) {
      HttpErrors.answer(response, 400, 62, "Syntax error at line " + e.line() + ", column " + e.column() + ": " + e.getMessage());
      return;
    } catch (HttpErrors.HttpError e) {
      HttpErrors.answer(response, e);
      return;
    }
    String sql = statement.sql();
    OutputFormat format;
    try {
      FormatClause.Split split = FormatClause.split(sql);
      sql = split.sql();
      String fallback = params.getOrDefault("default_format", "TabSeparated");
      format = split.format() != null ? split.format() : OutputFormat.byClickHouseName(fallback);
      if (format == null) {
        throw new IllegalArgumentException("Unknown output format '" + fallback + "'; known: "
            + OutputFormat.CLICKHOUSE_NAMES);
      }
      String db = params.getOrDefault("database", "");
      if (!db.isEmpty() && !db.equalsIgnoreCase(TravertineSchema.NAME) && !db.equalsIgnoreCase("default")) {
        throw new HttpErrors.HttpError(404, 81, "Database " + db + " does not exist");
      }
      sql = QueryParameters.substitute(sql, params);
    } catch (HttpErrors.HttpError e) {
      HttpErrors.answer(response, e);
      return;
    } catch (IllegalArgumentException e) {
      HttpErrors.answer(response, 400, e.getMessage().startsWith("Unknown output format") ? 73 : 456, e.getMessage());
      return;
    }
    if ("GET".equals(request.getMethod()) && WRITE.matcher(sql).matches()) {
      HttpErrors.answer(response, 400, 164, "Cannot execute this statement with a GET request: GET is read-only (as in"
          + " ClickHouse); send it with POST");
      return;
    }
    Properties settings = new Properties();
    params.forEach((k, v) -> {
      if (!OWN.contains(k) && !k.startsWith("param_")) {
        settings.setProperty(k, v);
      }
    });
    String sessionId = params.getOrDefault("session_id", "");
    HttpSessions.Lease lease = null;
    Connection c;
    try {
      if (sessionId.isEmpty()) {
        c = sessions.open(settings);
      } else {
        lease = named.acquire(sessionId, params.get("session_timeout"), sessions);
        c = lease.connection();
        applySettings(c, settings);
      }
    } catch (HttpErrors.HttpError e) {
      HttpErrors.answer(response, e);
      return;
    } catch (SQLException | RuntimeException e) {
      HttpErrors.answer(response, e);
      return;
    }
    try {
      run(request, response, c, sql, queryId, format);
    } finally {
      if (lease != null) {
        lease.release();
      } else {
        try {
          c.close();
        } catch (SQLException e) {
          // the answer is out; nothing else to tell the client
        }
      }
    }
  }

  private static void applySettings(Connection c, Properties settings) throws SQLException {
    try (Statement s = c.createStatement()) {
      for (String k : settings.stringPropertyNames()) {
        if (!k.matches("[A-Za-z_][A-Za-z0-9_]*")) {
          throw new IllegalArgumentException("Unknown setting: " + k);
        }
        s.execute("SET " + k + " = '" + settings.getProperty(k).replace("'", "''") + "'");
      }
    }
  }

  /** What the answer holds back before its headers go, so that a short answer's summary is final. */
  static final int HELD_BYTES = 256 << 10;

  private static void run(HttpServletRequest request, HttpServletResponse response, Connection c, String sql,
      String queryId, OutputFormat format) throws IOException {
    var session = sessionOf(c);
    if (session != null) {
      session.useQueryId(queryId);
    }
    long start = System.nanoTime();
    Statement st = null;
    HeldBody held = null;
    Writer w = null;
    QueryContext[] query = new QueryContext[1];
    long[] resultRows = {0};
    try {
      st = c.createStatement();
      if (st.execute(sql)) {
        query[0] = session == null ? null : session.currentQuery();
        try (ResultSet rs = st.getResultSet()) {
          response.setStatus(200);
          response.setContentType(contentType(format));
          response.setHeader("X-ClickHouse-Format", formatName(format));
          held = new HeldBody(response, HELD_BYTES, () -> response.setHeader("X-ClickHouse-Summary",
              summary(query[0], 0, resultRows[0], System.nanoTime() - start)));
          OutputStream out = compressed(request, response, held);
          w = new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), 1 << 16);
          ResultWriter writer = new ResultWriter(format, w, "NULL");
          QueryContext q = query[0];
          if (q != null) {
            writer.withStatistics(new ResultWriter.ReadStatistics() {
              @Override public long rowsRead() {
                return q.readRows();
              }

              @Override public long bytesRead() {
                return q.readBytes();
              }
            });
          }
          if (format.kind() == OutputFormat.Kind.PARQUET) {
            resultRows[0] = ParquetResult.write(rs, out);
          } else {
            resultRows[0] = writer.write(rs, start);
          }
          w.flush();
          out.close();
        }
      } else {
        long count = Math.max(0, st.getUpdateCount());
        query[0] = session == null ? null : session.currentQuery();
        response.setStatus(200);
        response.setHeader("X-ClickHouse-Summary", summary(query[0], count, 0, System.nanoTime() - start));
        response.setContentLength(0);
      }
    } catch (org.eclipse.jetty.io.EofException | java.io.UncheckedIOException e) {
      // The client went away while rows were sent: the query stops.
      cancel(st);
    } catch (SQLException | RuntimeException e) {
      if (held == null || !held.released()) {
        // Nothing reached the client yet (the first rows fail, as 1 / 0 does): a proper error answer.
        response.reset(); // the buffered start of the body (a compressor's header) goes too
        response.setHeader("X-ClickHouse-Query-Id", queryId);
        HttpErrors.answer(response, e);
      } else {
        SqlErrors.Error err = SqlErrors.classify(e);
        try {
          w.write("\n" + HttpErrors.body(err.code(), err.message()));
          w.flush();
        } catch (IOException ignored) {
          // the client is gone
        }
      }
    } finally {
      if (session != null) {
        session.useQueryId(null);
      }
      if (st != null) {
        try {
          st.close();
        } catch (SQLException ignored) {
          // closing after an error
        }
      }
    }
  }

  /**
   * ClickHouse's {@code X-ClickHouse-Summary}: what the statement read (from its query context,
   * when it has one), wrote and answered so far.
   */
  static String summary(QueryContext q, long writtenRows, long resultRows, long elapsedNanos) {
    long read = q == null ? 0 : q.readRows();
    long bytes = q == null ? 0 : q.readBytes();
    return String.format(Locale.ROOT, "{\"read_rows\":\"%d\",\"read_bytes\":\"%d\",\"written_rows\":\"%d\","
        + "\"written_bytes\":\"0\",\"total_rows_to_read\":\"0\",\"result_rows\":\"%d\",\"result_bytes\":\"0\","
        + "\"elapsed_ns\":\"%d\"}", read, bytes, writtenRows, resultRows, elapsedNanos);
  }

  private static void cancel(Statement st) {
    if (st != null) {
      try {
        st.cancel();
      } catch (SQLException ignored) {
        // it stops anyway when its statement closes
      }
    }
  }

  private static dev.travertine.calcite.schema.TravertineSession sessionOf(Connection c) {
    try {
      return TravertineSchema.session(c);
    } catch (SQLException | RuntimeException e) {
      return null;
    }
  }

  /** The response body, compressed as the client accepts (zstd, else gzip), else plain. */
  private static OutputStream compressed(HttpServletRequest request, HttpServletResponse response,
      OutputStream raw) throws IOException {
    String accept = String.valueOf(request.getHeader("Accept-Encoding")).toLowerCase(Locale.ROOT);
    if (accept.contains("zstd")) {
      response.setHeader("Content-Encoding", "zstd");
      return new com.github.luben.zstd.ZstdOutputStream(raw);
    }
    if (accept.contains("gzip")) {
      response.setHeader("Content-Encoding", "gzip");
      return new GZIPOutputStream(raw, 1 << 16);
    }
    return raw;
  }

  static String contentType(OutputFormat f) {
    return switch (f.kind()) {
      case CSV -> "text/csv; charset=UTF-8; header=" + (f.names() ? "present" : "absent");
      case TSV -> "text/tab-separated-values; charset=UTF-8";
      case JSON, JSON_COMPACT, SQLLINE_JSON -> "application/json; charset=UTF-8";
      case JSON_EACH_ROW -> "application/x-ndjson; charset=UTF-8";
      case PARQUET -> "application/octet-stream";
      default -> "text/plain; charset=UTF-8";
    };
  }

  private static String formatName(OutputFormat f) {
    return switch (f.kind()) {
      case CSV -> f.types() ? "CSVWithNamesAndTypes" : f.names() ? "CSVWithNames" : "CSV";
      case TSV -> f.types() ? "TabSeparatedWithNamesAndTypes" : f.names() ? "TabSeparatedWithNames" : "TabSeparated";
      case JSON -> "JSON";
      case JSON_COMPACT -> "JSONCompact";
      case JSON_EACH_ROW -> "JSONEachRow";
      case VERTICAL -> "Vertical";
      case NULL -> "Null";
      case PARQUET -> "Parquet";
      default -> "Pretty";
    };
  }
}

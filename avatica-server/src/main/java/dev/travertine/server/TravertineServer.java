package dev.travertine.server;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import org.apache.calcite.avatica.remote.Driver.Serialization;
import org.apache.calcite.avatica.remote.LocalService;
import org.apache.calcite.avatica.remote.Service;
import org.apache.calcite.avatica.server.AvaticaHandler;
import org.apache.calcite.avatica.server.AvaticaJsonHandler;
import org.apache.calcite.avatica.server.AvaticaProtobufHandler;
import org.apache.calcite.avatica.server.HttpServer;
import org.apache.calcite.avatica.server.ServerCustomizer;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.HandlerWrapper;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One Travertine node: an embedded engine on the data directory, shared by every client
 * connection, behind Avatica's HTTP endpoint (protobuf or JSON), with optional HTTP Basic
 * authentication and TLS, and {@code /health} and {@code /ping} endpoints (open to probes without
 * credentials unless {@code auth.probes = true}).
 */
public final class TravertineServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(TravertineServer.class);

  /** The authenticated user of the request being served on this thread, or null. */
  static final ThreadLocal<String> REMOTE_USER = new ThreadLocal<>();

  private final ServerConfig config;
  private final HttpServer http;
  private final Connection anchor;
  private final Path realmFile;
  private volatile boolean stopped;

  /** The port of this node's exchange endpoint (exchange.port), or -1 when it has none. */
  public int exchangePort() {
    try {
      return dev.travertine.calcite.cluster.NodeExchange.port(anchor);
    } catch (java.sql.SQLException e) {
      return -1;
    }
  }

  private HttpSessions httpSessions;

  private TravertineServer(ServerConfig config, HttpServer http, Connection anchor, Path realmFile) {
    this.config = config;
    this.http = http;
    this.anchor = anchor;
    this.realmFile = realmFile;
  }

  /** Opens the engine and starts listening. */
  public static TravertineServer start(ServerConfig config) throws IOException, SQLException {
    String url = "jdbc:travertine:" + config.dataDir();
    // The anchor keeps the engine (and its lock) open for the server's lifetime, and fails fast
    // if another process holds the data directory.
    java.util.Properties anchorProps = new java.util.Properties();
    anchorProps.putAll(config.storage()); // the first connection opens the engine with them
    Connection anchor = DriverManager.getConnection(url, anchorProps);
    Path realm = null;
    try {
      TravertineJdbcMeta meta = new TravertineJdbcMeta(url, config.sessionDefaults(), config.readOnlyUsers());
      Service service = new LocalService(meta);
      // Both serializations on one port: each request goes to the handler of the one it speaks.
      AvaticaHandler json = new AvaticaJsonHandler(service);
      AvaticaHandler protobuf = new AvaticaProtobufHandler(service);
      java.util.concurrent.atomic.AtomicReference<Server> jetty = new java.util.concurrent.atomic.AtomicReference<>();
      Endpoints endpoints = new Endpoints(json, protobuf, config.serialization().equals("json"), anchor, meta);
      HttpServer.Builder<Server> b = HttpServer.Builder.<Server>newBuilder()
          .withHandler(endpoints)
          .withPort(config.port())
          .withServerCustomizers(List.of((ServerCustomizer<Server>) server -> {
            jetty.set(server);
            for (var c : server.getConnectors()) {
              if (c instanceof ServerConnector sc) {
                sc.setHost(config.host());
                var http1 = sc.getConnectionFactory(org.eclipse.jetty.server.HttpConnectionFactory.class);
                if (http1 != null) {
                  http1.getHttpConfiguration().addCustomizer(new ClickHouseCredentials());
                }
              }
            }
          }), Server.class);
      if (!config.users().isEmpty()) {
        realm = writeRealm(config.users());
        b.withBasicAuthentication(realm.toString(), new String[] {"users"});
      }
      if (config.keystore() != null) {
        b.withTLS(config.keystore().toFile(), config.keystorePassword(), config.keystore().toFile(),
            config.keystorePassword());
      }
      HttpServer http = b.build();
      http.start();
      if (realm != null && !config.probesAuthenticate()) {
        openProbes(jetty.get());
      }
      TravertineServer s = new TravertineServer(config, http, anchor, realm);
      s.httpSessions = endpoints.httpSessions;
      LOG.info("Travertine server on {}:{} serving {} ({} serialization{})", config.host(), http.getPort(),
          config.dataDir(), config.serialization(), realm == null ? ", no authentication" : ", basic auth");
      return s;
    } catch (IOException | SQLException | RuntimeException e) {
      anchor.close();
      if (realm != null) {
        Files.deleteIfExists(realm);
      }
      throw e;
    }
  }

  /**
   * /health and /ping answer without credentials (load balancers and probes send none): their
   * paths get a constraint that needs no authentication, which Jetty prefers over the "/*" one.
   */
  private static void openProbes(Server server) {
    org.eclipse.jetty.security.ConstraintSecurityHandler security =
        server == null ? null : server.getChildHandlerByClass(org.eclipse.jetty.security.ConstraintSecurityHandler.class);
    if (security == null) {
      throw new IllegalStateException("internal: no security handler to open /health and /ping in");
    }
    org.eclipse.jetty.util.security.Constraint open = new org.eclipse.jetty.util.security.Constraint();
    open.setName("probes");
    open.setAuthenticate(false);
    for (String path : List.of("/health", "/ping")) {
      org.eclipse.jetty.security.ConstraintMapping m = new org.eclipse.jetty.security.ConstraintMapping();
      m.setPathSpec(path);
      m.setConstraint(open);
      security.addConstraintMapping(m);
    }
  }

  /** Jetty's realm file: "user: credential,role" lines, readable by the owner only. */
  private static Path writeRealm(Map<String, String> users) throws IOException {
    Path f = Files.createTempFile("travertine-realm", ".properties");
    try {
      Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rw-------"));
    } catch (UnsupportedOperationException e) {
      // Not a POSIX file system; the file is still temporary.
    }
    StringBuilder sb = new StringBuilder();
    users.forEach((u, p) -> sb.append(u).append(": ").append(p).append(",users\n"));
    Files.writeString(f, sb.toString(), StandardCharsets.UTF_8);
    return f;
  }

  public int port() {
    return http.getPort();
  }

  /** The server's HTTP base URL ({@code http://host:port/}): the HTTP interface and the console. */
  public String httpUrl() {
    return (config.keystore() == null ? "http" : "https") + "://" + config.host() + ":" + port() + "/";
  }

  /** The JDBC URL clients use. */
  public String jdbcUrl() {
    String scheme = config.keystore() == null ? "http" : "https";
    return dev.travertine.jdbc.RemoteDriver.PREFIX + "url=" + scheme + "://" + config.host() + ":" + port() + ";serialization="
        + config.serialization() + (config.users().isEmpty() ? "" : ";authentication=BASIC");
  }

  /** Stops accepting requests, closes client connections and the engine (flushing buffers). */
  @Override public synchronized void close() {
    if (stopped) {
      return;
    }
    stopped = true;
    LOG.info("Stopping the Travertine server");
    try {
      // Running queries are cancelled; inserts already acknowledged are in the WAL or in parts.
      // (Directly, not by a KILL statement: with max_concurrent_queries reached, one more is refused.)
      try {
        dev.travertine.calcite.schema.TravertineSchema.session(anchor).database().queries().running()
            .forEach(q -> q.cancel("server shutdown"));
      } catch (SQLException e) {
        LOG.warn("Cannot cancel running queries: {}", e.toString());
      }
      http.stop();
      if (httpSessions != null) {
        httpSessions.closeAll();
      }
    } finally {
      try {
        anchor.close();
      } catch (SQLException e) {
        LOG.warn("Closing the engine failed: {}", e.toString());
      }
      try {
        if (realmFile != null) {
          Files.deleteIfExists(realmFile);
        }
      } catch (IOException e) {
        LOG.debug("Cannot delete realm file: {}", e.toString());
      }
    }
  }

  /** Blocks until the server stops. */
  public void join() throws InterruptedException {
    http.join();
  }

  /**
   * Serves /health and /metrics itself and passes everything else to Avatica: a POST body that is
   * a JSON object to the JSON handler, any other to the protobuf one (a protobuf WireMessage
   * starts with its field tag, never '{'), so clients of either serialization share the port.
   */
  private static final class Endpoints extends HandlerWrapper implements AvaticaHandler {
    /** How much of a POST body is looked at for an insert statement before its rows. */
    private static final int PREFIX_BYTES = 1 << 16;
    private final AvaticaHandler json;
    private final AvaticaHandler protobuf;
    private final Connection engine;

    private final TravertineJdbcMeta meta;
    /** The HTTP interface's named sessions ({@code session_id}). */
    final HttpSessions httpSessions = new HttpSessions(System::nanoTime);

    Endpoints(AvaticaHandler json, AvaticaHandler protobuf, boolean preferJson, Connection engine,
        TravertineJdbcMeta meta) {
      this.meta = meta;
      this.json = json;
      this.protobuf = protobuf;
      this.engine = engine;
      setHandler(preferJson ? json : protobuf);
      addBean(preferJson ? protobuf : json); // started and stopped with the server too
    }

    /** Prometheus text format: counters from system.events, gauges from system.metrics. */
    private String prometheus() throws SQLException {
      StringBuilder sb = new StringBuilder();
      synchronized (engine) {
        try (java.sql.Statement s = engine.createStatement()) {
          try (java.sql.ResultSet rs = s.executeQuery("SELECT event, \"value\" FROM system.events")) {
            while (rs.next()) {
              String name = "travertine_" + snake(rs.getString(1)) + "_total";
              sb.append("# TYPE ").append(name).append(" counter\n").append(name).append(' ')
                  .append(rs.getLong(2)).append('\n');
            }
          }
          try (java.sql.ResultSet rs = s.executeQuery("SELECT metric, \"value\", description FROM system.metrics")) {
            while (rs.next()) {
              String name = "travertine_" + snake(rs.getString(1));
              sb.append("# HELP ").append(name).append(' ').append(rs.getString(3)).append('\n')
                  .append("# TYPE ").append(name).append(" gauge\n").append(name).append(' ')
                  .append(rs.getLong(2)).append('\n');
            }
          }
        }
      }
      return sb.toString();
    }

    /** A static resource as the answer, or 404 when there is none. */
    private static void serve(HttpServletResponse response, java.io.InputStream resource, String contentType)
        throws IOException {
      if (resource == null) {
        response.sendError(404);
        return;
      }
      try (resource) {
        response.setStatus(200);
        response.setContentType(contentType);
        response.setHeader("Cache-Control", "no-cache");
        resource.transferTo(response.getOutputStream());
      }
    }

    /** CamelCase event names to Prometheus snake_case. */
    static String snake(String s) {
      return s.replaceAll("([a-z0-9])([A-Z])", "$1_$2").toLowerCase(java.util.Locale.ROOT);
    }

    @Override public void handle(String target, Request baseRequest, HttpServletRequest request,
        HttpServletResponse response) throws IOException, javax.servlet.ServletException {
      if ("/metrics".equals(target)) {
        String body;
        try {
          body = prometheus();
        } catch (SQLException e) {
          response.setStatus(500);
          response.getWriter().write(e.getMessage());
          baseRequest.setHandled(true);
          return;
        }
        response.setStatus(200);
        response.setContentType("text/plain; version=0.0.4; charset=utf-8");
        response.getWriter().write(body);
        baseRequest.setHandled(true);
        return;
      }
      if (("/play".equals(target) || "/dashboard".equals(target)) && "GET".equals(request.getMethod())) {
        // The web console and the dashboard: static pages that talk to the HTTP interface on this port.
        serve(response, TravertineServer.class.getResourceAsStream("web" + target + ".html"), "text/html;charset=utf-8");
        baseRequest.setHandled(true);
        return;
      }
      if ("/travertine.js".equals(target) && "GET".equals(request.getMethod())) { // what the pages share
        serve(response, TravertineServer.class.getResourceAsStream("web/travertine.js"),
            "text/javascript;charset=utf-8");
        baseRequest.setHandled(true);
        return;
      }
      if (target.startsWith("/webjars/") && "GET".equals(request.getMethod())) {
        // Libraries the pages use, from WebJars on the classpath (META-INF/resources/webjars/…).
        String path = target.substring(1);
        String type = path.endsWith(".js") ? "text/javascript;charset=utf-8"
            : path.endsWith(".css") ? "text/css;charset=utf-8" : "application/octet-stream";
        serve(response, path.contains("..") ? null
            : TravertineServer.class.getClassLoader().getResourceAsStream("META-INF/resources/" + path), type);
        baseRequest.setHandled(true);
        return;
      }
      if ("/health".equals(target) || "/ping".equals(target)) {
        response.setStatus(200);
        response.setContentType("text/plain;charset=utf-8");
        response.getWriter().write("/ping".equals(target) ? "Ok.\n" : "ok\n"); // /ping answers as ClickHouse's
        baseRequest.setHandled(true);
        return;
      }
      // The authenticated user (HTTP Basic) names the connections this request opens.
      REMOTE_USER.set(request.getRemoteUser());
      try {
        // ClickHouse's HTTP interface: a query parameter, or a POST body that is SQL.
        java.util.Map<String, String> params;
        try {
          params = HttpInsert.urlParameters(request.getQueryString());
        } catch (IllegalArgumentException e) {
          HttpErrors.answer(response, 400, 62, "Malformed URL parameters: " + e.getMessage());
          baseRequest.setHandled(true);
          return;
        }
        if (params.containsKey("query")) {
          if (HttpInsert.isInsert(params.get("query"))) { // INSERT … FORMAT with the rows as the body
            if (!"POST".equals(request.getMethod())) {
              HttpErrors.answer(response, 400, 164, "An insert takes its rows as a POST body");
            } else {
              HttpInsert.handle(response, meta::openSession, params, params.get("query"), request.getInputStream(),
                  request.getHeader("Content-Encoding"), request.getContentLengthLong());
            }
          } else {
            String body = "POST".equals(request.getMethod())
                ? new String(request.getInputStream().readAllBytes(), StandardCharsets.UTF_8) : null;
            HttpQuery.handle(request, response, params, body, meta::openSession, httpSessions);
          }
          baseRequest.setHandled(true);
          return;
        }
        if ("GET".equals(request.getMethod()) && "/".equals(target) && params.isEmpty()) {
          response.setStatus(200); // ClickHouse's answer to a bare GET /
          response.setContentType("text/plain;charset=utf-8");
          response.getWriter().write("Ok.\n");
          baseRequest.setHandled(true);
          return;
        }
        HttpServletRequest r = request;
        AvaticaHandler to = json; // a GET carries its JSON request in a parameter
        if ("POST".equals(request.getMethod())) {
          String encoding = request.getHeader("Content-Encoding");
          java.io.InputStream in = request.getInputStream();
          if (encoding != null && encoding.equalsIgnoreCase("identity")) {
            encoding = null;
          }
          if (encoding != null) { // SQL (Avatica's requests are never compressed)
            String e = encoding.toLowerCase(java.util.Locale.ROOT);
            if (!e.equals("gzip") && !e.equals("zstd")) {
              HttpErrors.answer(response, 400, 36, "Unsupported Content-Encoding: " + encoding + " (gzip, zstd)");
              baseRequest.setHandled(true);
              return;
            }
            try {
              in = dev.travertine.formats.BulkLoad.decompress(e.equals("gzip") ? "body.gz" : "body.zst", in);
            } catch (IOException ex) {
              HttpErrors.answer(response, 400, 36, "Cannot read the " + encoding + " body: " + ex.getMessage());
              baseRequest.setHandled(true);
              return;
            }
          }
          java.io.BufferedInputStream buffered = new java.io.BufferedInputStream(in, PREFIX_BYTES);
          buffered.mark(PREFIX_BYTES);
          byte[] prefix = buffered.readNBytes(PREFIX_BYTES);
          buffered.reset();
          int insert = HttpInsert.bodyInsertLength(prefix, prefix.length);
          if (insert >= 0) { // INSERT … FORMAT at the start of the body, its rows after it
            String query = new String(prefix, 0, insert, StandardCharsets.UTF_8).strip();
            buffered.skipNBytes(insert);
            HttpInsert.handle(response, meta::openSession, params, query, buffered, null, -1);
            baseRequest.setHandled(true);
            return;
          }
          byte[] body = buffered.readAllBytes();
          if (encoding != null || !BufferedBodyRequest.isJson(body) && !BufferedBodyRequest.isProtobuf(body)) {
            HttpQuery.handle(request, response, params, new String(body, StandardCharsets.UTF_8), meta::openSession,
                httpSessions);
            baseRequest.setHandled(true);
            return;
          }
          r = new BufferedBodyRequest(request, body);
          to = BufferedBodyRequest.isJson(body) ? json : protobuf;
        }
        to.handle(target, baseRequest, r, response);
      } finally {
        REMOTE_USER.remove();
      }
    }

    @Override public void setServer(Server server) {
      super.setServer(server);
      for (AvaticaHandler h : List.of(json, protobuf)) {
        if (h != getHandler()) {
          h.setServer(server);
        }
      }
    }

    @Override public void setServerRpcMetadata(Service.RpcMetadataResponse metadata) {
      json.setServerRpcMetadata(metadata);
      protobuf.setServerRpcMetadata(metadata);
    }
  }
}

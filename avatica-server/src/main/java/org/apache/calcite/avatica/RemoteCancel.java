package org.apache.calcite.avatica;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Base64;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Stops what a remote connection runs on a Travertine server: one request to the server's HTTP
 * interface, {@code KILL QUERY WHERE connection_id = '<the Avatica connection id>'}, with the
 * connection's credentials. In Avatica's package for the connection's handle and properties.
 */
final class RemoteCancel {
  private RemoteCancel() {}

  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
  private static final ScheduledExecutorService TIMERS = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "travertine-query-timeout");
    t.setDaemon(true);
    return t;
  });

  static void kill(AvaticaConnection connection) throws SQLException {
    String url = connection.info.getProperty("url");
    if (url == null) {
      throw new SQLException("Cannot cancel: the connection has no server URL");
    }
    String sql = "KILL QUERY WHERE connection_id = '" + connection.handle.id.replace("'", "''") + "'";
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url.replaceAll("/+$", "") + "/?query="
        + URLEncoder.encode(sql, StandardCharsets.UTF_8))).timeout(Duration.ofSeconds(30))
        .POST(HttpRequest.BodyPublishers.noBody());
    String user = connection.info.getProperty("avatica_user");
    if (user != null) {
      String password = connection.info.getProperty("avatica_password", "");
      b.header("Authorization", "Basic " + Base64.getEncoder().encodeToString(
          (user + ":" + password).getBytes(StandardCharsets.UTF_8)));
    }
    try {
      HttpResponse<String> r = HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
      if (r.statusCode() != 200) {
        throw new SQLException("Cannot cancel on the server: " + r.body().strip());
      }
    } catch (java.io.IOException e) {
      throw new SQLException("Cannot cancel on the server: " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new SQLException("Interrupted while cancelling", e);
    }
  }

  /** A query timeout in force while a statement executes (none when {@code seconds} is 0). */
  interface Timer extends AutoCloseable {
    @Override void close();
  }

  static Timer timer(AvaticaConnection connection, Statement statement, int seconds) {
    if (seconds <= 0) {
      return () -> { };
    }
    ScheduledFuture<?> f = TIMERS.schedule(() -> {
      try {
        statement.cancel();
      } catch (SQLException ignored) {
        // the statement ends anyway, or the server is gone
      }
    }, seconds, TimeUnit.SECONDS);
    return () -> f.cancel(false);
  }
}

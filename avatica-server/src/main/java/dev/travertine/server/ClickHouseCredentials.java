package dev.travertine.server;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.Request;

/**
 * ClickHouse clients' other ways to send credentials — the headers {@code X-ClickHouse-User} and
 * {@code X-ClickHouse-Key}, or the URL parameters {@code user} and {@code password} — turned into
 * the HTTP Basic header the server's security handler checks, before any handler runs. A request
 * that carries its own {@code Authorization} keeps it.
 */
final class ClickHouseCredentials implements HttpConfiguration.Customizer {
  @Override public void customize(Connector connector, HttpConfiguration configuration, Request request) {
    if (request.getHeader(HttpHeader.AUTHORIZATION.asString()) != null) {
      return;
    }
    String user = request.getHeader("X-ClickHouse-User");
    String key = request.getHeader("X-ClickHouse-Key");
    if (user == null) {
      try {
        Map<String, String> params = HttpInsert.urlParameters(request.getQueryString());
        user = params.get("user");
        key = params.get("password");
      } catch (IllegalArgumentException e) {
        return; // malformed parameters: the handler answers that
      }
    }
    if (user == null || user.isEmpty()) {
      return;
    }
    String pair = user + ":" + (key == null ? "" : key);
    request.getHttpFields().put(HttpHeader.AUTHORIZATION,
        "Basic " + Base64.getEncoder().encodeToString(pair.getBytes(StandardCharsets.UTF_8)));
  }
}

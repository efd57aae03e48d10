package dev.travertine.server;

import dev.travertine.mergetree.settings.Setting;
import dev.travertine.mergetree.settings.Settings;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.apache.calcite.avatica.jdbc.JdbcMeta;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Avatica's JDBC-backed Meta for the server's engine. Clients may send connection properties, and
 * JdbcMeta merges them into the server-side connection; only a whitelist (time zone and session
 * settings) gets through, so no client can swap the parser, schema factory or model.
 */
final class TravertineJdbcMeta extends JdbcMeta {
  private static final Logger LOG = LoggerFactory.getLogger(TravertineJdbcMeta.class);
  static final Set<String> ALLOWED = Set.of("timeZone", "user");

  private final Map<String, String> sessionDefaults;
  private final Set<String> readOnlyUsers;

  TravertineJdbcMeta(String url, Map<String, String> sessionDefaults, Set<String> readOnlyUsers)
      throws SQLException {
    super(url, new Properties());
    this.sessionDefaults = sessionDefaults;
    this.readOnlyUsers = readOnlyUsers;
  }

  @Override protected Connection createConnection(String url, Properties info) throws SQLException {
    Properties safe = new Properties();
    safe.putAll(sessionDefaults);
    for (String k : info.stringPropertyNames()) {
      if (ALLOWED.contains(k) || isSessionSetting(k)) {
        safe.setProperty(k, info.getProperty(k));
      } else if (!k.equals("password")) {
        LOG.warn("Ignoring client connection property {} (not allowed)", k);
      }
    }
    String remoteUser = TravertineServer.REMOTE_USER.get();
    if (remoteUser != null) {
      safe.setProperty("user", remoteUser); // authenticated: the client cannot claim another name
      if (readOnlyUsers.contains(remoteUser)) {
        safe.setProperty(dev.travertine.jdbc.Driver.READ_ONLY, "true");
      }
    }
    return DriverManager.getConnection(url, safe);
  }

  private static boolean isSessionSetting(String k) {
    try {
      Settings.require(k, Setting.Scope.SESSION);
      return true;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }
}

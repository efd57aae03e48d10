package dev.travertine.jdbc;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The JDBC driver for a Travertine server: {@code jdbc:travertine:remote:url=http://host:8765[;…]}
 * takes Avatica's remote properties (serialization, authentication, avatica_user, …). It is
 * Avatica's remote driver with result sets whose {@code next()} reports a failure while rows are
 * fetched as an SQLException with the server's SQLSTATE (Avatica's own throws a runtime
 * exception). {@code jdbc:avatica:remote:} reaches the same server with Avatica's driver.
 */
public class RemoteDriver extends org.apache.calcite.avatica.remote.Driver {
  /** This driver's URL prefix. */
  public static final String PREFIX = Driver.REMOTE_PREFIX;
  /** Avatica's remote driver's URL prefix, for the same servers. */
  public static final String AVATICA_PREFIX = "jdbc:avatica:remote:";

  static {
    new RemoteDriver().register();
  }

  @Override protected String getConnectStringPrefix() {
    return PREFIX;
  }

  @Override protected String getFactoryClassName(JdbcVersion jdbcVersion) {
    return "org.apache.calcite.avatica.TravertineRemoteFactory";
  }

  /** The driver's own name and version (Avatica's reads a properties file a merged jar may lack). */
  @Override protected org.apache.calcite.avatica.DriverVersion createDriverVersion() {
    return new org.apache.calcite.avatica.DriverVersion("Travertine Remote JDBC Driver", Version.get(),
        "Travertine", Version.get(), true, Version.part(0), Version.part(1), Version.part(0), Version.part(1));
  }

  /**
   * Connects; a server that refuses the credentials (HTTP 401) is one SQLException that says so
   * (SQLSTATE 28000, ClickHouse's code 516), not Avatica's runtime exception naming the status.
   */
  @Override public java.sql.Connection connect(String url, java.util.Properties info) throws java.sql.SQLException {
    try {
      return super.connect(url, info);
    } catch (RuntimeException e) {
      for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
        String m = String.valueOf(t.getMessage());
        if (m.contains("HTTP/401") || m.contains("401 Unauthorized") || m.matches("(?s).*\\b401\\b.*Unauthorized.*")) {
          throw new java.sql.SQLException("Authentication failed: wrong user or password (the server answered"
              + " HTTP 401)", "28000", 516, e);
        }
      }
      throw e;
    }
  }

  /** Whether a URL reaches a server (this driver's or Avatica's remote one). */
  public static boolean isRemote(String url) {
    return url.startsWith(PREFIX) || url.startsWith(AVATICA_PREFIX);
  }

  /** The {@code key=value} properties of a remote URL, in order. */
  public static Map<String, String> properties(String url) {
    String rest = url.startsWith(PREFIX) ? url.substring(PREFIX.length())
        : url.startsWith(AVATICA_PREFIX) ? url.substring(AVATICA_PREFIX.length()) : null;
    if (rest == null) {
      throw new IllegalArgumentException("not a server URL (" + PREFIX + "url=http://host:port): " + url);
    }
    Map<String, String> props = new LinkedHashMap<>();
    for (String part : rest.split(";")) {
      int eq = part.indexOf('=');
      if (eq > 0) {
        props.put(part.substring(0, eq), part.substring(eq + 1));
      }
    }
    return props;
  }
}

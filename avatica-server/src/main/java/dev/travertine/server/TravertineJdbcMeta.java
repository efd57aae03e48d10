package dev.travertine.server;

import dev.travertine.mergetree.settings.Setting;
import dev.travertine.mergetree.settings.Settings;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import dev.travertine.calcite.prepare.SqlErrors;
import java.util.List;
import org.apache.calcite.avatica.AvaticaSeverity;
import org.apache.calcite.avatica.MissingResultsException;
import org.apache.calcite.avatica.NoSuchStatementException;
import org.apache.calcite.avatica.jdbc.JdbcMeta;
import org.apache.calcite.avatica.remote.AvaticaRuntimeException;
import org.apache.calcite.avatica.remote.TypedValue;
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

  private final String url;
  private final Map<String, String> sessionDefaults;
  private final Set<String> readOnlyUsers;

  TravertineJdbcMeta(String url, Map<String, String> sessionDefaults, Set<String> readOnlyUsers)
      throws SQLException {
    super(url, new Properties());
    this.url = url;
    this.sessionDefaults = sessionDefaults;
    this.readOnlyUsers = readOnlyUsers;
  }

  /** Opens the client's connection and tells its engine session the client's connection id (for cancel). */
  @Override public void openConnection(ConnectionHandle ch, Map<String, String> info) {
    super.openConnection(ch, info);
    try {
      dev.travertine.calcite.schema.TravertineSchema.session(getConnection(ch.id)).setClientConnectionId(ch.id);
    } catch (SQLException | RuntimeException e) {
      LOG.debug("Cannot tag connection {}: {}", ch.id, e.toString());
    }
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

  /**
   * An engine session outside Avatica (the HTTP insert), for the request's authenticated user, with
   * the server's session defaults and the given session settings (others are refused).
   */
  Connection openSession(Properties settings) throws SQLException {
    for (String k : settings.stringPropertyNames()) {
      if (!isSessionSetting(k)) {
        throw new IllegalArgumentException("Unknown setting: " + k);
      }
    }
    return createConnection(url, settings);
  }

  private static boolean isSessionSetting(String k) {
    try {
      Settings.require(k, Setting.Scope.SESSION);
      return true;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  // ---------------------------------------------------------------- errors

  /**
   * What a client gets when a statement fails: one message with ClickHouse's code and a SQLSTATE
   * ({@link SqlErrors}), instead of Avatica's chain of every wrapper's message.
   */
  static RuntimeException translate(RuntimeException e) {
    if (e instanceof AvaticaRuntimeException) {
      return e;
    }
    SqlErrors.Error err = SqlErrors.classify(e);
    return new AvaticaRuntimeException(err.message(), err.code(), err.sqlState(),
        AvaticaSeverity.ERROR);
  }

  @Override public StatementHandle prepare(ConnectionHandle ch, String sql, long maxRowCount) {
    try {
      return super.prepare(ch, sql, maxRowCount);
    } catch (RuntimeException e) {
      throw translate(e);
    }
  }

  @Override public ExecuteResult prepareAndExecute(StatementHandle h, String sql, long maxRowCount,
      int maxRowsInFirstFrame, PrepareCallback callback) throws NoSuchStatementException {
    try {
      return super.prepareAndExecute(h, sql, maxRowCount, maxRowsInFirstFrame, callback);
    } catch (RuntimeException e) {
      throw translate(e);
    }
  }

  @Override public ExecuteResult execute(StatementHandle h, List<TypedValue> parameterValues, int maxRowsInFirstFrame)
      throws NoSuchStatementException {
    try {
      return super.execute(h, parameterValues, maxRowsInFirstFrame);
    } catch (RuntimeException e) {
      throw translate(e);
    }
  }

  @Override public Frame fetch(StatementHandle h, long offset, int fetchMaxRowCount)
      throws NoSuchStatementException, MissingResultsException {
    try {
      return super.fetch(h, offset, fetchMaxRowCount);
    } catch (RuntimeException e) {
      throw translate(e);
    }
  }

  @Override public ExecuteBatchResult prepareAndExecuteBatch(StatementHandle h, List<String> sqlCommands)
      throws NoSuchStatementException {
    try {
      return super.prepareAndExecuteBatch(h, sqlCommands);
    } catch (RuntimeException e) {
      throw translate(e);
    }
  }

  @Override public ExecuteBatchResult executeBatch(StatementHandle h, List<List<TypedValue>> parameterValues)
      throws NoSuchStatementException {
    try {
      return super.executeBatch(h, parameterValues);
    } catch (RuntimeException e) {
      throw translate(e);
    }
  }
}

package org.apache.calcite.avatica;

import java.sql.SQLException;
import java.util.TimeZone;

/**
 * Avatica's JDBC 4.1 factory for the remote driver, with result sets that keep JDBC's contract:
 * an error the server reports while the client fetches rows (after the first frame) leaves
 * {@code ResultSet.next()} as an SQLException with the server's message, SQLSTATE and code, not
 * as Avatica's AvaticaClientRuntimeException. In this package because Avatica's factory is
 * package-private.
 */
public class TravertineRemoteFactory extends AvaticaJdbc41Factory {
  public TravertineRemoteFactory() {
    super();
  }

  /**
   * Avatica's protocol has no request for primary keys (its remote metadata answers none); ours
   * come from the server's system.columns, by a query: the sort key, as embedded.
   */
  @Override public AvaticaDatabaseMetaData newDatabaseMetaData(AvaticaConnection connection) {
    return new AvaticaDatabaseMetaData(connection) {
      @Override public java.sql.ResultSet getPrimaryKeys(String catalog, String schema, String table)
          throws SQLException {
        java.sql.PreparedStatement p = connection.prepareStatement("SELECT CAST(NULL AS VARCHAR) AS TABLE_CAT,"
            + " \"database\" AS TABLE_SCHEM, \"table\" AS TABLE_NAME, \"name\" AS COLUMN_NAME,"
            + " CAST(primary_key_position AS SMALLINT) AS KEY_SEQ, 'PRIMARY' AS PK_NAME FROM system.columns"
            + " WHERE primary_key_position IS NOT NULL AND (CAST(? AS VARCHAR) IS NULL OR \"database\" = ?)"
            + " AND (CAST(? AS VARCHAR) IS NULL OR \"table\" = ?) ORDER BY TABLE_SCHEM, TABLE_NAME, KEY_SEQ");
        p.setString(1, schema);
        p.setString(2, schema);
        p.setString(3, table);
        p.setString(4, table);
        p.closeOnCompletion();
        return p.executeQuery();
      }
    };
  }

  /**
   * Statements whose {@code cancel()} stops the statement on the server (prepared ones too,
   * {@link #newPreparedStatement}): Avatica's protocol has no cancel, so it sends {@code KILL QUERY WHERE connection_id = …} to the server's HTTP interface
   * (a second request, with the connection's credentials); the server knows each session's
   * Avatica connection id. A statement's {@code setQueryTimeout} cancels it the same way.
   */
  @Override public AvaticaStatement newStatement(AvaticaConnection connection, Meta.StatementHandle h,
      int resultSetType, int resultSetConcurrency, int resultSetHoldability) {
    return new AvaticaStatement(connection, h, resultSetType, resultSetConcurrency, resultSetHoldability) {
      /** Not synchronized: the statement's lock is held while it executes. The KILL goes first. */
      @Override public void cancel() throws SQLException {
        RemoteCancel.kill(connection);
        super.cancel();
      }

      @Override protected void executeInternal(String sql) throws SQLException {
        try (RemoteCancel.Timer t = RemoteCancel.timer(connection, this, getQueryTimeout())) {
          super.executeInternal(sql);
        }
      }
    };
  }

  /** Prepared statements whose {@code cancel()} and {@code setQueryTimeout} work as {@link #newStatement}'s. */
  @Override public AvaticaPreparedStatement newPreparedStatement(AvaticaConnection connection,
      Meta.StatementHandle h, Meta.Signature signature, int resultSetType, int resultSetConcurrency,
      int resultSetHoldability) throws SQLException {
    return new RemotePreparedStatement(connection, h, signature, resultSetType, resultSetConcurrency,
        resultSetHoldability);
  }

  @Override public AvaticaResultSet newResultSet(AvaticaStatement statement, QueryState state,
      Meta.Signature signature, TimeZone timeZone, Meta.Frame firstFrame) throws SQLException {
    return new AvaticaResultSet(statement, state, signature, newResultSetMetaData(statement, signature), timeZone,
        firstFrame) {
      @Override public boolean next() throws SQLException {
        try {
          return super.next();
        } catch (AvaticaClientRuntimeException e) {
          String message = e.getMessage() == null ? "" : e.getMessage().replaceFirst("^Remote driver error: ", "");
          throw new SQLException(message, e.getSqlState(), e.getErrorCode(), e);
        }
      }
    };
  }
}

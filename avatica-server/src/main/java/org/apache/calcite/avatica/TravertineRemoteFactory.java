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

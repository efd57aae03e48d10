package org.apache.calcite.jdbc;

import dev.travertine.calcite.SqlErrors;
import java.sql.SQLException;
import java.util.TimeZone;
import org.apache.calcite.avatica.AvaticaStatement;
import org.apache.calcite.avatica.Meta;
import org.apache.calcite.avatica.QueryState;

/**
 * Calcite's JDBC factory with result sets that keep JDBC's contract: an error while rows are
 * produced (division by zero, a limit, a cancelled query, a bad file) leaves
 * {@code ResultSet.next()} as an SQLException with the SQLSTATE and ClickHouse code that
 * {@link SqlErrors} gives it, not as the runtime exception Calcite's enumerators throw. In this
 * package for CalciteResultSet's package-private constructor.
 */
public class TravertineJdbcFactory extends CalciteJdbc41Factory {
  public TravertineJdbcFactory() {
    super();
  }

  static SQLException classified(RuntimeException e) {
    SqlErrors.Error err = SqlErrors.classify(e);
    return new SQLException(err.message(), err.sqlState(), err.code(), e);
  }

  @Override public CalciteResultSet newResultSet(AvaticaStatement statement, QueryState state, Meta.Signature signature,
      TimeZone timeZone, Meta.Frame firstFrame) throws SQLException {
    return new CalciteResultSet(statement, (CalcitePrepare.CalciteSignature<?>) signature,
        newResultSetMetaData(statement, signature), timeZone, firstFrame) {
      @Override public boolean next() throws SQLException {
        try {
          return super.next();
        } catch (RuntimeException e) {
          throw classified(e);
        }
      }
    };
  }
}

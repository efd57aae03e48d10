package org.apache.calcite.jdbc;

import dev.travertine.calcite.prepare.SqlErrors;
import java.io.InputStream;
import java.io.Reader;
import java.sql.NClob;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.RowId;
import java.sql.SQLException;
import java.sql.SQLXML;
import java.util.Properties;
import java.util.TimeZone;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.avatica.AvaticaConnection;
import org.apache.calcite.avatica.AvaticaDatabaseMetaData;
import org.apache.calcite.avatica.AvaticaFactory;
import org.apache.calcite.avatica.AvaticaPreparedStatement;
import org.apache.calcite.avatica.AvaticaResultSetMetaData;
import org.apache.calcite.avatica.AvaticaStatement;
import org.apache.calcite.avatica.Meta;
import org.apache.calcite.avatica.QueryState;
import org.apache.calcite.avatica.UnregisteredDriver;

/**
 * Calcite's JDBC 4.1 factory with errors as a server's client gets them: an SQLException with the
 * SQLSTATE, ClickHouse code and one readable message that {@link SqlErrors} gives it, whether it
 * comes from preparing (unknown table, syntax), executing (a statement, a prepared statement, a
 * batch) or from {@code ResultSet.next()} while rows are produced (division by zero, a limit, a
 * cancelled query, a bad file), where Calcite's enumerators throw runtime exceptions. Calcite's
 * own JDBC 4.1 classes are private, so this factory has its own; it is in this package for the
 * package-private constructors of Calcite's connection, statements and result set.
 */
public class TravertineJdbcFactory extends CalciteFactory {
  public TravertineJdbcFactory() {
    super(4, 1);
  }

  /** An SQLException classified by {@link SqlErrors} (one that has a SQLSTATE already stays as it is). */
  static SQLException classified(Exception e) {
    if (e instanceof SQLException s && s.getSQLState() != null) {
      return s;
    }
    SqlErrors.Error err = SqlErrors.classify(e);
    return new SQLException(err.message(), err.sqlState(), err.code(), e);
  }

  /** A JDBC call whose failures are {@link #classified}. */
  @FunctionalInterface
  interface Call<T> {
    T run() throws SQLException;
  }

  static <T> T classifying(Call<T> call) throws SQLException {
    try {
      return call.run();
    } catch (SQLException | RuntimeException e) {
      throw classified(e);
    }
  }

  @Override public AvaticaConnection newConnection(UnregisteredDriver driver, AvaticaFactory factory, String url,
      Properties info, CalciteSchema rootSchema, JavaTypeFactory typeFactory) {
    return new CalciteConnectionImpl((Driver) driver, factory, url, info, rootSchema, typeFactory) {
      @Override public CalcitePreparedStatement prepareStatement(String sql, int type, int concurrency,
          int holdability)
          throws SQLException {
        return classifying(() -> super.prepareStatement(sql, type, concurrency, holdability));
      }
    };
  }

  @Override public AvaticaDatabaseMetaData newDatabaseMetaData(AvaticaConnection connection) {
    return new AvaticaDatabaseMetaData(connection) { };
  }

  @Override public AvaticaStatement newStatement(AvaticaConnection connection, Meta.StatementHandle h,
      int type, int concurrency, int holdability) {
    return new CalciteStatement((CalciteConnectionImpl) connection, h, type, concurrency, holdability) {
      @Override protected void executeInternal(String sql) throws SQLException {
        classifying(() -> {
          super.executeInternal(sql);
          return null;
        });
      }

      @Override protected long[] executeBatchInternal() throws SQLException {
        return classifying(super::executeBatchInternal);
      }
    };
  }

  @Override public AvaticaPreparedStatement newPreparedStatement(AvaticaConnection connection,
      Meta.StatementHandle h, Meta.Signature signature, int type, int concurrency, int holdability)
      throws SQLException {
    return new TravertinePreparedStatement((CalciteConnectionImpl) connection, h, signature, type, concurrency,
        holdability);
  }

  @Override public CalciteResultSet newResultSet(AvaticaStatement statement, QueryState state,
      Meta.Signature signature, TimeZone timeZone, Meta.Frame firstFrame) throws SQLException {
    return new CalciteResultSet(statement, (CalcitePrepare.CalciteSignature<?>) signature,
        newResultSetMetaData(statement, signature), timeZone, firstFrame) {
      @Override public boolean next() throws SQLException {
        return classifying(super::next);
      }
    };
  }

  @Override public ResultSetMetaData newResultSetMetaData(AvaticaStatement statement, Meta.Signature signature) {
    return new AvaticaResultSetMetaData(statement, null, signature);
  }

  /** Calcite's prepared statement with JDBC 4.1's setters and classified errors. */
  private static final class TravertinePreparedStatement extends CalcitePreparedStatement {
    TravertinePreparedStatement(CalciteConnectionImpl connection, Meta.StatementHandle h, Meta.Signature signature,
        int type, int concurrency, int holdability) throws SQLException {
      super(connection, h, signature, type, concurrency, holdability);
    }

    @Override public ResultSet executeQuery() throws SQLException {
      return classifying(super::executeQuery);
    }

    @Override public long executeLargeUpdate() throws SQLException {
      return classifying(super::executeLargeUpdate);
    }

    @Override public boolean execute() throws SQLException {
      return classifying(super::execute);
    }

    @Override public long[] executeLargeBatch() throws SQLException {
      return classifying(super::executeLargeBatch);
    }

    @Override public void setRowId(int i, RowId x) throws SQLException {
      getSite(i).setRowId(x);
    }

    @Override public void setNString(int i, String x) throws SQLException {
      getSite(i).setNString(x);
    }

    @Override public void setNCharacterStream(int i, Reader x, long length) throws SQLException {
      getSite(i).setNCharacterStream(x, length);
    }

    @Override public void setNClob(int i, NClob x) throws SQLException {
      getSite(i).setNClob(x);
    }

    @Override public void setClob(int i, Reader x, long length) throws SQLException {
      getSite(i).setClob(x, length);
    }

    @Override public void setBlob(int i, InputStream x, long length) throws SQLException {
      getSite(i).setBlob(x, length);
    }

    @Override public void setNClob(int i, Reader x, long length) throws SQLException {
      getSite(i).setNClob(x, length);
    }

    @Override public void setSQLXML(int i, SQLXML x) throws SQLException {
      getSite(i).setSQLXML(x);
    }

    @Override public void setAsciiStream(int i, InputStream x, long length) throws SQLException {
      getSite(i).setAsciiStream(x, length);
    }

    @Override public void setBinaryStream(int i, InputStream x, long length) throws SQLException {
      getSite(i).setBinaryStream(x, length);
    }

    @Override public void setCharacterStream(int i, Reader x, long length) throws SQLException {
      getSite(i).setCharacterStream(x, length);
    }

    @Override public void setAsciiStream(int i, InputStream x) throws SQLException {
      getSite(i).setAsciiStream(x);
    }

    @Override public void setBinaryStream(int i, InputStream x) throws SQLException {
      getSite(i).setBinaryStream(x);
    }

    @Override public void setCharacterStream(int i, Reader x) throws SQLException {
      getSite(i).setCharacterStream(x);
    }

    @Override public void setNCharacterStream(int i, Reader x) throws SQLException {
      getSite(i).setNCharacterStream(x);
    }

    @Override public void setClob(int i, Reader x) throws SQLException {
      getSite(i).setClob(x);
    }

    @Override public void setBlob(int i, InputStream x) throws SQLException {
      getSite(i).setBlob(x);
    }

    @Override public void setNClob(int i, Reader x) throws SQLException {
      getSite(i).setNClob(x);
    }
  }
}

package org.apache.calcite.avatica;

import java.io.InputStream;
import java.io.Reader;
import java.sql.NClob;
import java.sql.ResultSet;
import java.sql.RowId;
import java.sql.SQLException;
import java.sql.SQLXML;

/**
 * A prepared statement of the server's driver: {@code cancel()} sends a {@code KILL} to the server
 * first, and {@code setQueryTimeout} schedules that cancel around each execution
 * ({@link RemoteCancel}). Avatica's own prepared-statement class is private, so the JDBC 4.1
 * setters it adds are here too, each handing its value to the parameter's site as Avatica does.
 */
final class RemotePreparedStatement extends AvaticaPreparedStatement {
  RemotePreparedStatement(AvaticaConnection connection, Meta.StatementHandle h, Meta.Signature signature,
      int resultSetType, int resultSetConcurrency, int resultSetHoldability) throws SQLException {
    super(connection, h, signature, resultSetType, resultSetConcurrency, resultSetHoldability);
  }

  /** Not synchronized: the statement's lock is held while it executes. The KILL goes first. */
  @Override public void cancel() throws SQLException {
    RemoteCancel.kill(connection);
    super.cancel();
  }

  @Override public ResultSet executeQuery() throws SQLException {
    try (RemoteCancel.Timer t = RemoteCancel.timer(connection, this, getQueryTimeout())) {
      return super.executeQuery();
    }
  }

  @Override public long executeLargeUpdate() throws SQLException {
    try (RemoteCancel.Timer t = RemoteCancel.timer(connection, this, getQueryTimeout())) {
      return super.executeLargeUpdate();
    }
  }

  @Override public boolean execute() throws SQLException {
    try (RemoteCancel.Timer t = RemoteCancel.timer(connection, this, getQueryTimeout())) {
      return super.execute();
    }
  }

  @Override public void setRowId(int i, RowId x) throws SQLException {
    getSite(i).setRowId(x);
  }

  @Override public void setNString(int i, String value) throws SQLException {
    getSite(i).setNString(value);
  }

  @Override public void setNCharacterStream(int i, Reader value, long length) throws SQLException {
    getSite(i).setNCharacterStream(value, length);
  }

  @Override public void setNClob(int i, NClob value) throws SQLException {
    getSite(i).setNClob(value);
  }

  @Override public void setClob(int i, Reader reader, long length) throws SQLException {
    getSite(i).setClob(reader, length);
  }

  @Override public void setBlob(int i, InputStream in, long length) throws SQLException {
    getSite(i).setBlob(in, length);
  }

  @Override public void setNClob(int i, Reader reader, long length) throws SQLException {
    getSite(i).setNClob(reader, length);
  }

  @Override public void setSQLXML(int i, SQLXML xml) throws SQLException {
    getSite(i).setSQLXML(xml);
  }

  @Override public void setAsciiStream(int i, InputStream x, long length) throws SQLException {
    getSite(i).setAsciiStream(x, length);
  }

  @Override public void setBinaryStream(int i, InputStream x, long length) throws SQLException {
    getSite(i).setBinaryStream(x, length);
  }

  @Override public void setCharacterStream(int i, Reader reader, long length) throws SQLException {
    getSite(i).setCharacterStream(reader, length);
  }

  @Override public void setAsciiStream(int i, InputStream x) throws SQLException {
    getSite(i).setAsciiStream(x);
  }

  @Override public void setBinaryStream(int i, InputStream x) throws SQLException {
    getSite(i).setBinaryStream(x);
  }

  @Override public void setCharacterStream(int i, Reader reader) throws SQLException {
    getSite(i).setCharacterStream(reader);
  }

  @Override public void setNCharacterStream(int i, Reader value) throws SQLException {
    getSite(i).setNCharacterStream(value);
  }

  @Override public void setClob(int i, Reader reader) throws SQLException {
    getSite(i).setClob(reader);
  }

  @Override public void setBlob(int i, InputStream in) throws SQLException {
    getSite(i).setBlob(in);
  }

  @Override public void setNClob(int i, Reader reader) throws SQLException {
    getSite(i).setNClob(reader);
  }
}

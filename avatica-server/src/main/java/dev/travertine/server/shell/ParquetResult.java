package dev.travertine.server.shell;

import dev.travertine.formats.parquet.ParquetIO;
import dev.travertine.formats.parquet.ParquetRowWriter;
import dev.travertine.mergetree.schema.Column;
import dev.travertine.mergetree.schema.TableSchema;
import dev.travertine.vector.DataType;
import dev.travertine.vector.TypeKind;
import java.io.IOException;
import java.io.OutputStream;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Calendar;
import java.util.List;
import java.util.TimeZone;

/**
 * A result as a Parquet file written to a stream ({@code FORMAT Parquet} over HTTP or to the
 * shell's redirected output), with the schema {@code INTO OUTFILE} writes: the columns' SQL types
 * where Parquet has them (DATE as days, TIMESTAMP as milliseconds, DECIMAL at its precision), any
 * other type as a string. Row groups of {@link #ROW_GROUP_BYTES} bound what the writer holds.
 */
public final class ParquetResult {
  private ParquetResult() {}

  /** The approximate size of a row group before compression: what is held before it is written. */
  static final long ROW_GROUP_BYTES = 16L << 20;

  private static final Calendar UTC = Calendar.getInstance(TimeZone.getTimeZone("UTC"));

  /** Writes every row of {@code rs} to {@code out} (which stays open); returns how many. */
  public static long write(ResultSet rs, OutputStream out) throws SQLException, IOException {
    ResultSetMetaData md = rs.getMetaData();
    int n = md.getColumnCount();
    List<Column> cols = new ArrayList<>();
    TypeKind[] kinds = new TypeKind[n];
    for (int i = 0; i < n; i++) {
      DataType t = typeOf(md, i + 1);
      kinds[i] = t.kind();
      cols.add(new Column(md.getColumnLabel(i + 1), t, md.isNullable(i + 1) != ResultSetMetaData.columnNoNulls));
    }
    Counting stream = new Counting(out);
    long rows = 0;
    try (ParquetRowWriter w = new ParquetRowWriter(ParquetIO.output("answer.parquet", stream), new TableSchema(cols),
        ROW_GROUP_BYTES)) {
      Object[] row = new Object[n];
      while (rs.next()) {
        for (int i = 0; i < n; i++) {
          row[i] = value(rs, i + 1, kinds[i]);
        }
        w.write(row);
        rows++;
      }
    }
    return rows;
  }

  private static DataType typeOf(ResultSetMetaData md, int i) throws SQLException {
    return switch (md.getColumnType(i)) {
      case Types.BOOLEAN, Types.BIT -> DataType.of(TypeKind.BOOLEAN);
      case Types.TINYINT -> DataType.of(TypeKind.TINYINT);
      case Types.SMALLINT -> DataType.of(TypeKind.SMALLINT);
      case Types.INTEGER -> DataType.of(TypeKind.INTEGER);
      case Types.BIGINT -> DataType.of(TypeKind.BIGINT);
      case Types.REAL -> DataType.of(TypeKind.REAL);
      case Types.FLOAT, Types.DOUBLE -> DataType.of(TypeKind.DOUBLE);
      case Types.DECIMAL, Types.NUMERIC -> {
        int p = Math.max(1, Math.min(38, md.getPrecision(i)));
        yield DataType.decimal(p, Math.max(0, Math.min(p, md.getScale(i))));
      }
      case Types.DATE -> DataType.of(TypeKind.DATE);
      case Types.TIMESTAMP -> DataType.of(TypeKind.TIMESTAMP);
      default -> DataType.varchar(-1);
    };
  }

  /** The storage value Parquet's row writer takes: days for DATE, UTC-naive milliseconds for TIMESTAMP. */
  private static Object value(ResultSet rs, int i, TypeKind kind) throws SQLException {
    Object v = switch (kind) {
      case BOOLEAN -> rs.getBoolean(i);
      case TINYINT, SMALLINT, INTEGER -> rs.getInt(i);
      case BIGINT -> rs.getLong(i);
      case REAL -> rs.getFloat(i);
      case DOUBLE -> rs.getDouble(i);
      case DECIMAL -> rs.getBigDecimal(i);
      case DATE -> {
        java.sql.Date d = rs.getDate(i, (Calendar) UTC.clone());
        yield d == null ? null : Math.floorDiv(d.getTime(), 86_400_000L);
      }
      case TIMESTAMP -> {
        java.sql.Timestamp t = rs.getTimestamp(i, (Calendar) UTC.clone());
        yield t == null ? null : t.getTime();
      }
      default -> rs.getString(i);
    };
    return rs.wasNull() ? null : v;
  }

  /** The caller's stream with the position Parquet's footer needs; closing it leaves the stream open. */
  private static final class Counting extends dev.travertine.io.OutputFile.AbortableOutputStream {
    private final OutputStream out;
    private long position;

    Counting(OutputStream out) {
      this.out = out;
    }

    @Override public void write(int b) throws IOException {
      out.write(b);
      position++;
    }

    @Override public void write(byte[] b, int off, int len) throws IOException {
      out.write(b, off, len);
      position += len;
    }

    @Override public void flush() throws IOException {
      out.flush();
    }

    @Override public void abort() {
      // a stream cannot be taken back; the caller ends the answer with the error
    }

    @Override public long position() {
      return position;
    }
  }
}

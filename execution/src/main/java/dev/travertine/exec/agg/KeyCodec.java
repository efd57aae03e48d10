package dev.travertine.exec.agg;

import dev.travertine.vector.DataType;
import dev.travertine.vector.Decimals;
import dev.travertine.vector.TypeKind;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.math.BigDecimal;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.hive.common.type.HiveDecimal;
import org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DecimalColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DoubleColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.TimestampColumnVector;

/**
 * Serializes the values of several columns of one row into a byte key (and back into vectors):
 * per column a NULL flag, then 8 bytes for numbers, dates and timestamps (plus 4 for a
 * timestamp's nanos), a length and the UTF-8 bytes for strings, a canonical text for decimals.
 * Equal keys are equal rows, as GROUP BY and DISTINCT compare them. Not thread-safe: it keeps
 * the key being built.
 */
public final class KeyCodec {
  private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle INTS = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

  private final DataType[] types;
  private byte[] buf = new byte[64];
  private int len;

  public KeyCodec(List<DataType> types) {
    this.types = types.toArray(DataType[]::new);
  }

  public byte[] buffer() {
    return buf;
  }

  public int length() {
    return len;
  }

  /** Starts a new key. */
  public KeyCodec reset() {
    len = 0;
    return this;
  }

  private void ensure(int n) {
    if (len + n > buf.length) {
      buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + n));
    }
  }

  /** Appends a 4-byte int (a group id heading a DISTINCT key). */
  public void putInt(int v) {
    ensure(4);
    INTS.set(buf, len, v);
    len += 4;
  }

  /** A string column's value that is not NULL, {@code b[off .. off + n)}, as {@link #put} writes it. */
  public void putString(byte[] b, int off, int n) {
    ensure(1);
    buf[len++] = 0;
    putStringBytes(b, off, n);
  }

  private void putStringBytes(byte[] b, int off, int n) {
    ensure(4 + n);
    INTS.set(buf, len, n);
    System.arraycopy(b, off, buf, len + 4, n);
    len += 4 + n;
  }

  /** Appends the value of {@code cols[c]} (of {@code types[c]}) at {@code row}. */
  public void put(int c, ColumnVector v, int row) {
    int r = v.isRepeating ? 0 : row;
    ensure(13);
    if (!v.noNulls && v.isNull[r]) {
      buf[len++] = 1;
      return;
    }
    buf[len++] = 0;
    TypeKind k = types[c].kind();
    switch (k) {
      case BOOLEAN, TINYINT, SMALLINT, INTEGER, BIGINT, DATE -> {
        LONGS.set(buf, len, ((LongColumnVector) v).vector[r]);
        len += 8;
      }
      case REAL, DOUBLE -> {
        LONGS.set(buf, len, Double.doubleToLongBits(((DoubleColumnVector) v).vector[r]));
        len += 8;
      }
      case TIMESTAMP -> {
        TimestampColumnVector t = (TimestampColumnVector) v;
        LONGS.set(buf, len, t.time[r]);
        INTS.set(buf, len + 8, t.nanos[r]);
        len += 12;
      }
      case CHAR, VARCHAR -> {
        BytesColumnVector b = (BytesColumnVector) v;
        putStringBytes(b.vector[r], b.start[r], b.length[r]);
      }
      case DECIMAL -> {
        byte[] s = Decimals.big(v, r)
            .setScale(Math.max(0, types[c].scale())).toPlainString().getBytes(StandardCharsets.US_ASCII);
        putStringBytes(s, 0, s.length);
      }
      default -> throw new AssertionError(k);
    }
  }

  /**
   * Decodes a key written by {@link #put} calls for columns {@code 0 .. out.length)} (after
   * {@code skip} bytes) into row {@code row} of {@code out}.
   */
  public void decode(byte[] key, int off, int skip, ColumnVector[] out, int row) {
    int p = off + skip;
    for (int c = 0; c < out.length; c++) {
      ColumnVector v = out[c];
      if (key[p++] == 1) {
        v.noNulls = false;
        v.isNull[row] = true;
        continue;
      }
      v.isNull[row] = false;
      switch (types[c].kind()) {
        case BOOLEAN, TINYINT, SMALLINT, INTEGER, BIGINT, DATE -> {
          ((LongColumnVector) v).vector[row] = (long) LONGS.get(key, p);
          p += 8;
        }
        case REAL, DOUBLE -> {
          ((DoubleColumnVector) v).vector[row] = Double.longBitsToDouble((long) LONGS.get(key, p));
          p += 8;
        }
        case TIMESTAMP -> {
          TimestampColumnVector t = (TimestampColumnVector) v;
          t.time[row] = (long) LONGS.get(key, p);
          t.nanos[row] = (int) INTS.get(key, p + 8);
          p += 12;
        }
        case CHAR, VARCHAR -> {
          int n = (int) INTS.get(key, p);
          ((BytesColumnVector) v).setVal(row, key, p + 4, n);
          p += 4 + n;
        }
        case DECIMAL -> {
          int n = (int) INTS.get(key, p);
          String s = new String(key, p + 4, n, StandardCharsets.US_ASCII);
          ((DecimalColumnVector) v).set(row, HiveDecimal.create(new BigDecimal(s)));
          p += 4 + n;
        }
        default -> throw new AssertionError(types[c]);
      }
    }
  }
}

package dev.travertine.vector;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.sql.Timestamp;
import org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DoubleColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.TimestampColumnVector;

/**
 * Typed access to ORC column vectors: the one place that knows how each {@link TypeKind} is laid
 * out in a vector. Null handling: {@code noNulls}/{@code isNull}; {@code isRepeating} is honoured
 * on reads.
 */
public final class Vectors {
  private Vectors() {}

  /** Row index inside a possibly repeating vector. */
  public static int idx(ColumnVector v, int row) {
    return v.isRepeating ? 0 : row;
  }

  public static boolean isNull(ColumnVector v, int row) {
    int i = idx(v, row);
    return !v.noNulls && v.isNull[i];
  }

  /**
   * The value at position {@code i} (already mapped for repetition) of a long-backed vector:
   * Hive's {@link LongColumnVector} or one of our {@link IntegerVector}s.
   */
  public static long longAt(ColumnVector v, int i) {
    return v instanceof LongColumnVector l ? l.vector[i] : ((IntegerVector) v).get(i);
  }

  /** Hive's form of {@code v}: itself, or a wide copy of one of our {@link CompactVector}s. */
  public static ColumnVector wide(ColumnVector v) {
    return v instanceof CompactVector c ? c.widen() : v;
  }

  /** {@code b} with every compact vector in Hive's form (the same batch when it has none). */
  public static Batch wide(Batch b) {
    ColumnVector[] cols = b.cols();
    ColumnVector[] out = null;
    for (int c = 0; c < cols.length; c++) {
      if (cols[c] instanceof CompactVector) {
        if (out == null) {
          out = cols.clone();
        }
        out[c] = wide(cols[c]);
      }
    }
    return out == null ? b : new Batch(out, b.sel(), b.size());
  }

  /** Reads one value in the storage representation (see {@link TypeKind}), or null. */
  public static Object get(ColumnVector v, TypeKind kind, int row) {
    int i = idx(v, row);
    if (!v.noNulls && v.isNull[i]) {
      return null;
    }
    switch (kind) {
      case BOOLEAN:
        return longAt(v, i) != 0;
      case TINYINT:
        return (byte) longAt(v, i);
      case SMALLINT:
        return (short) longAt(v, i);
      case INTEGER:
      case DATE:
        return (int) longAt(v, i);
      case BIGINT:
        return longAt(v, i);
      case REAL:
        return (float) ((DoubleColumnVector) v).vector[i];
      case DOUBLE:
        return ((DoubleColumnVector) v).vector[i];
      case DECIMAL:
        return Decimals.big(v, i);
      case CHAR:
      case VARCHAR:
        if (v instanceof DictionaryVector d) {
          int id = d.ids[i];
          return new String(d.arena, d.start(id), d.length(id), StandardCharsets.UTF_8);
        }
        return string((BytesColumnVector) v, i);
      case TIMESTAMP:
        return ((TimestampColumnVector) v).getTime(i);
      default:
        throw new AssertionError(kind);
    }
  }

  public static String string(BytesColumnVector v, int i) {
    return new String(v.vector[i], v.start[i], v.length[i], StandardCharsets.UTF_8);
  }

  /** Writes one value (storage representation or a compatible Number/String), or null. */
  public static void set(ColumnVector v, DataType type, int row, Object value) {
    if (value == null) {
      setNull(v, row);
      return;
    }
    v.isNull[row] = false;
    switch (type.kind()) {
      case BOOLEAN -> ((LongColumnVector) v).vector[row] = ((Boolean) value) ? 1 : 0;
      case TINYINT, SMALLINT, INTEGER, BIGINT, DATE ->
          ((LongColumnVector) v).vector[row] = ((Number) value).longValue();
      case REAL, DOUBLE -> ((DoubleColumnVector) v).vector[row] = ((Number) value).doubleValue();
      case DECIMAL -> {
        BigDecimal bd = value instanceof BigDecimal d ? d : new BigDecimal(value.toString());
        if (!Decimals.set(v, row, bd)) {
          throw new IllegalArgumentException("Value " + bd + " does not fit " + type);
        }
      }
      case CHAR, VARCHAR -> {
        byte[] bytes = value.toString().getBytes(StandardCharsets.UTF_8);
        ((BytesColumnVector) v).setVal(row, bytes);
      }
      case TIMESTAMP -> {
        long millis = ((Number) value).longValue();
        Timestamp ts = new Timestamp(millis);
        ((TimestampColumnVector) v).set(row, ts);
      }
      default -> throw new AssertionError(type);
    }
  }

  /**
   * Like {@link #set}, but a string gets an array of its own instead of the vector's buffer: for
   * vectors a reader filled (their bytes may not be ours to append to).
   */
  public static void setDetached(ColumnVector v, DataType type, int row, Object value) {
    if (value != null && v instanceof BytesColumnVector b) {
      byte[] bytes = value.toString().getBytes(StandardCharsets.UTF_8);
      b.isNull[row] = false;
      b.setRef(row, bytes, 0, bytes.length);
    } else {
      set(v, type, row, value);
    }
  }

  private static final byte[] EMPTY = new byte[0];

  /** Marks a row NULL (an empty string stands behind it in string vectors). */
  public static void setNull(ColumnVector v, int row) {
    v.noNulls = false;
    v.isNull[row] = true;
    if (v instanceof BytesColumnVector b) {
      b.vector[row] = EMPTY;
      b.start[row] = 0;
      b.length[row] = 0;
    }
  }

  /** Copies one value between vectors of the same type; strings are copied, not referenced. */
  public static void copy(ColumnVector src, int srcRow, ColumnVector dst, int dstRow, TypeKind kind) {
    int i = idx(src, srcRow);
    if (!src.noNulls && src.isNull[i]) {
      setNull(dst, dstRow);
      return;
    }
    dst.isNull[dstRow] = false;
    switch (kind) {
      case BOOLEAN, TINYINT, SMALLINT, INTEGER, BIGINT, DATE ->
          ((LongColumnVector) dst).vector[dstRow] = longAt(src, i);
      case REAL, DOUBLE -> ((DoubleColumnVector) dst).vector[dstRow] = ((DoubleColumnVector) src).vector[i];
      case DECIMAL -> Decimals.copy(src, i, dst, dstRow);
      case CHAR, VARCHAR -> {
        if (src instanceof DictionaryVector d) {
          int id = d.ids[i];
          ((BytesColumnVector) dst).setVal(dstRow, d.arena, d.start(id), d.length(id));
        } else {
          BytesColumnVector s = (BytesColumnVector) src;
          ((BytesColumnVector) dst).setVal(dstRow, s.vector[i], s.start[i], s.length[i]);
        }
      }
      case TIMESTAMP -> {
        TimestampColumnVector s = (TimestampColumnVector) src;
        TimestampColumnVector d = (TimestampColumnVector) dst;
        d.time[dstRow] = s.time[i];
        d.nanos[dstRow] = s.nanos[i];
      }
      default -> throw new AssertionError(kind);
    }
  }

  /**
   * Like {@link #copy}, but a string is referenced where it lies instead of copied: for a
   * destination that is consumed (written out) while the source still holds its bytes.
   */
  public static void copyReferencing(ColumnVector src, int srcRow, ColumnVector dst, int dstRow, TypeKind kind) {
    if (kind == TypeKind.CHAR || kind == TypeKind.VARCHAR) {
      int i = idx(src, srcRow);
      if (!src.noNulls && src.isNull[i]) {
        setNull(dst, dstRow);
        return;
      }
      dst.isNull[dstRow] = false;
      if (src instanceof DictionaryVector d) {
        int id = d.ids[i];
        ((BytesColumnVector) dst).setRef(dstRow, d.arena, d.start(id), d.length(id));
        return;
      }
      BytesColumnVector s = (BytesColumnVector) src;
      ((BytesColumnVector) dst).setRef(dstRow, s.vector[i], s.start[i], s.length[i]);
      return;
    }
    copy(src, srcRow, dst, dstRow, kind);
  }

  /**
   * The uncompressed size of positions 0..n-1 of a column (ClickHouse's read_bytes): the type's
   * width, strings their lengths.
   */
  public static long bytes(ColumnVector v, TypeKind kind, int n) {
    return switch (kind) {
      case BOOLEAN, TINYINT -> n;
      case SMALLINT -> 2L * n;
      case INTEGER, DATE, REAL -> 4L * n;
      case BIGINT, DOUBLE, TIMESTAMP -> 8L * n;
      case DECIMAL -> 16L * n;
      case CHAR, VARCHAR -> {
        if (v instanceof DictionaryVector d) {
          yield d.stringBytes(n);
        }
        BytesColumnVector b = (BytesColumnVector) v;
        if (b.isRepeating) {
          yield (long) b.length[0] * n;
        }
        long sum = 0;
        int[] len = b.length;
        for (int i = 0; i < n; i++) {
          sum += len[i];
        }
        yield sum;
      }
    };
  }

  /** Compares two values of the same type; NULL sorts after every value (NULLS LAST). */
  public static int compare(ColumnVector a, int ra, ColumnVector b, int rb, TypeKind kind) {
    int i = idx(a, ra);
    int j = idx(b, rb);
    boolean na = !a.noNulls && a.isNull[i];
    boolean nb = !b.noNulls && b.isNull[j];
    if (na || nb) {
      return na == nb ? 0 : (na ? 1 : -1);
    }
    switch (kind) {
      case BOOLEAN, TINYINT, SMALLINT, INTEGER, BIGINT, DATE:
        return Long.compare(longAt(a, i), longAt(b, j));
      case REAL, DOUBLE:
        return Double.compare(((DoubleColumnVector) a).vector[i], ((DoubleColumnVector) b).vector[j]);
      case DECIMAL:
        return Decimals.compare(a, i, b, j);
      case CHAR, VARCHAR: {
        if (a instanceof DictionaryVector || b instanceof DictionaryVector) {
          return compareStrings(a, i, b, j);
        }
        BytesColumnVector x = (BytesColumnVector) a;
        BytesColumnVector y = (BytesColumnVector) b;
        return compareBytes(x.vector[i], x.start[i], x.length[i], y.vector[j], y.start[j], y.length[j]);
      }
      case TIMESTAMP: {
        TimestampColumnVector x = (TimestampColumnVector) a;
        TimestampColumnVector y = (TimestampColumnVector) b;
        int c = Long.compare(x.time[i], y.time[j]);
        return c != 0 ? c : Integer.compare(x.nanos[i], y.nanos[j]);
      }
      default:
        throw new AssertionError(kind);
    }
  }

  /** Compares strings at (mapped) positions i and j of either form. */
  private static int compareStrings(ColumnVector a, int i, ColumnVector b, int j) {
    byte[] xa;
    int xs;
    int xl;
    if (a instanceof DictionaryVector d) {
      xa = d.arena;
      xs = d.start(d.ids[i]);
      xl = d.length(d.ids[i]);
    } else {
      BytesColumnVector x = (BytesColumnVector) a;
      xa = x.vector[i];
      xs = x.start[i];
      xl = x.length[i];
    }
    if (b instanceof DictionaryVector d) {
      return compareBytes(xa, xs, xl, d.arena, d.start(d.ids[j]), d.length(d.ids[j]));
    }
    BytesColumnVector y = (BytesColumnVector) b;
    return compareBytes(xa, xs, xl, y.vector[j], y.start[j], y.length[j]);
  }

  /** Unsigned lexicographic byte comparison: the order of UTF-8 strings by code point. */
  public static int compareBytes(byte[] a, int as, int al, byte[] b, int bs, int bl) {
    return java.util.Arrays.compareUnsigned(a, as, as + al, b, bs, bs + bl);
  }

  /** Compares a stored value with a storage-representation constant; NULL handled by callers. */
  @SuppressWarnings({"unchecked", "rawtypes"})
  public static int compareValues(Object a, Object b) {
    if (a instanceof Number x && b instanceof Number y) {
      if (x instanceof BigDecimal || y instanceof BigDecimal) {
        return toBig(x).compareTo(toBig(y));
      }
      if (isIntegral(x) && isIntegral(y)) {
        return Long.compare(x.longValue(), y.longValue());
      }
      return Double.compare(x.doubleValue(), y.doubleValue());
    }
    if (a instanceof String x && b instanceof String y) {
      return compareUtf8(x, y);
    }
    return ((Comparable) a).compareTo(b);
  }

  /** Orders strings as their UTF-8 bytes do (the order vectors and ORC use). */
  public static int compareUtf8(String x, String y) {
    int n = Math.min(x.length(), y.length());
    for (int k = 0; k < n; k++) {
      int cx = x.charAt(k);
      int cy = y.charAt(k);
      if (cx != cy) {
        boolean sx = Character.isSurrogate((char) cx);
        boolean sy = Character.isSurrogate((char) cy);
        if (sx != sy) {
          return sx ? 1 : -1; // surrogates encode code points above every BMP char
        }
        return Integer.compare(cx, cy);
      }
    }
    return Integer.compare(x.length(), y.length());
  }

  static boolean isIntegral(Number n) {
    return n instanceof Long || n instanceof Integer || n instanceof Short || n instanceof Byte;
  }

  public static BigDecimal toBig(Number n) {
    if (n instanceof BigDecimal b) {
      return b;
    }
    if (isIntegral(n)) {
      return BigDecimal.valueOf(n.longValue());
    }
    return BigDecimal.valueOf(n.doubleValue());
  }

  /** Rough in-memory size of one value, for buffer accounting. */
  public static long estimateBytes(ColumnVector v, TypeKind kind, int row) {
    if (kind.isString()) {
      if (v instanceof DictionaryVector d) {
        return 16 + d.length(d.ids[idx(v, row)]);
      }
      BytesColumnVector b = (BytesColumnVector) v;
      return 16 + b.length[idx(v, row)];
    }
    return kind == TypeKind.DECIMAL ? 32 : 9;
  }
}

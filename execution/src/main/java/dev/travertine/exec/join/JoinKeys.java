package dev.travertine.exec.join;

import dev.travertine.vector.DataType;
import dev.travertine.vector.Decimals;
import dev.travertine.vector.TypeKind;
import java.util.List;
import org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DecimalColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DoubleColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.TimestampColumnVector;

/**
 * Hashing and comparing the key columns of a hash join, one key column at a time (a type's loop
 * per call). The hash of a value depends on the value alone, so the build and probe sides hash
 * alike when their key columns have the same type kind. A NULL key marks the row: SQL's equality
 * never matches it.
 */
final class JoinKeys {
  private JoinKeys() {}

  /** Whether two key types compare by the same representation (what a join on them needs). */
  static boolean compatible(DataType a, DataType b) {
    TypeKind x = a.kind();
    TypeKind y = b.kind();
    if (x.isLongBacked() && y.isLongBacked()) {
      return (x == TypeKind.DATE) == (y == TypeKind.DATE) && (x == TypeKind.BOOLEAN) == (y == TypeKind.BOOLEAN);
    }
    if (x == TypeKind.DECIMAL) {
      return y == TypeKind.DECIMAL && a.scale() == b.scale();
    }
    if (x == TypeKind.CHAR) {
      return y == TypeKind.CHAR && a.precision() == b.precision();
    }
    return x == y;
  }

  static final long SEED = 0x243F6A8885A308D3L;

  static long step(long h, long v) {
    h = (h + v) * 0x9E3779B97F4A7C15L;
    return h ^ (h >>> 32);
  }

  static int finish(long h) {
    h *= 0xff51afd7ed558ccdL;
    h ^= h >>> 33;
    h *= 0xc4ceb9fe1a85ec53L;
    return (int) (h ^ (h >>> 29));
  }

  /**
   * Folds column {@code v}'s values at positions {@code pos[k]}, k &lt; n, into {@code h[k]}, and
   * sets {@code nul[k]} where the value is NULL.
   */
  static void hash(ColumnVector v, TypeKind kind, int[] pos, int n, long[] h, boolean[] nul) {
    boolean rep = v.isRepeating;
    if (!v.noNulls) {
      boolean[] isNull = v.isNull;
      for (int k = 0; k < n; k++) {
        if (isNull[rep ? 0 : pos[k]]) {
          nul[k] = true;
        }
      }
    }
    switch (kind) {
      case BOOLEAN, TINYINT, SMALLINT, INTEGER, BIGINT, DATE -> {
        long[] x = ((LongColumnVector) v).vector;
        for (int k = 0; k < n; k++) {
          h[k] = step(h[k], x[rep ? 0 : pos[k]]);
        }
      }
      case REAL, DOUBLE -> {
        double[] x = ((DoubleColumnVector) v).vector;
        for (int k = 0; k < n; k++) {
          double d = x[rep ? 0 : pos[k]];
          h[k] = step(h[k], d == 0 ? 0 : Double.doubleToLongBits(d));
        }
      }
      case DECIMAL -> {
        // HiveDecimal's hash (trailing zeros dropped) is the same for both forms of a value
        for (int k = 0; k < n; k++) {
          int i = rep ? 0 : pos[k];
          h[k] = step(h[k], nul[k] ? 0 : Decimals.hive(v, i).hashCode());
        }
      }
      case CHAR, VARCHAR -> {
        BytesColumnVector b = (BytesColumnVector) v;
        for (int k = 0; k < n; k++) {
          int i = rep ? 0 : pos[k];
          h[k] = step(h[k], nul[k] ? 0 : bytesHash(b.vector[i], b.start[i], b.length[i]));
        }
      }
      case TIMESTAMP -> {
        TimestampColumnVector t = (TimestampColumnVector) v;
        for (int k = 0; k < n; k++) {
          int i = rep ? 0 : pos[k];
          h[k] = step(step(h[k], t.time[i]), t.nanos[i]);
        }
      }
      default -> throw new AssertionError(kind);
    }
  }

  static long bytesHash(byte[] b, int start, int len) {
    long h = 0x9E3779B97F4A7C15L ^ len;
    int i = start;
    int end = start + len;
    for (; i + 8 <= end; i += 8) {
      long w = (b[i] & 0xFFL) | (b[i + 1] & 0xFFL) << 8 | (b[i + 2] & 0xFFL) << 16 | (b[i + 3] & 0xFFL) << 24
          | (b[i + 4] & 0xFFL) << 32 | (b[i + 5] & 0xFFL) << 40 | (b[i + 6] & 0xFFL) << 48 | (b[i + 7] & 0xFFL) << 56;
      h = (h ^ w) * 0xff51afd7ed558ccdL;
      h ^= h >>> 31;
    }
    for (; i < end; i++) {
      h = (h ^ (b[i] & 0xFF)) * 0x100000001B3L;
    }
    return h;
  }

  /** Whether row {@code a} of {@code x} and row {@code b} of {@code y} (both non-NULL) are equal. */
  static boolean equal(ColumnVector x, int a, ColumnVector y, int b, TypeKind kind) {
    int i = x.isRepeating ? 0 : a;
    int j = y.isRepeating ? 0 : b;
    return switch (kind) {
      case BOOLEAN, TINYINT, SMALLINT, INTEGER, BIGINT, DATE ->
          ((LongColumnVector) x).vector[i] == ((LongColumnVector) y).vector[j];
      case REAL, DOUBLE -> {
        double p = ((DoubleColumnVector) x).vector[i];
        double q = ((DoubleColumnVector) y).vector[j];
        yield p == q || Double.isNaN(p) && Double.isNaN(q);
      }
      case DECIMAL -> Decimals.compare(x, i, y, j) == 0;
      case CHAR, VARCHAR -> {
        BytesColumnVector p = (BytesColumnVector) x;
        BytesColumnVector q = (BytesColumnVector) y;
        yield java.util.Arrays.equals(p.vector[i], p.start[i], p.start[i] + p.length[i],
            q.vector[j], q.start[j], q.start[j] + q.length[j]);
      }
      case TIMESTAMP -> {
        TimestampColumnVector p = (TimestampColumnVector) x;
        TimestampColumnVector q = (TimestampColumnVector) y;
        yield p.time[i] == q.time[j] && p.nanos[i] == q.nanos[j];
      }
      default -> throw new AssertionError(kind);
    };
  }

  static TypeKind[] kinds(List<DataType> types, int[] fields) {
    TypeKind[] out = new TypeKind[fields.length];
    for (int i = 0; i < fields.length; i++) {
      out[i] = types.get(fields[i]).kind();
    }
    return out;
  }
}

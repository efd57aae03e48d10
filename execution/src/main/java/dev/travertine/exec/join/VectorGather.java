package dev.travertine.exec.join;

import dev.travertine.vector.DictionaryVector;
import dev.travertine.vector.Int32Vector;
import dev.travertine.vector.IntegerVector;
import dev.travertine.vector.TypeKind;
import org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.Decimal64ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DecimalColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DoubleColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.TimestampColumnVector;
import org.apache.hadoop.hive.serde2.io.HiveDecimalWritable;

/**
 * Copies rows of one column vector into another, a type's loop at a time (the switch on the type
 * runs once per call, not per value): {@code dst[at + k] = src[rows[k]]} for k &lt; n, and NULL
 * where {@code rows[k] < 0} (the missing side of an outer join). Strings are referenced where they
 * lie, not copied: the source batches outlive what is gathered from them; so are decimals' value
 * objects when the target has none of its own ({@code Columns.gatherTarget}). Vectors are never
 * written in place by their readers (the decoded-column cache hands the same ones to every query).
 */
public final class VectorGather {
  private VectorGather() {}

  /** Scaled longs: as longs into a target of scaled longs, else each into a decimal object. */
  private static void gatherScaled(Decimal64ColumnVector s, int[] rows, int n, ColumnVector dst, int at) {
    boolean rep = s.isRepeating;
    boolean[] dstNull = dst.isNull;
    if (dst instanceof Decimal64ColumnVector d) {
      for (int k = 0; k < n; k++) {
        int r = rows[k];
        d.vector[at + k] = r < 0 ? 0 : s.vector[rep ? 0 : r];
      }
      return;
    }
    DecimalColumnVector d = (DecimalColumnVector) dst;
    for (int k = 0; k < n; k++) {
      if (dstNull[at + k]) {
        continue;
      }
      int r = rows[k];
      if (d.vector[at + k] == null) {
        d.vector[at + k] = new HiveDecimalWritable();
      }
      d.vector[at + k].deserialize64(s.vector[rep ? 0 : r], s.scale);
    }
  }

  /**
   * Copies {@code src}'s values at {@code rows[0 .. n)} (-1: NULL) into {@code dst} from position
   * {@code at}, strings by reference; {@code src} may be one of our compact vectors, {@code dst} is
   * Hive's form.
   */
  public static void gather(ColumnVector src, TypeKind kind, int[] rows, int n, ColumnVector dst, int at) {
    boolean srcNulls = !src.noNulls;
    boolean rep = src.isRepeating;
    boolean[] srcNull = src.isNull;
    boolean[] dstNull = dst.isNull;
    boolean anyNull = false;
    for (int k = 0; k < n; k++) {
      int r = rows[k];
      boolean isNull = r < 0 || srcNulls && srcNull[rep ? 0 : r];
      dstNull[at + k] = isNull;
      anyNull |= isNull;
    }
    if (anyNull) {
      dst.noNulls = false;
    }
    if (src instanceof Int32Vector s32) {
      int[] s = s32.values;
      long[] d = ((LongColumnVector) dst).vector;
      for (int k = 0; k < n; k++) {
        int r = rows[k];
        d[at + k] = r < 0 ? 0 : s[rep ? 0 : r];
      }
      return;
    }
    if (src instanceof IntegerVector iv) {
      long[] d = ((LongColumnVector) dst).vector;
      for (int k = 0; k < n; k++) {
        int r = rows[k];
        d[at + k] = r < 0 ? 0 : iv.get(rep ? 0 : r);
      }
      return;
    }
    if (src instanceof DictionaryVector dv) {
      BytesColumnVector d = (BytesColumnVector) dst;
      int[] ids = dv.ids;
      int[] off = dv.offsets;
      for (int k = 0; k < n; k++) {
        if (dstNull[at + k]) {
          d.vector[at + k] = EMPTY;
          d.start[at + k] = 0;
          d.length[at + k] = 0;
        } else {
          int id = ids[rep ? 0 : rows[k]];
          d.vector[at + k] = dv.arena;
          d.start[at + k] = off[id];
          d.length[at + k] = off[id + 1] - off[id];
        }
      }
      return;
    }
    switch (kind) {
      case BOOLEAN, TINYINT, SMALLINT, INTEGER, BIGINT, DATE -> {
        long[] s = ((LongColumnVector) src).vector;
        long[] d = ((LongColumnVector) dst).vector;
        if (rep) {
          java.util.Arrays.fill(d, at, at + n, s[0]);
        } else {
          for (int k = 0; k < n; k++) {
            int r = rows[k];
            d[at + k] = r < 0 ? 0 : s[r];
          }
        }
      }
      case REAL, DOUBLE -> {
        double[] s = ((DoubleColumnVector) src).vector;
        double[] d = ((DoubleColumnVector) dst).vector;
        for (int k = 0; k < n; k++) {
          int r = rows[k];
          d[at + k] = r < 0 ? 0 : s[rep ? 0 : r];
        }
      }
      case DECIMAL -> {
        if (src instanceof Decimal64ColumnVector s64) {
          gatherScaled(s64, rows, n, dst, at);
          return;
        }
        DecimalColumnVector s = (DecimalColumnVector) src;
        if (dst instanceof Decimal64ColumnVector d64) {
          for (int k = 0; k < n; k++) {
            int r = rows[k];
            d64.vector[at + k] = dstNull[at + k] ? 0 : s.vector[rep ? 0 : r].serialize64(d64.scale);
          }
          return;
        }
        DecimalColumnVector d = (DecimalColumnVector) dst;
        HiveDecimalWritable[] dv = d.vector;
        HiveDecimalWritable none = null;
        for (int k = 0; k < n; k++) {
          int r = rows[k];
          if (dv[at + k] == null) {
            // a target without objects of its own (Columns.gatherTarget): the source's, by reference
            if (dstNull[at + k]) {
              dv[at + k] = none == null ? none = new HiveDecimalWritable() : none;
            } else {
              dv[at + k] = s.vector[rep ? 0 : r];
            }
          } else if (!dstNull[at + k]) {
            d.set(at + k, s.vector[rep ? 0 : r]);
          }
        }
      }
      case CHAR, VARCHAR -> {
        BytesColumnVector s = (BytesColumnVector) src;
        BytesColumnVector d = (BytesColumnVector) dst;
        for (int k = 0; k < n; k++) {
          int r = rows[k];
          if (dstNull[at + k]) {
            d.vector[at + k] = EMPTY;
            d.start[at + k] = 0;
            d.length[at + k] = 0;
          } else {
            int i = rep ? 0 : r;
            d.vector[at + k] = s.vector[i];
            d.start[at + k] = s.start[i];
            d.length[at + k] = s.length[i];
          }
        }
      }
      case TIMESTAMP -> {
        TimestampColumnVector s = (TimestampColumnVector) src;
        TimestampColumnVector d = (TimestampColumnVector) dst;
        for (int k = 0; k < n; k++) {
          int r = rows[k];
          int i = r < 0 ? -1 : rep ? 0 : r;
          d.time[at + k] = i < 0 ? 0 : s.time[i];
          d.nanos[at + k] = i < 0 ? 0 : s.nanos[i];
        }
      }
      default -> throw new AssertionError(kind);
    }
  }

  private static final byte[] EMPTY = new byte[0];
}

package dev.travertine.exec.expr;

import dev.travertine.exec.Columns;
import dev.travertine.vector.Batch;
import dev.travertine.vector.DataType;
import dev.travertine.vector.TypeKind;
import dev.travertine.vector.Vectors;
import org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.TimestampColumnVector;

/** Vector allocation and small helpers shared by the evaluators. */
final class Vecs {
  private Vecs() {}

  /**
   * The vector length a result needs: one past the largest selected position (at least 1). A
   * selection vector is ascending (see Batch), so that is its last position.
   */
  static int capacity(Batch b) {
    return b.size() == 0 ? 1 : b.sel()[b.size() - 1] + 1;
  }

  /** A fresh vector for values of type {@code t}, without nulls, strings buffer initialised. */
  static ColumnVector alloc(DataType t, int cap) {
    return Columns.newVector(t, cap);
  }


  static LongColumnVector longs(int cap) {
    LongColumnVector v = new LongColumnVector(cap);
    v.noNulls = true;
    return v;
  }

  /** The long values behind a long-backed or TIMESTAMP vector (milliseconds for TIMESTAMP). */
  static long[] longValues(ColumnVector v) {
    return v instanceof TimestampColumnVector t ? t.time : ((LongColumnVector) v).vector;
  }

  /** Whether position {@code i} (already mapped for repetition) is NULL. */
  static boolean isNull(ColumnVector v, int i) {
    return !v.noNulls && v.isNull[v.isRepeating ? 0 : i];
  }

  /** Marks position {@code i} NULL. */
  static void setNull(ColumnVector v, int i) {
    v.noNulls = false;
    v.isNull[i] = true;
  }

  /** Sets a TIMESTAMP value from milliseconds (time[] holds millis, nanos the sub-second part). */
  static void setMillis(TimestampColumnVector v, int i, long millis) {
    v.time[i] = millis;
    v.nanos[i] = (int) Math.floorMod(millis, 1000L) * 1_000_000;
  }

  /** A batch with the same columns and another selection. */
  static Batch withSel(Batch b, int[] sel, int n) {
    return new Batch(b.cols(), sel, n);
  }

  /**
   * Result null flags for a strict operator over two inputs: NULL where either is. Sets
   * {@code r.noNulls} and {@code r.isNull[sel[..]]}; returns whether any row may be NULL.
   */
  static boolean propagateNulls(ColumnVector r, ColumnVector a, ColumnVector b, int[] sel, int n) {
    if (a.noNulls && b.noNulls) {
      r.noNulls = true;
      return false;
    }
    r.noNulls = false;
    boolean[] rn = r.isNull;
    boolean[] an = a.isNull;
    boolean[] bn = b.isNull;
    boolean aNo = a.noNulls;
    boolean bNo = b.noNulls;
    boolean ar = a.isRepeating;
    boolean br = b.isRepeating;
    for (int k = 0; k < n; k++) {
      int i = sel[k];
      rn[i] = (!aNo && an[ar ? 0 : i]) || (!bNo && bn[br ? 0 : i]);
    }
    return true;
  }

  /** Result null flags for a strict operator over one input. */
  static boolean propagateNulls(ColumnVector r, ColumnVector a, int[] sel, int n) {
    if (a.noNulls) {
      r.noNulls = true;
      return false;
    }
    r.noNulls = false;
    boolean[] an = a.isNull;
    if (a.isRepeating) {
      boolean x = an[0];
      for (int k = 0; k < n; k++) {
        r.isNull[sel[k]] = x;
      }
    } else {
      for (int k = 0; k < n; k++) {
        int i = sel[k];
        r.isNull[i] = an[i];
      }
    }
    return true;
  }

  /**
   * Copies the values of rows {@code sel[0..n)} from {@code src} (possibly repeating) into the same
   * positions of {@code dst}, NULLs included. Strings are referenced, not copied.
   */
  static void copyRows(ColumnVector src, ColumnVector dst, int[] sel, int n, TypeKind kind) {
    for (int k = 0; k < n; k++) {
      Vectors.copyReferencing(src, sel[k], dst, sel[k], kind);
    }
  }

  /** Marks rows {@code sel[0..n)} of {@code dst} NULL. */
  static void setNulls(ColumnVector dst, int[] sel, int n) {
    if (n == 0) {
      return;
    }
    dst.noNulls = false;
    for (int k = 0; k < n; k++) {
      dst.isNull[sel[k]] = true;
    }
    if (dst instanceof BytesColumnVector b) {
      for (int k = 0; k < n; k++) {
        b.setRef(sel[k], EMPTY, 0, 0);
      }
    }
  }

  static final byte[] EMPTY = new byte[0];

  /**
   * The rows of {@code sel[0..n)} that are not in {@code sub[0..m)} (a subsequence of sel, same
   * order), written to {@code out}; returns their count.
   */
  static int difference(int[] sel, int n, int[] sub, int m, int[] out) {
    int j = 0;
    int c = 0;
    for (int k = 0; k < n; k++) {
      int i = sel[k];
      if (j < m && sub[j] == i) {
        j++;
      } else {
        out[c++] = i;
      }
    }
    return c;
  }
}

package dev.travertine.exec.expr;

import dev.travertine.exec.Columns;
import dev.travertine.vector.Int16Vector;
import dev.travertine.vector.Int32Vector;
import dev.travertine.vector.Int8Vector;
import dev.travertine.vector.IntegerVector;

/**
 * A column of integers at their width ({@link IntegerVector}) compared with a constant: the rows
 * where it holds, NULLs not looked at (the caller drops them). Every operator is a range test
 * {@code lo <= x <= hi} (an equality when lo = hi), or its negation for {@code <>}; the range is
 * first cut to the values the width holds, so a constant past them selects all rows or none and
 * the loops compare ints.
 */
final class NarrowCompare {
  private NarrowCompare() {}

  /**
   * Positions of {@code sel[0 .. n)} where {@code col[i] o v} holds, into {@code out}; returns their
   * count. {@code branching}: a branch per row (for selections that keep almost all or almost none).
   */
  static int filter(IntegerVector col, Op o, long v, int[] sel, int n, int[] out, boolean branching) {
    long lo;
    long hi;
    boolean negate = false;
    switch (o) {
      case EQ -> { lo = v; hi = v; }
      case NE -> { lo = v; hi = v; negate = true; }
      case LT -> { if (v == Long.MIN_VALUE) { return 0; } lo = Long.MIN_VALUE; hi = v - 1; }
      case LE -> { lo = Long.MIN_VALUE; hi = v; }
      case GT -> { if (v == Long.MAX_VALUE) { return 0; } lo = v + 1; hi = Long.MAX_VALUE; }
      case GE -> { lo = v; hi = Long.MAX_VALUE; }
      default -> throw new IllegalStateException(o.name());
    }
    // the range within the values the width can hold: then it is one of ints
    long min = col.width() == 1 ? Byte.MIN_VALUE : col.width() == 2 ? Short.MIN_VALUE : Integer.MIN_VALUE;
    long max = col.width() == 1 ? Byte.MAX_VALUE : col.width() == 2 ? Short.MAX_VALUE : Integer.MAX_VALUE;
    lo = Math.max(lo, min);
    hi = Math.min(hi, max);
    if (lo > hi || lo == min && hi == max) {
      boolean all = lo > hi == negate; // an empty range negated, or the whole range
      if (all) {
        System.arraycopy(sel, 0, out, 0, n);
        return n;
      }
      return 0;
    }
    int l = (int) lo;
    int h = (int) hi;
    boolean dense = Columns.dense(sel, n);
    if (col instanceof Int16Vector s) {
      return l == h ? shortsEq(s.values, l, negate, sel, n, out, dense, branching)
          : shortsIn(s.values, l, h, negate, sel, n, out, dense, branching);
    }
    if (col instanceof Int32Vector s) {
      return l == h ? intsEq(s.values, l, negate, sel, n, out, dense, branching)
          : intsIn(s.values, l, h, negate, sel, n, out, dense, branching);
    }
    byte[] x = ((Int8Vector) col).values;
    int c = 0;
    for (int k = 0; k < n; k++) {
      int i = sel[k];
      out[c] = i;
      c += (x[i] >= l & x[i] <= h) != negate ? 1 : 0;
    }
    return c;
  }

  private static int shortsEq(short[] x, int v, boolean negate, int[] sel, int n, int[] out, boolean dense,
      boolean branching) {
    int c = 0;
    if (dense && branching) {
      for (int i = 0; i < n; i++) {
        if ((x[i] == v) != negate) {
          out[c++] = i;
        }
      }
    } else if (dense) {
      for (int i = 0; i < n; i++) {
        out[c] = i;
        c += (x[i] == v) != negate ? 1 : 0;
      }
    } else {
      for (int k = 0; k < n; k++) {
        int i = sel[k];
        out[c] = i;
        c += (x[i] == v) != negate ? 1 : 0;
      }
    }
    return c;
  }

  private static int shortsIn(short[] x, int l, int h, boolean negate, int[] sel, int n, int[] out, boolean dense,
      boolean branching) {
    int c = 0;
    if (dense && branching) {
      for (int i = 0; i < n; i++) {
        if ((x[i] >= l & x[i] <= h) != negate) {
          out[c++] = i;
        }
      }
    } else if (dense) {
      for (int i = 0; i < n; i++) {
        out[c] = i;
        c += (x[i] >= l & x[i] <= h) != negate ? 1 : 0;
      }
    } else {
      for (int k = 0; k < n; k++) {
        int i = sel[k];
        out[c] = i;
        c += (x[i] >= l & x[i] <= h) != negate ? 1 : 0;
      }
    }
    return c;
  }

  private static int intsEq(int[] x, int v, boolean negate, int[] sel, int n, int[] out, boolean dense,
      boolean branching) {
    int c = 0;
    if (dense && branching) {
      for (int i = 0; i < n; i++) {
        if ((x[i] == v) != negate) {
          out[c++] = i;
        }
      }
    } else if (dense) {
      for (int i = 0; i < n; i++) {
        out[c] = i;
        c += (x[i] == v) != negate ? 1 : 0;
      }
    } else {
      for (int k = 0; k < n; k++) {
        int i = sel[k];
        out[c] = i;
        c += (x[i] == v) != negate ? 1 : 0;
      }
    }
    return c;
  }

  private static int intsIn(int[] x, int l, int h, boolean negate, int[] sel, int n, int[] out, boolean dense,
      boolean branching) {
    int c = 0;
    if (dense && branching) {
      for (int i = 0; i < n; i++) {
        if ((x[i] >= l & x[i] <= h) != negate) {
          out[c++] = i;
        }
      }
    } else if (dense) {
      for (int i = 0; i < n; i++) {
        out[c] = i;
        c += (x[i] >= l & x[i] <= h) != negate ? 1 : 0;
      }
    } else {
      for (int k = 0; k < n; k++) {
        int i = sel[k];
        out[c] = i;
        c += (x[i] >= l & x[i] <= h) != negate ? 1 : 0;
      }
    }
    return c;
  }
}

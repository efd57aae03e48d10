package dev.travertine.exec.expr;

import dev.travertine.exec.Columns;
import dev.travertine.vector.Int16Vector;
import dev.travertine.vector.Int32Vector;
import dev.travertine.vector.Int8Vector;
import dev.travertine.vector.IntegerVector;

/**
 * A column of integers at their width ({@link IntegerVector}) compared with a constant: the rows
 * where it holds, NULLs not looked at (the caller drops them). Every operator is a range test
 * {@code lo <= x <= hi}, or its negation for {@code <>}, so one loop per width serves them all.
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
    // x in [lo, hi] exactly when x - lo, unsigned, is at most hi - lo (wrapping arithmetic)
    long span = (hi - lo) ^ Long.MIN_VALUE;
    long base = lo;
    boolean dense = Columns.dense(sel, n);
    if (col instanceof Int16Vector s) {
      return shorts(s.values, base, span, negate, sel, n, out, dense, branching);
    }
    if (col instanceof Int32Vector s) {
      return ints(s.values, base, span, negate, sel, n, out, dense, branching);
    }
    return bytes(((Int8Vector) col).values, base, span, negate, sel, n, out);
  }

  private static int shorts(short[] x, long lo, long span, boolean negate, int[] sel, int n, int[] out, boolean dense,
      boolean branching) {
    int c = 0;
    if (dense && branching) {
      for (int i = 0; i < n; i++) {
        if (((x[i] - lo ^ Long.MIN_VALUE) <= span) != negate) {
          out[c++] = i;
        }
      }
    } else if (dense) {
      for (int i = 0; i < n; i++) {
        out[c] = i;
        c += ((x[i] - lo ^ Long.MIN_VALUE) <= span) != negate ? 1 : 0;
      }
    } else {
      for (int k = 0; k < n; k++) {
        int i = sel[k];
        out[c] = i;
        c += ((x[i] - lo ^ Long.MIN_VALUE) <= span) != negate ? 1 : 0;
      }
    }
    return c;
  }

  private static int ints(int[] x, long lo, long span, boolean negate, int[] sel, int n, int[] out, boolean dense,
      boolean branching) {
    int c = 0;
    if (dense && branching) {
      for (int i = 0; i < n; i++) {
        if (((x[i] - lo ^ Long.MIN_VALUE) <= span) != negate) {
          out[c++] = i;
        }
      }
    } else if (dense) {
      for (int i = 0; i < n; i++) {
        out[c] = i;
        c += ((x[i] - lo ^ Long.MIN_VALUE) <= span) != negate ? 1 : 0;
      }
    } else {
      for (int k = 0; k < n; k++) {
        int i = sel[k];
        out[c] = i;
        c += ((x[i] - lo ^ Long.MIN_VALUE) <= span) != negate ? 1 : 0;
      }
    }
    return c;
  }

  private static int bytes(byte[] x, long lo, long span, boolean negate, int[] sel, int n, int[] out) {
    int c = 0;
    for (int k = 0; k < n; k++) {
      int i = sel[k];
      out[c] = i;
      c += ((x[i] - lo ^ Long.MIN_VALUE) <= span) != negate ? 1 : 0;
    }
    return c;
  }
}

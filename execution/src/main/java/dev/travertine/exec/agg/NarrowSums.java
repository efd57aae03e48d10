package dev.travertine.exec.agg;

import dev.travertine.exec.Columns;
import dev.travertine.vector.Int16Vector;
import dev.travertine.vector.Int32Vector;
import dev.travertine.vector.IntegerVector;

/** Sums of integers at their width ({@link IntegerVector}), without widening them first. */
final class NarrowSums {
  private NarrowSums() {}

  /** The sum of the values at {@code sel[0 .. n)} (nulls not looked at: the caller has none). */
  static long sum(IntegerVector v, int[] sel, int n) {
    long s = 0;
    boolean dense = Columns.dense(sel, n);
    if (v instanceof Int16Vector w) {
      short[] x = w.values;
      if (dense) {
        for (int i = 0; i < n; i++) {
          s += x[i];
        }
      } else {
        for (int k = 0; k < n; k++) {
          s += x[sel[k]];
        }
      }
    } else if (v instanceof Int32Vector w) {
      int[] x = w.values;
      if (dense) {
        for (int i = 0; i < n; i++) {
          s += x[i];
        }
      } else {
        for (int k = 0; k < n; k++) {
          s += x[sel[k]];
        }
      }
    } else {
      for (int k = 0; k < n; k++) {
        s += v.get(sel[k]);
      }
    }
    return s;
  }
}

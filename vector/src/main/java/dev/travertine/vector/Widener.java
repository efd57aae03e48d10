package dev.travertine.vector;

import org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;

/**
 * Hive's form of a compact vector ({@link IntegerVector}, {@link DictionaryVector}) at the selected rows only, in a
 * buffer reused batch after batch: for a consumer that reads a batch's selected rows and keeps
 * nothing of the vector (a hash aggregation's keys and arguments copy the values they keep). Costs
 * the selected rows, where {@link Vectors#wide} copies every row into a new vector. One per
 * consumer and column; not thread-safe.
 */
public final class Widener {
  private LongColumnVector buffer;
  private BytesColumnVector strings;

  /**
   * {@code v} itself when it is not narrow; otherwise this widener's buffer holding its values at
   * {@code sel[0 .. n)}, valid until the next call.
   */
  public ColumnVector wide(ColumnVector v, int[] sel, int n) {
    if (v instanceof DictionaryVector d) {
      int cap = n == 0 ? 1 : sel[n - 1] + 1;
      if (strings == null || strings.vector.length < cap) {
        strings = new BytesColumnVector(Math.max(cap, 1024));
      }
      d.widenAt(strings, sel, n);
      return strings;
    }
    if (!(v instanceof IntegerVector x)) {
      return v;
    }
    int cap = n == 0 ? 1 : sel[n - 1] + 1;
    if (buffer == null || buffer.vector.length < cap) {
      buffer = new LongColumnVector(Math.max(cap, 1024));
    }
    x.widenAt(buffer, sel, n);
    return buffer;
  }
}

package dev.travertine.mergetree.mutation;

import java.util.List;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;

/**
 * Applies pending mutations to one batch read from a part, in block order: a DELETE removes its
 * rows from the selection (a row mask), an UPDATE rewrites its columns in place for the rows it
 * matches. Used by scans (on the fly), merges and the mutation worker, so all three agree.
 */
public final class Mutations {
  private Mutations() {}

  /**
   * Selects every row of a batch of {@code rows} rows into {@code sel}, then applies
   * {@code mutations}; returns how many rows remain selected.
   */
  public static int selectAll(List<CompiledMutation> mutations, ColumnVector[] cols, int rows, int[] sel) {
    for (int i = 0; i < rows; i++) {
      sel[i] = i;
    }
    return apply(mutations, cols, rows, sel, rows);
  }

  /**
   * Applies {@code mutations} to rows {@code sel[0..n)} of a batch of {@code batchRows} rows;
   * returns how many rows remain selected (in {@code sel}, order kept).
   */
  public static int apply(List<CompiledMutation> mutations, ColumnVector[] cols, int batchRows, int[] sel, int n) {
    int[] matched = null;
    for (CompiledMutation m : mutations) {
      if (n == 0) {
        return 0;
      }
      if (matched == null || matched.length < n) {
        matched = new int[Math.max(n, batchRows)];
      }
      System.arraycopy(sel, 0, matched, 0, n);
      int k = m.match(cols, matched, n);
      if (k == 0) {
        continue;
      }
      if (m.isDelete()) {
        n = subtract(sel, n, matched, k);
      } else {
        for (int c : m.updated()) {
          writable(cols[c], batchRows);
        }
        m.update(cols, matched, k);
      }
    }
    return n;
  }

  /** Removes {@code remove[0..k)} (a sorted subsequence of {@code sel}) from {@code sel[0..n)}. */
  static int subtract(int[] sel, int n, int[] remove, int k) {
    int out = 0;
    int j = 0;
    for (int i = 0; i < n; i++) {
      if (j < k && sel[i] == remove[j]) {
        j++;
      } else {
        sel[out++] = sel[i];
      }
    }
    return out;
  }

  /** Makes a vector writable row by row: no repeating value. */
  static void writable(ColumnVector v, int rows) {
    if (v.isRepeating) {
      v.flatten(false, null, rows);
    }
  }
}

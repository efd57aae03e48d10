package dev.travertine.mergetree.block;

import dev.travertine.vector.TypeKind;
import dev.travertine.vector.Vectors;
import java.util.Arrays;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.TimestampColumnVector;

/**
 * Sorts rows of a block by key columns (NULLs last, as {@link Vectors#compare}). The leading
 * integer-like key columns without NULLs are packed, offset by their minimum, into one long with
 * the row number in the low bits, and those longs sorted as primitives (ClickHouse sorts by such
 * packed prefixes too); rows whose packed prefix ties — or all rows, when nothing packs — are
 * ordered by a comparator that reads integer-like keys from flat arrays and the others through
 * the vectors. Equal keys keep their block order.
 */
public final class KeySort {
  private KeySort() {}

  /** Sorts {@code rows} (row numbers of {@code block}) by the columns {@code key}. */
  public static void sort(Block block, int[] key, TypeKind[] kinds, int[] rows) {
    if (key.length == 0 || rows.length < 2) {
      return;
    }
    long[][] flat = new long[key.length][];
    for (int i = 0; i < key.length; i++) {
      flat[i] = flatKey(block, key[i], kinds[i]);
    }
    IntSort.IntComparator cmp = (a, b) -> {
      for (int i = 0; i < key.length; i++) {
        long[] f = flat[i];
        int c;
        if (f != null) {
          c = Long.compare(f[a], f[b]);
          if (c == 0 && kinds[i] == TypeKind.TIMESTAMP) {
            c = Vectors.compare(block.vector(a, key[i]), Block.pos(a), block.vector(b, key[i]), Block.pos(b), kinds[i]);
          }
        } else {
          c = Vectors.compare(block.vector(a, key[i]), Block.pos(a), block.vector(b, key[i]), Block.pos(b), kinds[i]);
        }
        if (c != 0) {
          return c;
        }
      }
      return 0;
    };
    int rowBits = 64 - Long.numberOfLeadingZeros(Math.max(1, block.rows() - 1));
    int[] shift = new int[key.length];
    long[] min = new long[key.length];
    int packed = 0;
    int bits = rowBits;
    for (int i = 0; i < key.length && flat[i] != null; i++) {
      long lo = Long.MAX_VALUE;
      long hi = Long.MIN_VALUE;
      for (int r : rows) {
        long v = flat[i][r];
        lo = Math.min(lo, v);
        hi = Math.max(hi, v);
      }
      long range = hi - lo; // unsigned
      int need = range == 0 ? 0 : 64 - Long.numberOfLeadingZeros(range);
      if (range < 0 || bits + need > 63) {
        break;
      }
      min[i] = lo;
      bits += need;
      shift[i] = need;
      packed++;
    }
    if (packed == 0) {
      IntSort.sort(rows, cmp);
      return;
    }
    long[] keys = new long[rows.length];
    for (int j = 0; j < rows.length; j++) {
      int r = rows[j];
      long k = 0;
      for (int i = 0; i < packed; i++) {
        k = (k << shift[i]) | (flat[i][r] - min[i]);
      }
      keys[j] = (k << rowBits) | r;
    }
    Arrays.sort(keys);
    long rowMask = (1L << rowBits) - 1;
    for (int j = 0; j < rows.length; j++) {
      rows[j] = (int) (keys[j] & rowMask);
    }
    boolean complete = packed == key.length && kinds[packed - 1] != TypeKind.TIMESTAMP;
    for (int i = 0; i < packed && complete; i++) {
      complete = kinds[i] != TypeKind.TIMESTAMP;
    }
    if (complete) {
      return;
    }
    // Runs of equal packed prefixes: ordered by the whole key.
    int start = 0;
    for (int j = 1; j <= rows.length; j++) {
      if (j == rows.length || (keys[j] >>> rowBits) != (keys[start] >>> rowBits)) {
        if (j - start > 1) {
          IntSort.sort(rows, start, j, cmp);
        }
        start = j;
      }
    }
  }

  /** A key column's values as longs by row, or null when it has NULLs or is not integer-like. */
  private static long[] flatKey(Block all, int col, TypeKind kind) {
    if (!kind.isLongBacked() && kind != TypeKind.TIMESTAMP) {
      return null;
    }
    long[] out = new long[all.rows()];
    int r = 0;
    for (var chunk : all.chunks()) {
      ColumnVector v = chunk.cols[col];
      if (!v.noNulls) {
        for (int i = 0; i < chunk.size; i++) {
          if (v.isNull[v.isRepeating ? 0 : i]) {
            return null;
          }
        }
      }
      long[] src = v instanceof TimestampColumnVector t ? t.time : ((LongColumnVector) v).vector;
      if (v.isRepeating) {
        Arrays.fill(out, r, r + chunk.size, src[0]);
      } else {
        System.arraycopy(src, 0, out, r, chunk.size);
      }
      r += chunk.size;
    }
    return out;
  }
}

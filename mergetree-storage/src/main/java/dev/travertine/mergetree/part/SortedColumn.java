package dev.travertine.mergetree.part;

import dev.travertine.mergetree.block.Block;
import dev.travertine.mergetree.schema.TypeKind;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.hive.ql.exec.vector.BytesColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DoubleColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.TimestampColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;

/**
 * One column of a block put in a sort order by a scatter: one sequential pass over the block's
 * values writes each to its place (random writes, which the CPU does not wait for, where the
 * random reads of a gather in sort order stall on every value). Strings are references into the
 * block's bytes. Then runs of it are copied into the part writer's batches.
 */
final class SortedColumn {
  private final long[] longs;
  private final double[] doubles;
  private final byte[][] bytes;
  private final int[] starts;
  private final int[] lengths; // also TIMESTAMP nanoseconds
  private final boolean[] nulls;

  private SortedColumn(long[] longs, double[] doubles, byte[][] bytes, int[] starts, int[] lengths, boolean[] nulls) {
    this.longs = longs;
    this.doubles = doubles;
    this.bytes = bytes;
    this.starts = starts;
    this.lengths = lengths;
    this.nulls = nulls;
  }

  /**
   * The columns of rows {@code order[from, to)} of a block, in that order; null entries for columns
   * the caller gathers instead (DECIMAL, repeating vectors), and all null when the rows are less
   * than half of the block (a partition's share: one pass per part would cost more than it saves).
   */
  static SortedColumn[] scatter(Block block, TypeKind[] kinds, int[] order, int from, int to) {
    SortedColumn[] out = new SortedColumn[kinds.length];
    if (order == null || 2L * (to - from) < block.rows()) {
      return out;
    }
    int n = to - from;
    int[] target = new int[block.rows()];
    Arrays.fill(target, -1);
    for (int k = from; k < to; k++) {
      target[order[k]] = k - from;
    }
    List<VectorizedRowBatch> chunks = block.chunks();
    for (int c = 0; c < kinds.length; c++) {
      TypeKind kind = kinds[c];
      if (kind == TypeKind.DECIMAL || anyRepeating(chunks, c)) {
        continue;
      }
      boolean anyNull = false;
      for (VectorizedRowBatch ch : chunks) {
        anyNull |= !ch.cols[c].noNulls;
      }
      boolean[] nulls = anyNull ? new boolean[n] : null;
      long[] longs = kind.isLongBacked() || kind == TypeKind.TIMESTAMP ? new long[n] : null;
      double[] doubles = kind.isDoubleBacked() ? new double[n] : null;
      byte[][] bytes = kind.isString() ? new byte[n][] : null;
      int[] starts = kind.isString() ? new int[n] : null;
      int[] lengths = kind.isString() || kind == TypeKind.TIMESTAMP ? new int[n] : null;
      int r = 0;
      for (VectorizedRowBatch ch : chunks) {
        ColumnVector v = ch.cols[c];
        int size = ch.size;
        if (nulls != null && !v.noNulls) {
          for (int i = 0; i < size; i++) {
            int t = target[r + i];
            if (t >= 0 && v.isNull[i]) {
              nulls[t] = true;
            }
          }
        }
        if (longs != null && v instanceof LongColumnVector lv) {
          long[] src = lv.vector;
          for (int i = 0; i < size; i++) {
            int t = target[r + i];
            if (t >= 0) {
              longs[t] = src[i];
            }
          }
        } else if (doubles != null) {
          double[] src = ((DoubleColumnVector) v).vector;
          for (int i = 0; i < size; i++) {
            int t = target[r + i];
            if (t >= 0) {
              doubles[t] = src[i];
            }
          }
        } else if (bytes != null) {
          BytesColumnVector bv = (BytesColumnVector) v;
          for (int i = 0; i < size; i++) {
            int t = target[r + i];
            if (t >= 0) {
              bytes[t] = bv.vector[i];
              starts[t] = bv.start[i];
              lengths[t] = bv.length[i];
            }
          }
        } else {
          TimestampColumnVector tv = (TimestampColumnVector) v;
          for (int i = 0; i < size; i++) {
            int t = target[r + i];
            if (t >= 0) {
              longs[t] = tv.time[i];
              lengths[t] = tv.nanos[i];
            }
          }
        }
        r += size;
      }
      out[c] = new SortedColumn(longs, doubles, bytes, starts, lengths, nulls);
    }
    return out;
  }

  private static boolean anyRepeating(List<VectorizedRowBatch> chunks, int c) {
    for (VectorizedRowBatch ch : chunks) {
      if (ch.cols[c].isRepeating) {
        return true;
      }
    }
    return false;
  }

  /** Copies positions {@code [from, from + n)} to {@code dst[p, p + n)}. */
  void copyTo(ColumnVector dst, int from, int p, int n) {
    if (dst instanceof LongColumnVector d) {
      System.arraycopy(longs, from, d.vector, p, n);
    } else if (dst instanceof DoubleColumnVector d) {
      System.arraycopy(doubles, from, d.vector, p, n);
    } else if (dst instanceof BytesColumnVector d) {
      System.arraycopy(bytes, from, d.vector, p, n);
      System.arraycopy(starts, from, d.start, p, n);
      System.arraycopy(lengths, from, d.length, p, n);
    } else {
      TimestampColumnVector d = (TimestampColumnVector) dst;
      System.arraycopy(longs, from, d.time, p, n);
      System.arraycopy(lengths, from, d.nanos, p, n);
    }
    if (nulls != null) {
      for (int j = 0; j < n; j++) {
        boolean isNull = nulls[from + j];
        dst.isNull[p + j] = isNull;
        if (isNull) {
          dst.noNulls = false;
          if (dst instanceof BytesColumnVector d) {
            d.vector[p + j] = EMPTY;
            d.start[p + j] = 0;
            d.length[p + j] = 0;
          }
        }
      }
    }
  }

  private static final byte[] EMPTY = new byte[0];
}

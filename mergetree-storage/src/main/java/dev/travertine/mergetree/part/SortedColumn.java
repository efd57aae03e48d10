package dev.travertine.mergetree.part;

import dev.travertine.mergetree.block.Block;
import dev.travertine.vector.TypeKind;
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
      // One method per type, each a loop over the chunks: the JIT compiles each once and small,
      // where one method with every type's loop was compiled again (over a second each) as new
      // types came by.
      if (nulls != null) {
        scatterNulls(chunks, c, target, nulls);
      }
      if (kind == TypeKind.TIMESTAMP) {
        scatterTimestamps(chunks, c, target, longs, lengths);
      } else if (longs != null) {
        scatterLongs(chunks, c, target, longs);
      } else if (doubles != null) {
        scatterDoubles(chunks, c, target, doubles);
      } else {
        scatterStrings(chunks, c, target, bytes, starts, lengths);
      }
      out[c] = new SortedColumn(longs, doubles, bytes, starts, lengths, nulls);
    }
    return out;
  }

  private static void scatterNulls(List<VectorizedRowBatch> chunks, int c, int[] target, boolean[] out) {
    int r = 0;
    for (VectorizedRowBatch ch : chunks) {
      ColumnVector v = ch.cols[c];
      if (!v.noNulls) {
        boolean[] isNull = v.isNull;
        for (int i = 0; i < ch.size; i++) {
          int t = target[r + i];
          if (t >= 0 && isNull[i]) {
            out[t] = true;
          }
        }
      }
      r += ch.size;
    }
  }

  private static void scatterLongs(List<VectorizedRowBatch> chunks, int c, int[] target, long[] out) {
    int r = 0;
    for (VectorizedRowBatch ch : chunks) {
      long[] src = ((LongColumnVector) ch.cols[c]).vector;
      for (int i = 0; i < ch.size; i++) {
        int t = target[r + i];
        if (t >= 0) {
          out[t] = src[i];
        }
      }
      r += ch.size;
    }
  }

  private static void scatterDoubles(List<VectorizedRowBatch> chunks, int c, int[] target, double[] out) {
    int r = 0;
    for (VectorizedRowBatch ch : chunks) {
      double[] src = ((DoubleColumnVector) ch.cols[c]).vector;
      for (int i = 0; i < ch.size; i++) {
        int t = target[r + i];
        if (t >= 0) {
          out[t] = src[i];
        }
      }
      r += ch.size;
    }
  }

  private static void scatterStrings(List<VectorizedRowBatch> chunks, int c, int[] target, byte[][] bytes,
      int[] starts, int[] lengths) {
    int r = 0;
    for (VectorizedRowBatch ch : chunks) {
      BytesColumnVector v = (BytesColumnVector) ch.cols[c];
      byte[][] b = v.vector;
      int[] s = v.start;
      int[] l = v.length;
      for (int i = 0; i < ch.size; i++) {
        int t = target[r + i];
        if (t >= 0) {
          bytes[t] = b[i];
          starts[t] = s[i];
          lengths[t] = l[i];
        }
      }
      r += ch.size;
    }
  }

  private static void scatterTimestamps(List<VectorizedRowBatch> chunks, int c, int[] target, long[] times,
      int[] nanos) {
    int r = 0;
    for (VectorizedRowBatch ch : chunks) {
      TimestampColumnVector v = (TimestampColumnVector) ch.cols[c];
      long[] tm = v.time;
      int[] ns = v.nanos;
      for (int i = 0; i < ch.size; i++) {
        int t = target[r + i];
        if (t >= 0) {
          times[t] = tm[i];
          nanos[t] = ns[i];
        }
      }
      r += ch.size;
    }
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

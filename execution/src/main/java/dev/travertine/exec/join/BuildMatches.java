package dev.travertine.exec.join;

import dev.travertine.exec.Columns;
import dev.travertine.vector.Batch;
import dev.travertine.vector.DataType;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLongArray;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;

/**
 * Which rows of a {@link JoinTable} some probe row matched, for a FULL, RIGHT, RIGHT_SEMI or
 * RIGHT_ANTI join: every probing worker marks the build rows of the pairs it keeps, and once the probe side
 * has ended the rows nobody marked come out once, with NULLs for the probe side's fields ({@link
 * #unmatched}), or the rows marked ({@link #matched}). A bit per
 * build row, set by compare-and-set (a row already marked costs a read).
 */
public final class BuildMatches {
  private final JoinTable table;
  private final AtomicLongArray bits;

  public BuildMatches(JoinTable table) {
    this.table = table;
    this.bits = new AtomicLongArray((table.rows() + 63) >>> 6);
  }

  /** Marks build row {@code row} as matched. */
  void mark(int row) {
    int w = row >>> 6;
    long m = 1L << row;
    long v = bits.get(w);
    while ((v & m) == 0 && !bits.compareAndSet(w, v, v | m)) {
      v = bits.get(w);
    }
  }

  /** Bytes held (for memory accounting). */
  public long bytes() {
    return 8L * bits.length();
  }

  /**
   * The build rows no probe row matched, in batches of at most {@code batchSize}: the probe's
   * fields ({@code probeTypes}) NULL, then the build's. Call once the probe side has ended.
   */
  public List<Batch> unmatched(List<DataType> probeTypes, int batchSize) {
    return rows(false, probeTypes, batchSize);
  }

  /**
   * The build rows that some probe row matched, in batches of at most {@code batchSize}, the
   * build's fields only (a RIGHT_SEMI join's output). Call once the probe side has ended.
   */
  public List<Batch> matched(int batchSize) {
    return rows(true, List.of(), batchSize);
  }

  /** The output of a join of {@code kind} whose build rows come out at the end ({@link HashJoinProbe.Kind#emitsBuildRows}). */
  public List<Batch> output(HashJoinProbe.Kind kind, List<DataType> probeTypes, int batchSize) {
    return switch (kind) {
      case FULL, RIGHT -> unmatched(probeTypes, batchSize);
      case RIGHT_SEMI -> matched(batchSize);
      case RIGHT_ANTI -> unmatched(List.of(), batchSize);
      default -> throw new IllegalArgumentException("A " + kind + " join emits no build rows at its end");
    };
  }

  private List<Batch> rows(boolean marked, List<DataType> probeTypes, int batchSize) {
    List<Batch> out = new ArrayList<>();
    int[] rows = new int[Math.max(1, Math.min(batchSize, table.rows()))];
    int n = 0;
    for (int r = 0; r < table.rows(); r++) {
      if (((bits.get(r >>> 6) & (1L << r)) != 0) == marked) {
        rows[n++] = r;
        if (n == rows.length) {
          out.add(batch(probeTypes, rows, n));
          n = 0;
        }
      }
    }
    if (n > 0) {
      out.add(batch(probeTypes, rows, n));
    }
    return out;
  }

  private Batch batch(List<DataType> probeTypes, int[] rows, int n) {
    List<DataType> buildTypes = table.types();
    ColumnVector[] cols = new ColumnVector[probeTypes.size() + buildTypes.size()];
    for (int c = 0; c < probeTypes.size(); c++) {
      ColumnVector v = Columns.gatherTarget(probeTypes.get(c), n);
      v.noNulls = false;
      v.isRepeating = true; // one NULL for all (and every position says so, for readers that index)
      java.util.Arrays.fill(v.isNull, 0, Math.max(1, n), true);
      cols[c] = v;
    }
    ColumnVector[] bc = table.cols();
    for (int c = 0; c < buildTypes.size(); c++) {
      ColumnVector v = Columns.gatherTarget(buildTypes.get(c), n);
      VectorGather.gather(bc[c], buildTypes.get(c).kind(), rows, n, v, 0);
      cols[probeTypes.size() + c] = v;
    }
    return new Batch(cols, Batch.identity(n), n);
  }
}

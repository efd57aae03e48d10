package dev.travertine.exec.op;

import dev.travertine.vector.TypeKind;
import dev.travertine.vector.Vectors;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.TimestampColumnVector;

/**
 * A top-N's dynamic filter (DuckDB's and ClickHouse's top-K filtering): once a worker's heap
 * holds its N rows, a row whose first sort key sorts after that heap's worst first key can enter
 * no heap, so it cannot be in the answer. The workers publish their full heaps' worst first key
 * ({@link #offer}); the scan tests each row's key against the best of them ({@link #filter})
 * before the rest of the row is decoded (PREWHERE) and before the steps run. ClickBench's
 * {@code SELECT * … WHERE URL LIKE '%google%' ORDER BY EventTime LIMIT 10} then decodes the other
 * twenty columns only for the few rows that beat the ten best so far.
 *
 * <p>Only the first key is tested, and rows equal to the threshold pass (a later key or the
 * input's order may still put them in): the test keeps a superset of what the heaps take. Keys of
 * integer types, DATE and TIMESTAMP (by its milliseconds); a NULL key passes when NULLs sort
 * first, and fails otherwise (it sorts after the non-NULL worst row). Shared by a fragment's
 * workers: offers tighten it under a lock, tests read it without one.
 */
final class TopNThreshold {
  private final boolean descending;
  private final boolean nullsFirst;
  private final boolean timestamp;
  /** Written before {@link #set}, and only tightened afterwards. */
  private volatile long bound;
  private volatile boolean set;

  TopNThreshold(Step.SortKey key, TypeKind kind) {
    if (!supports(kind)) {
      throw new IllegalArgumentException("No top-N threshold on " + kind);
    }
    this.descending = key.descending();
    this.nullsFirst = key.nullsFirst();
    this.timestamp = kind == TypeKind.TIMESTAMP;
  }

  /** Whether a first sort key of this type gets a threshold. */
  static boolean supports(TypeKind kind) {
    return kind.isLongBacked() || kind == TypeKind.TIMESTAMP;
  }

  /** Whether a full heap has published its worst key yet. */
  boolean isSet() {
    return set;
  }

  /** The threshold (meaningful once {@link #isSet}). */
  long bound() {
    return bound;
  }

  /** The key at position {@code row} of a non-NULL value, as this threshold compares it. */
  long key(ColumnVector v, int row) {
    int i = Vectors.idx(v, row);
    return timestamp ? ((TimestampColumnVector) v).time[i] : Vectors.longAt(v, i);
  }

  /**
   * A full heap's worst row has first key {@code worst} (not NULL): tightens the threshold to it if
   * it is better. Heaps offer once a batch; an offer that tightens nothing takes no lock.
   */
  void offer(long worst) {
    if (!tighter(worst)) {
      return;
    }
    synchronized (this) {
      if (tighter(worst)) {
        bound = worst;
        set = true;
      }
    }
  }

  private boolean tighter(long worst) {
    return !set || (descending ? worst > bound : worst < bound);
  }

  /**
   * Narrows {@code sel[0 .. n)} (ascending) in place to the rows whose key in {@code v} may still
   * enter a heap and returns their count; all of them while no heap is full.
   */
  int filter(ColumnVector v, int[] sel, int n) {
    if (!set || n == 0) {
      return n;
    }
    long b = bound;
    if (v.isRepeating) {
      return passes(v, 0, b) ? n : 0;
    }
    long[] values = timestamp ? ((TimestampColumnVector) v).time
        : v instanceof LongColumnVector l ? l.vector : null;
    int m = 0;
    if (v.noNulls && values != null) {
      for (int k = 0; k < n; k++) {
        int r = sel[k];
        sel[m] = r;
        m += (descending ? values[r] >= b : values[r] <= b) ? 1 : 0;
      }
      return m;
    }
    for (int k = 0; k < n; k++) {
      int r = sel[k];
      sel[m] = r;
      m += passes(v, r, b) ? 1 : 0;
    }
    return m;
  }

  private boolean passes(ColumnVector v, int row, long b) {
    if (Vectors.isNull(v, row)) {
      return nullsFirst;
    }
    long x = key(v, row);
    return descending ? x >= b : x <= b;
  }
}

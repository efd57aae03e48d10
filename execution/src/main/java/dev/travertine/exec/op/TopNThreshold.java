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
  /** Rows tested once set, and those that passed: how selective it has been. */
  private final java.util.concurrent.atomic.LongAdder tested = new java.util.concurrent.atomic.LongAdder();
  private final java.util.concurrent.atomic.LongAdder passed = new java.util.concurrent.atomic.LongAdder();
  private volatile boolean alone;

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
   * Whether the threshold has kept at most a tenth of at least 65,536 rows tested: then a reader
   * opened from now on decodes its column alone first, and the filter's columns only for the rows
   * that pass it (see FragmentRunner's PREWHERE). Once true, it stays true.
   */
  boolean narrowsAlone() {
    if (!alone && set) {
      long t = tested.sum();
      if (t >= MIN_TESTED && passed.sum() * 10 <= t) {
        alone = true;
      }
    }
    return alone;
  }

  private static final long MIN_TESTED = 1 << 16;

  /** A full heap's worst row has first key {@code worst} (not NULL): tightens the threshold to it if it is better. */
  synchronized void offer(long worst) {
    if (!set || (descending ? worst > bound : worst < bound)) {
      bound = worst;
      set = true;
    }
  }

  /**
   * Narrows {@code sel[0 .. n)} (ascending) in place to the rows whose key in {@code v} may still
   * enter a heap and returns their count; all of them while no heap is full.
   */
  int filter(ColumnVector v, int[] sel, int n) {
    if (!set || n == 0) {
      return n;
    }
    int m = narrow(v, sel, n, bound);
    tested.add(n);
    passed.add(m);
    return m;
  }

  private int narrow(ColumnVector v, int[] sel, int n, long b) {
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

package dev.travertine.mergetree.part;

import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.TimestampColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;

/**
 * Timestamps in the last second before 1970 through ORC. ORC stores a timestamp as whole seconds
 * rounded toward zero and its nanoseconds, and its reader takes a second away from a negative time
 * with nanoseconds: a value in (-1 s, 0) is stored as 0 s and read back a second late
 * ({@code 1969-12-31 23:59:59.001} as {@code 1970-01-01 00:00:00.001}; ORC 2.1's writer and
 * reader). Parts therefore write such a value's nanoseconds as negative (-999 ms as 0 s and
 * -999,000,000 ns), which ORC stores and reads as they are and its reader turns into the right
 * milliseconds (its statistics too), and parts' readers bring the nanoseconds back to
 * [0, 1 s).
 */
final class OrcTimestamps {
  private static final int NANOS_PER_SECOND = 1_000_000_000;

  private OrcTimestamps() {}

  private static boolean inLastSecond(long millis) {
    return millis < 0 && millis > -1000;
  }

  /**
   * The batch to hand ORC's writer: {@code batch} itself, or when a timestamp column holds a value
   * in the last second before 1970, a batch that shares the other columns and holds a copy of
   * those columns in the form above ({@code batch} is left as it is: blocks are read meanwhile).
   */
  static VectorizedRowBatch forWriter(VectorizedRowBatch batch) {
    VectorizedRowBatch out = batch;
    for (int c = 0; c < batch.cols.length; c++) {
      if (batch.cols[c] instanceof TimestampColumnVector t && needsRewrite(t, batch.size)) {
        if (out == batch) {
          out = new VectorizedRowBatch(batch.cols.length, batch.size);
          out.size = batch.size;
          out.cols = batch.cols.clone();
        }
        out.cols[c] = rewritten(t, batch.size);
      }
    }
    return out;
  }

  private static boolean needsRewrite(TimestampColumnVector t, int size) {
    int n = t.isRepeating ? Math.min(size, 1) : size;
    for (int i = 0; i < n; i++) {
      if ((t.noNulls || !t.isNull[i]) && inLastSecond(t.time[i])) {
        return true;
      }
    }
    return false;
  }

  private static TimestampColumnVector rewritten(TimestampColumnVector t, int size) {
    TimestampColumnVector r = new TimestampColumnVector(Math.max(size, 1));
    int n = t.isRepeating ? Math.min(size, 1) : size;
    System.arraycopy(t.time, 0, r.time, 0, n);
    System.arraycopy(t.nanos, 0, r.nanos, 0, n);
    System.arraycopy(t.isNull, 0, r.isNull, 0, n);
    r.noNulls = t.noNulls;
    r.isRepeating = t.isRepeating;
    for (int i = 0; i < n; i++) {
      if (inLastSecond(r.time[i])) {
        r.nanos[i] = (int) r.time[i] * 1_000_000; // whole seconds stay 0
      }
    }
    return r;
  }

  /**
   * Brings nanoseconds that ORC read in the form above back to [0, 1 s), in place, in rows
   * {@code 0..rows-1} of each timestamp vector (its first row when it repeats).
   */
  static void afterRead(ColumnVector[] cols, int rows) {
    for (ColumnVector v : cols) {
      if (v instanceof TimestampColumnVector t) {
        int[] nanos = t.nanos;
        int n = t.isRepeating ? Math.min(rows, 1) : Math.min(rows, nanos.length);
        for (int i = 0; i < n; i++) {
          if (nanos[i] < 0) {
            nanos[i] += NANOS_PER_SECOND;
          }
        }
      }
    }
  }
}

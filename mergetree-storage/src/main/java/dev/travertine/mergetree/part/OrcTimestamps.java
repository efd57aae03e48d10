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

  /** 2015-01-01 00:00:00 UTC in seconds: ORC stores a timestamp's seconds from it (its writer's time zone: parts write UTC). */
  static final long BASE_SECONDS = 1_420_070_400L;

  /** Powers of ten by the count ORC's nanosecond encoding keeps in its low three bits. */
  private static final int[] POWERS = {1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000};

  /**
   * ORC's nanoseconds as stored: the value shifted left by three bits, its low three bits the
   * count of decimal zeros taken off it, less one (0: none taken off). Negative nanoseconds (the
   * form above) come back as the writer gave them, as ORC's reader does.
   */
  static int nanos(long stored) {
    int zeros = 7 & (int) stored;
    int v = (int) (stored >>> 3);
    return zeros == 0 ? v : v * POWERS[zeros + 1];
  }

  /**
   * The decoder of {@link OrcStreamReader} for TIMESTAMP columns of parts (written in UTC, read
   * in UTC, the hybrid calendar both ways: the reader declines other files): seconds (DATA,
   * signed run-length encoding v2) and nanoseconds (SECONDARY, unsigned), into Hive's vector's
   * milliseconds and nanoseconds as ORC's reader and {@link #afterRead} after it give them
   * (nanoseconds in [0, 1 s)), so its batches need no pass after it. NULL slots hold 0.
   */
  static final class Decoder extends OrcColumnReaders.Column {
    private final RleV2Reader seconds;
    private final RleV2Reader nanos;
    private long[] secs = new long[0];
    private long[] stored = new long[0];

    Decoder(ByteRleReader present, RleV2Reader seconds, RleV2Reader nanos) {
      super(present);
      this.seconds = seconds;
      this.nanos = nanos;
    }

    @Override
    ColumnVector read(ColumnVector v, int n) {
      int k = nulls(v, n);
      if (secs.length < k) {
        secs = new long[k];
        stored = new long[k];
      }
      seconds.read(secs, 0, k);
      nanos.read(stored, 0, k);
      TimestampColumnVector t = (TimestampColumnVector) v;
      long[] time = t.time;
      int[] ns = t.nanos;
      boolean[] isNull = v.isNull;
      for (int i = 0, j = 0; i < n; i++) {
        if (k < n && isNull[i]) {
          time[i] = 0;
          ns[i] = 0;
          continue;
        }
        int nano = nanos(stored[j]);
        long millis = (secs[j++] + BASE_SECONDS) * 1000 + nano / 1_000_000;
        if (millis < 0 && nano > 999_999) {
          millis -= 1000; // as ORC's reader: whole seconds were stored rounded toward zero
        }
        time[i] = millis;
        ns[i] = nano < 0 ? nano + NANOS_PER_SECOND : nano; // what afterRead makes of ORC's reader's
      }
      return v;
    }

    @Override
    void skip(int n) {
      int k = skipNulls(n);
      seconds.skip(k);
      nanos.skip(k);
    }
  }
}

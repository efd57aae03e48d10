package dev.travertine.vector;

import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;

/**
 * Rows a scan produced: column vectors indexed by table column (only requested ones filled) and
 * the positions of the rows that passed the filter, {@code sel[0..size)}, in ascending order.
 * Valid until the consumer asks for the next batch. The vectorized operators pass the same shape
 * on (their vectors indexed by field).
 *
 * <p>Neither the vectors nor {@code sel} may be written by a consumer: a batch of every row
 * shares one read-only {@link #identity} selection, and a batch from the decoded-column cache
 * shares the cache's vectors.
 */
public record Batch(ColumnVector[] cols, int[] sel, int size) {
  private static volatile int[] identity = ascending(8192);

  private static int[] ascending(int n) {
    int[] a = new int[n];
    for (int i = 0; i < n; i++) {
      a[i] = i;
    }
    return a;
  }

  /** A shared selection 0, 1, 2, … of at least {@code n} positions: never to be written into. */
  public static int[] identity(int n) {
    int[] a = identity;
    if (a.length < n) {
      a = ascending(Math.max(n, 2 * a.length));
      identity = a;
    }
    return a;
  }
}

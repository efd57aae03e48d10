package dev.travertine.exec.agg;

import java.util.Arrays;

/** New arrays holding {@code a[order[k]]} at k, for k < n: one group-indexed array reordered. */
final class Gather {
  private Gather() {}

  static long[] longs(long[] a, int[] order, int n) {
    long[] b = new long[n];
    for (int k = 0; k < n; k++) {
      b[k] = a[order[k]];
    }
    return b;
  }

  static int[] ints(int[] a, int[] order, int n) {
    int[] b = new int[n];
    for (int k = 0; k < n; k++) {
      b[k] = a[order[k]];
    }
    return b;
  }

  static double[] doubles(double[] a, int[] order, int n) {
    double[] b = new double[n];
    for (int k = 0; k < n; k++) {
      b[k] = a[order[k]];
    }
    return b;
  }

  static byte[] bytes(byte[] a, int[] order, int n) {
    byte[] b = new byte[n];
    for (int k = 0; k < n; k++) {
      b[k] = a[order[k]];
    }
    return b;
  }

  static boolean[] booleans(boolean[] a, int[] order, int n) {
    boolean[] b = new boolean[n];
    for (int k = 0; k < n; k++) {
      b[k] = a[order[k]];
    }
    return b;
  }

  static <T> T[] objects(T[] a, int[] order, int n) {
    T[] b = Arrays.copyOf(a, n);
    for (int k = 0; k < n; k++) {
      b[k] = a[order[k]];
    }
    return b;
  }
}

package dev.travertine.mergetree.block;

/** A stable merge sort of int arrays by a comparator on the values (row numbers), without boxing. */
public final class IntSort {
  private IntSort() {}

  /** Compares two row numbers. */
  public interface IntComparator {
    int compare(int a, int b);
  }

  public static void sort(int[] a, IntComparator c) {
    if (a.length < 2) {
      return;
    }
    // Already sorted (common: inserts in key order) costs one pass.
    boolean sorted = true;
    for (int i = 1; i < a.length && sorted; i++) {
      sorted = c.compare(a[i - 1], a[i]) <= 0;
    }
    if (sorted) {
      return;
    }
    int[] tmp = a.clone();
    mergeSort(tmp, a, 0, a.length, c);
  }

  /** Sorts {@code a[from, to)}. */
  public static void sort(int[] a, int from, int to, IntComparator c) {
    if (to - from < 2) {
      return;
    }
    int[] tmp = java.util.Arrays.copyOfRange(a, from, to);
    int[] dst = java.util.Arrays.copyOfRange(a, from, to);
    mergeSort(tmp, dst, 0, dst.length, c);
    System.arraycopy(dst, 0, a, from, dst.length);
  }

  private static void mergeSort(int[] src, int[] dst, int lo, int hi, IntComparator c) {
    int n = hi - lo;
    if (n < 16) {
      for (int i = lo + 1; i < hi; i++) {
        int v = dst[i];
        int j = i - 1;
        while (j >= lo && c.compare(dst[j], v) > 0) {
          dst[j + 1] = dst[j];
          j--;
        }
        dst[j + 1] = v;
      }
      return;
    }
    int mid = (lo + hi) >>> 1;
    mergeSort(dst, src, lo, mid, c);
    mergeSort(dst, src, mid, hi, c);
    if (c.compare(src[mid - 1], src[mid]) <= 0) {
      System.arraycopy(src, lo, dst, lo, n);
      return;
    }
    for (int i = lo, p = lo, q = mid; i < hi; i++) {
      if (q >= hi || (p < mid && c.compare(src[p], src[q]) <= 0)) {
        dst[i] = src[p++];
      } else {
        dst[i] = src[q++];
      }
    }
  }
}

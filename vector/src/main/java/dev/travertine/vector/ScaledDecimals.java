package dev.travertine.vector;

import org.apache.hadoop.hive.serde2.io.HiveDecimalWritable;

/**
 * DECIMAL values as longs at a fixed scale (DuckDB's and Hive's DECIMAL64): the fast path of the
 * engine's DECIMAL arithmetic and sums. A value has a long form at scale s when its integer digits
 * plus s are at most 18; {@link #NO_FIT} stands for one that has none, and the caller then falls back
 * to exact {@code BigDecimal} arithmetic, so results are exact either way. Reading and writing go
 * through {@link HiveDecimalWritable#serialize64}/{@link HiveDecimalWritable#deserialize64}, which
 * allocate nothing.
 */
public final class ScaledDecimals {
  /** The most digits a long holds at any scale. */
  public static final int DIGITS = 18;
  /** Marks a value with no long form (it has 19 digits, so no value in range ever equals it). */
  public static final long NO_FIT = Long.MIN_VALUE;
  private static final long[] POW10 = new long[DIGITS + 1];

  static {
    POW10[0] = 1;
    for (int i = 1; i <= DIGITS; i++) {
      POW10[i] = POW10[i - 1] * 10;
    }
  }

  private ScaledDecimals() {
  }

  /** 10^e for 0 <= e <= 18. */
  public static long pow10(int e) {
    return POW10[e];
  }

  /** Whether every value of the type has a long form at the given scale (no check per value). */
  public static boolean alwaysFits(DataType t, int scale) {
    return t.precision() - t.scale() + scale <= DIGITS;
  }

  /**
   * w's value times 10^scale, or {@link #NO_FIT} when that needs more than 18 digits. {@code checked}
   * false skips the digit count where the type guarantees the fit ({@link #alwaysFits}).
   */
  public static long read(HiveDecimalWritable w, int scale, boolean checked) {
    if (checked && w.precision() - w.scale() + scale > DIGITS) {
      return NO_FIT;
    }
    return w.serialize64(scale);
  }

  /** x * 10^e, or {@link #NO_FIT} on overflow or where x is already NO_FIT. */
  public static long rescale(long x, int e) {
    if (e == 0 || x == NO_FIT) {
      return x;
    }
    long r = x * POW10[e];
    long hi = Math.multiplyHigh(x, POW10[e]);
    return (hi == 0 && r >= 0) || (hi == -1 && r < 0) ? checkRange(r) : NO_FIT;
  }

  /** x * y, or {@link #NO_FIT} on overflow or where either is NO_FIT. */
  public static long multiply(long x, long y) {
    if (x == NO_FIT || y == NO_FIT) {
      return NO_FIT;
    }
    long r = x * y;
    long hi = Math.multiplyHigh(x, y);
    return (hi == 0 && r >= 0) || (hi == -1 && r < 0) ? checkRange(r) : NO_FIT;
  }

  /** x + y, or {@link #NO_FIT} on overflow or where either is NO_FIT. */
  public static long add(long x, long y) {
    if (x == NO_FIT || y == NO_FIT) {
      return NO_FIT;
    }
    long r = x + y;
    return ((x ^ r) & (y ^ r)) < 0 ? NO_FIT : checkRange(r);
  }

  /** x - y, or {@link #NO_FIT} on overflow or where either is NO_FIT. */
  public static long subtract(long x, long y) {
    return y == NO_FIT ? NO_FIT : add(x, -y);
  }

  /** The long itself where it has at most 18 digits, else NO_FIT. */
  private static long checkRange(long r) {
    return r > -1_000_000_000_000_000_000L && r < 1_000_000_000_000_000_000L ? r : NO_FIT;
  }
}

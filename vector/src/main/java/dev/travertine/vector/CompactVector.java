package dev.travertine.vector;

import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;

/**
 * Our own vectors, values held compactly: {@link IntegerVector} (integers at their width) and
 * {@link DictionaryVector} (strings as dictionary ids). They are read-only, made once from decoded
 * values, and extend Hive's {@link ColumnVector} so that they travel in today's batches beside
 * Hive's vectors, with its null flags and {@code isRepeating}; every mutator throws. A consumer
 * that does not read them asks for Hive's form ({@link #widen}, or {@link Vectors#wide}).
 */
public abstract sealed class CompactVector extends ColumnVector permits IntegerVector, DictionaryVector {
  private static final boolean[][] NO_NULLS = {new boolean[1024]};

  /** The values' count (positions 0 .. length - 1; a repeating vector's value is at 0, and it may hold only that). */
  private final int length;

  CompactVector(Type type, int length) {
    super(type, 0);
    this.length = length;
  }

  /** Positions held: 0 .. length - 1. */
  public int length() {
    return length;
  }

  /** Hive's form: a new vector with the same values and flags. */
  public abstract ColumnVector widen();

  /** The heap this vector holds, roughly (without what it shares: null flags, a dictionary). */
  public abstract long bytes();

  /** A shared all-false null-flag array of at least {@code n} entries (never written: these vectors are read-only). */
  static boolean[] noNulls(int n) {
    boolean[] a = NO_NULLS[0];
    if (a.length >= n) {
      return a;
    }
    synchronized (NO_NULLS) {
      if (NO_NULLS[0].length < n) {
        NO_NULLS[0] = new boolean[Math.max(n, 2 * NO_NULLS[0].length)];
      }
      return NO_NULLS[0];
    }
  }

  private UnsupportedOperationException readOnly() {
    return new UnsupportedOperationException(getClass().getSimpleName() + " is read-only; widen it first");
  }

  @Override public void flatten(boolean selectedInUse, int[] sel, int size) {
    throw readOnly();
  }

  @Override public void setElement(int outputElementNum, int inputElementNum, ColumnVector input) {
    throw readOnly();
  }

  @Override public void copySelected(boolean selectedInUse, int[] sel, int size, ColumnVector output) {
    throw readOnly();
  }

  @Override public void shallowCopyTo(ColumnVector other) {
    throw readOnly();
  }

  @Override public void ensureSize(int size, boolean preserveData) {
    if (size > length && !isRepeating) {
      throw readOnly();
    }
  }

  @Override public void reset() {
    throw readOnly();
  }
}

package dev.travertine.vector;

/** INTEGER values and DATEs (days since 1970-01-01), four bytes each (see {@link IntegerVector}). */
public final class Int32Vector extends IntegerVector {
  /** The values; read them, never write them. */
  public final int[] values;

  private Int32Vector(int[] values, int length, TypeKind kind) {
    super(length, kind);
    this.values = values;
  }

  static Int32Vector of(long[] src, int n, TypeKind kind) {
    int[] v = new int[Math.max(n, 1)];
    for (int i = 0; i < n; i++) {
      v[i] = (int) src[i];
    }
    return new Int32Vector(v, n, kind);
  }

  @Override public int width() {
    return 4;
  }

  @Override public long get(int i) {
    return values[i];
  }

  @Override void widenAt(long[] out, int[] sel, int n) {
    for (int k = 0; k < n; k++) {
      int i = sel[k];
      out[i] = values[i];
    }
  }

  @Override void widenInto(long[] out) {
    for (int i = 0; i < length(); i++) {
      out[i] = values[i];
    }
  }
}

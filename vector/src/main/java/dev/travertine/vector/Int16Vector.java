package dev.travertine.vector;

/** SMALLINT values, two bytes each (see {@link IntegerVector}). */
public final class Int16Vector extends IntegerVector {
  /** The values; read them, never write them. */
  public final short[] values;

  private Int16Vector(short[] values, int length) {
    super(length, TypeKind.SMALLINT);
    this.values = values;
  }

  static Int16Vector of(long[] src, int n) {
    short[] v = new short[Math.max(n, 1)];
    for (int i = 0; i < n; i++) {
      v[i] = (short) src[i];
    }
    return new Int16Vector(v, n);
  }

  @Override public int width() {
    return 2;
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

package dev.travertine.vector;

/** BOOLEAN (0/1) and TINYINT values, one byte each (see {@link IntegerVector}). */
public final class Int8Vector extends IntegerVector {
  /** The values; read them, never write them (only the decoder that made the vector fills them: {@link #decoding}). */
  public final byte[] values;

  private Int8Vector(byte[] values, int length, TypeKind kind) {
    this(values, length, kind, false);
  }

  Int8Vector(byte[] values, int length, TypeKind kind, boolean refillable) {
    super(length, kind, refillable);
    this.values = values;
  }

  static Int8Vector of(long[] src, int n, TypeKind kind) {
    byte[] v = new byte[Math.max(n, 1)];
    for (int i = 0; i < n; i++) {
      v[i] = (byte) src[i];
    }
    return new Int8Vector(v, n, kind);
  }

  @Override public int width() {
    return 1;
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

  @Override int select(int l, int h, boolean negate, int[] sel, int n, int[] out, boolean dense, boolean branching) {
    byte[] x = values;
    int c = 0;
    for (int k = 0; k < n; k++) {
      int i = sel[k];
      out[c] = i;
      c += (x[i] >= l & x[i] <= h) != negate ? 1 : 0;
    }
    return c;
  }
}

package dev.travertine.vector;

/** SMALLINT values, two bytes each (see {@link IntegerVector}). */
public final class Int16Vector extends IntegerVector {
  /** The values; read them, never write them (only the decoder that made the vector fills them: {@link #decoding}). */
  public final short[] values;

  private Int16Vector(short[] values, int length) {
    this(values, length, false);
  }

  Int16Vector(short[] values, int length, boolean refillable) {
    super(length, TypeKind.SMALLINT, refillable);
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

  @Override int select(int l, int h, boolean negate, int[] sel, int n, int[] out, boolean dense, boolean branching) {
    return l == h ? selectEq(values, l, negate, sel, n, out, dense, branching)
        : selectIn(values, l, h, negate, sel, n, out, dense, branching);
  }

  private static int selectEq(short[] x, int v, boolean negate, int[] sel, int n, int[] out, boolean dense,
      boolean branching) {
    int c = 0;
    if (dense && branching) {
      for (int i = 0; i < n; i++) {
        if ((x[i] == v) != negate) {
          out[c++] = i;
        }
      }
    } else if (dense) {
      for (int i = 0; i < n; i++) {
        out[c] = i;
        c += (x[i] == v) != negate ? 1 : 0;
      }
    } else {
      for (int k = 0; k < n; k++) {
        int i = sel[k];
        out[c] = i;
        c += (x[i] == v) != negate ? 1 : 0;
      }
    }
    return c;
  }

  private static int selectIn(short[] x, int l, int h, boolean negate, int[] sel, int n, int[] out, boolean dense,
      boolean branching) {
    int c = 0;
    if (dense && branching) {
      for (int i = 0; i < n; i++) {
        if ((x[i] >= l & x[i] <= h) != negate) {
          out[c++] = i;
        }
      }
    } else if (dense) {
      for (int i = 0; i < n; i++) {
        out[c] = i;
        c += (x[i] >= l & x[i] <= h) != negate ? 1 : 0;
      }
    } else {
      for (int k = 0; k < n; k++) {
        int i = sel[k];
        out[c] = i;
        c += (x[i] >= l & x[i] <= h) != negate ? 1 : 0;
      }
    }
    return c;
  }
}

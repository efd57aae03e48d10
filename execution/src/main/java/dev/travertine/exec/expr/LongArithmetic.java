package dev.travertine.exec.expr;

import dev.travertine.exec.Columns;
import dev.travertine.vector.Batch;
import dev.travertine.vector.DataType;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.LongColumnVector;

/**
 * + - * / MOD on TINYINT..BIGINT results, operands long-backed. Computes in 64 bits and narrows to
 * the result type, which is Java's wrap-around in that type (as Calcite's generated code does).
 * Integer division or MOD by zero throws {@code ArithmeticException("/ by zero")} for selected,
 * non-NULL rows only.
 */
final class LongArithmetic extends VecExpr {
  private final Op op;
  private final VecExpr left;
  private final VecExpr right;

  LongArithmetic(Op op, VecExpr left, VecExpr right, DataType type) {
    super(type);
    this.op = op;
    this.left = left;
    this.right = right;
  }

  @Override ColumnVector eval(Batch batch) {
    int n = batch.size();
    int[] sel = batch.sel();
    LongColumnVector r = VectorArena.longs(Vecs.capacity(batch));
    if (n == 0) {
      return r;
    }
    ColumnVector a = left.eval(batch);
    ColumnVector b = right.eval(batch);
    long[] x = Vecs.longValues(a);
    long[] y = Vecs.longValues(b);
    long[] z = r.vector;
    if (a.isRepeating && b.isRepeating) {
      r.isRepeating = true;
      if (Vecs.isNull(a, 0) || Vecs.isNull(b, 0)) {
        Vecs.setNull(r, 0);
      } else {
        z[0] = narrow(apply(op, x[0], y[0]));
      }
      return r;
    }
    boolean nulls = Vecs.propagateNulls(r, a, b, sel, n);
    boolean ar = a.isRepeating;
    boolean br = b.isRepeating;
    if (nulls && (op == Op.DIVIDE || op == Op.MOD)) {
      boolean[] rn = r.isNull;
      for (int k = 0; k < n; k++) {
        int i = sel[k];
        if (!rn[i]) {
          long u = x[ar ? 0 : i];
          long v = y[br ? 0 : i];
          z[i] = op == Op.DIVIDE ? u / v : u % v;
        }
      }
    } else if (ar) {
      scalarColumn(op, x[0], y, z, sel, n);
    } else if (br) {
      columnScalar(op, x, y[0], z, sel, n);
    } else {
      columnColumn(op, x, y, z, sel, n);
    }
    narrowAll(z, sel, n);
    return r;
  }

  static long apply(Op op, long u, long v) {
    return switch (op) {
      case PLUS -> u + v;
      case MINUS -> u - v;
      case TIMES -> u * v;
      case DIVIDE -> u / v;
      case MOD -> u % v;
      default -> throw new IllegalArgumentException("Not an arithmetic operator: " + op);
    };
  }

  private static void columnColumn(Op op, long[] x, long[] y, long[] z, int[] sel, int n) {
    if (Columns.dense(sel, n)) {
      switch (op) {
        case PLUS -> { for (int i = 0; i < n; i++) { z[i] = x[i] + y[i]; } return; }
        case MINUS -> { for (int i = 0; i < n; i++) { z[i] = x[i] - y[i]; } return; }
        case TIMES -> { for (int i = 0; i < n; i++) { z[i] = x[i] * y[i]; } return; }
        default -> { }
      }
    }
    switch (op) {
      case PLUS -> { for (int k = 0; k < n; k++) { int i = sel[k]; z[i] = x[i] + y[i]; } }
      case MINUS -> { for (int k = 0; k < n; k++) { int i = sel[k]; z[i] = x[i] - y[i]; } }
      case TIMES -> { for (int k = 0; k < n; k++) { int i = sel[k]; z[i] = x[i] * y[i]; } }
      case DIVIDE -> { for (int k = 0; k < n; k++) { int i = sel[k]; z[i] = x[i] / y[i]; } }
      case MOD -> { for (int k = 0; k < n; k++) { int i = sel[k]; z[i] = x[i] % y[i]; } }
      default -> throw new IllegalArgumentException("Not an arithmetic operator: " + op);
    }
  }

  private static void columnScalar(Op op, long[] x, long c, long[] z, int[] sel, int n) {
    if (Columns.dense(sel, n)) {
      // Contiguous rows: loops the JIT can unroll and vectorise.
      switch (op) {
        case PLUS -> { for (int i = 0; i < n; i++) { z[i] = x[i] + c; } return; }
        case MINUS -> { for (int i = 0; i < n; i++) { z[i] = x[i] - c; } return; }
        case TIMES -> { for (int i = 0; i < n; i++) { z[i] = x[i] * c; } return; }
        default -> { }
      }
    }
    switch (op) {
      case PLUS -> { for (int k = 0; k < n; k++) { int i = sel[k]; z[i] = x[i] + c; } }
      case MINUS -> { for (int k = 0; k < n; k++) { int i = sel[k]; z[i] = x[i] - c; } }
      case TIMES -> { for (int k = 0; k < n; k++) { int i = sel[k]; z[i] = x[i] * c; } }
      case DIVIDE -> {
        if (c == 0) {
          throw new ArithmeticException("/ by zero");
        }
        for (int k = 0; k < n; k++) { int i = sel[k]; z[i] = x[i] / c; }
      }
      case MOD -> {
        if (c == 0) {
          throw new ArithmeticException("/ by zero");
        }
        for (int k = 0; k < n; k++) { int i = sel[k]; z[i] = x[i] % c; }
      }
      default -> throw new IllegalArgumentException("Not an arithmetic operator: " + op);
    }
  }

  private static void scalarColumn(Op op, long c, long[] y, long[] z, int[] sel, int n) {
    switch (op) {
      case PLUS -> { for (int k = 0; k < n; k++) { int i = sel[k]; z[i] = c + y[i]; } }
      case MINUS -> { for (int k = 0; k < n; k++) { int i = sel[k]; z[i] = c - y[i]; } }
      case TIMES -> { for (int k = 0; k < n; k++) { int i = sel[k]; z[i] = c * y[i]; } }
      case DIVIDE -> { for (int k = 0; k < n; k++) { int i = sel[k]; z[i] = c / y[i]; } }
      case MOD -> { for (int k = 0; k < n; k++) { int i = sel[k]; z[i] = c % y[i]; } }
      default -> throw new IllegalArgumentException("Not an arithmetic operator: " + op);
    }
  }

  private long narrow(long v) {
    return switch (type.kind()) {
      case TINYINT -> (byte) v;
      case SMALLINT -> (short) v;
      case INTEGER -> (int) v;
      default -> v;
    };
  }

  private void narrowAll(long[] z, int[] sel, int n) {
    if (Columns.dense(sel, n)) {
      switch (type.kind()) {
        case TINYINT -> { for (int i = 0; i < n; i++) { z[i] = (byte) z[i]; } }
        case SMALLINT -> { for (int i = 0; i < n; i++) { z[i] = (short) z[i]; } }
        case INTEGER -> { for (int i = 0; i < n; i++) { z[i] = (int) z[i]; } }
        default -> { }
      }
      return;
    }
    switch (type.kind()) {
      case TINYINT -> { for (int k = 0; k < n; k++) { int i = sel[k]; z[i] = (byte) z[i]; } }
      case SMALLINT -> { for (int k = 0; k < n; k++) { int i = sel[k]; z[i] = (short) z[i]; } }
      case INTEGER -> { for (int k = 0; k < n; k++) { int i = sel[k]; z[i] = (int) z[i]; } }
      default -> { }
    }
  }

  /** Unary minus on a long-backed type, wrapping in the type. */
  static final class Negate extends VecExpr {
    private final VecExpr arg;

    Negate(VecExpr arg, DataType type) {
      super(type);
      this.arg = arg;
    }

    @Override ColumnVector eval(Batch batch) {
      int n = batch.size();
      int[] sel = batch.sel();
      LongColumnVector r = VectorArena.longs(Vecs.capacity(batch));
      if (n == 0) {
        return r;
      }
      ColumnVector a = arg.eval(batch);
      long[] x = Vecs.longValues(a);
      long[] z = r.vector;
      int shift = switch (type.kind()) {
        case TINYINT -> 56;
        case SMALLINT -> 48;
        case INTEGER -> 32;
        default -> 0;
      };
      if (a.isRepeating) {
        r.isRepeating = true;
        if (Vecs.isNull(a, 0)) {
          Vecs.setNull(r, 0);
        } else {
          z[0] = (-x[0] << shift) >> shift;
        }
        return r;
      }
      Vecs.propagateNulls(r, a, sel, n);
      for (int k = 0; k < n; k++) {
        int i = sel[k];
        z[i] = (-x[i] << shift) >> shift;
      }
      return r;
    }
  }
}

package dev.travertine.exec.expr;

import dev.travertine.vector.Batch;
import dev.travertine.vector.DataType;
import dev.travertine.vector.TypeKind;
import org.apache.hadoop.hive.ql.exec.vector.ColumnVector;
import org.apache.hadoop.hive.ql.exec.vector.DoubleColumnVector;

/**
 * + - * / MOD (and NEGATE) on DOUBLE or REAL results, IEEE semantics (x / 0 is an infinity or
 * NaN), except MOD, which is Calcite's exact BigDecimal remainder: equal to Java's {@code %} but
 * for the sign of a zero result, and failing for a zero divisor ({@code ArithmeticException}) or
 * an infinite or NaN operand ({@code NumberFormatException}). REAL results are rounded to float after each operation, which equals float arithmetic.
 */
final class DoubleArithmetic extends VecExpr {
  private final Op op;
  private final VecExpr left;
  private final VecExpr right;

  /** {@code right} is null for NEGATE. */
  DoubleArithmetic(Op op, VecExpr left, VecExpr right, DataType type) {
    super(type);
    this.op = op;
    this.left = left;
    this.right = right;
  }

  @Override ColumnVector eval(Batch batch) {
    int n = batch.size();
    int[] sel = batch.sel();
    DoubleColumnVector r = VectorArena.doubles(Vecs.capacity(batch));
    r.noNulls = true;
    if (n == 0) {
      return r;
    }
    double[] z = r.vector;
    ColumnVector a = left.eval(batch);
    double[] x = ((DoubleColumnVector) a).vector;
    if (op == Op.NEGATE) {
      if (a.isRepeating) {
        r.isRepeating = true;
        r.noNulls = a.noNulls || !a.isNull[0];
        r.isNull[0] = !r.noNulls;
        z[0] = -x[0];
        return r;
      }
      Vecs.propagateNulls(r, a, sel, n);
      for (int k = 0; k < n; k++) {
        int i = sel[k];
        z[i] = -x[i];
      }
      return r;
    }
    ColumnVector b = right.eval(batch);
    double[] y = ((DoubleColumnVector) b).vector;
    boolean real = type.kind() == TypeKind.REAL;
    if (a.isRepeating && b.isRepeating) {
      r.isRepeating = true;
      if (Vecs.isNull(a, 0) || Vecs.isNull(b, 0)) {
        Vecs.setNull(r, 0);
      } else {
        if (op == Op.MOD) {
          checkModulus(x, true, y, true, null, new int[] {0}, 1);
        }
        double v = apply(op, x[0], y[0]);
        z[0] = real ? (float) v : v;
      }
      return r;
    }
    boolean nulls = Vecs.propagateNulls(r, a, b, sel, n);
    if (op == Op.MOD) {
      checkModulus(x, a.isRepeating, y, b.isRepeating, nulls ? r.isNull : null, sel, n);
    }
    if (a.isRepeating) {
      double c = x[0];
      switch (op) {
        case PLUS -> { for (int k = 0; k < n; k++) { int i = sel[k]; z[i] = c + y[i]; } }
        case MINUS -> { for (int k = 0; k < n; k++) { int i = sel[k]; z[i] = c - y[i]; } }
        case TIMES -> { for (int k = 0; k < n; k++) { int i = sel[k]; z[i] = c * y[i]; } }
        case DIVIDE -> { for (int k = 0; k < n; k++) { int i = sel[k]; z[i] = c / y[i]; } }
        case MOD -> { for (int k = 0; k < n; k++) { int i = sel[k]; z[i] = c % y[i]; } }
        default -> throw new IllegalArgumentException("Not an arithmetic operator: " + op);
      }
    } else if (b.isRepeating) {
      double c = y[0];
      switch (op) {
        case PLUS -> { for (int k = 0; k < n; k++) { int i = sel[k]; z[i] = x[i] + c; } }
        case MINUS -> { for (int k = 0; k < n; k++) { int i = sel[k]; z[i] = x[i] - c; } }
        case TIMES -> { for (int k = 0; k < n; k++) { int i = sel[k]; z[i] = x[i] * c; } }
        case DIVIDE -> { for (int k = 0; k < n; k++) { int i = sel[k]; z[i] = x[i] / c; } }
        case MOD -> { for (int k = 0; k < n; k++) { int i = sel[k]; z[i] = x[i] % c; } }
        default -> throw new IllegalArgumentException("Not an arithmetic operator: " + op);
      }
    } else {
      switch (op) {
        case PLUS -> { for (int k = 0; k < n; k++) { int i = sel[k]; z[i] = x[i] + y[i]; } }
        case MINUS -> { for (int k = 0; k < n; k++) { int i = sel[k]; z[i] = x[i] - y[i]; } }
        case TIMES -> { for (int k = 0; k < n; k++) { int i = sel[k]; z[i] = x[i] * y[i]; } }
        case DIVIDE -> { for (int k = 0; k < n; k++) { int i = sel[k]; z[i] = x[i] / y[i]; } }
        case MOD -> { for (int k = 0; k < n; k++) { int i = sel[k]; z[i] = x[i] % y[i]; } }
        default -> throw new IllegalArgumentException("Not an arithmetic operator: " + op);
      }
    }
    if (real) {
      for (int k = 0; k < n; k++) {
        int i = sel[k];
        z[i] = (float) z[i];
      }
    }
    if (op == Op.MOD) {
      for (int k = 0; k < n; k++) {
        int i = sel[k];
        z[i] += 0.0; // BigDecimal has no negative zero
      }
    }
    return r;
  }

  /** Calcite's MOD goes through BigDecimal: an infinite or NaN operand, or a zero divisor, fails. */
  private static void checkModulus(double[] x, boolean xr, double[] y, boolean rep, boolean[] nul, int[] sel, int n) {
    for (int k = 0; k < n; k++) {
      int i = sel[k];
      if (nul != null && nul[i]) {
        continue;
      }
      double u = x[xr ? 0 : i];
      double v = y[rep ? 0 : i];
      if (!Double.isFinite(u) || !Double.isFinite(v)) {
        throw new NumberFormatException("Infinite or NaN");
      }
      if (v == 0) {
        throw new ArithmeticException("Division by zero");
      }
    }
  }

  static double apply(Op op, double u, double v) {
    return switch (op) {
      case PLUS -> u + v;
      case MINUS -> u - v;
      case TIMES -> u * v;
      case DIVIDE -> u / v;
      case MOD -> u % v + 0.0;
      default -> throw new IllegalArgumentException("Not an arithmetic operator: " + op);
    };
  }
}
